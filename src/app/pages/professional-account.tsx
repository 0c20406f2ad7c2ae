import { AccountPage } from "@/features/account/account-page";

/** /professional/account: a professional's profile, data export and account deletion. */
export default function ProfessionalAccountPage() {
  return <AccountPage defaultTab="profile" />;
}
