import { AccountPage } from "@/features/account/account-page";
import { CustomerBookings } from "@/features/bookings/customer-bookings";

/** /customer/notification: the account page opened on its Notifications tab. */
export default function CustomerNotificationsPage() {
  return <AccountPage defaultTab="notifications" bookings={<CustomerBookings />} />;
}
