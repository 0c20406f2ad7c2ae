import { AccountPage } from "@/features/account/account-page";

/** /customer/notification: the account page opened on its Notifications tab. */
export default function NotificationsPage() {
  return <AccountPage defaultTab="notifications" />;
}
