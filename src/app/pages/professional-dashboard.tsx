import { DashboardPage } from "@/features/professional/dashboard-page";
import { DashboardBookings } from "@/features/bookings/professional-bookings";

/** /professional-dashboard: the dashboard, its bookings panel composed in from the bookings feature. */
export default function ProfessionalDashboardPage() {
  return <DashboardPage Bookings={DashboardBookings} />;
}
