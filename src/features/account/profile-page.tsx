import { AccountPage } from "@/features/account/account-page";

export default function ProfilePage() {
  return <AccountPage defaultTab="profile" />;
}
