import { BookingAlerts } from "@/app/pwa/booking-alerts";
import { AccountPage } from "@/features/account/account-page";
import { CustomerBookings } from "@/features/bookings/customer-bookings";

/** /customer/profile: the account page, My Bookings composed in from the bookings feature. */
export default function CustomerProfilePage() {
  return (
    <AccountPage
      defaultTab="profile"
      bookings={
        <>
          <BookingAlerts />
          <CustomerBookings />
        </>
      }
    />
  );
}
