import { DashboardPage } from "@/features/professional/dashboard-page";
import { DashboardBookings } from "@/features/bookings/professional-bookings";
import { LastKnownJobs } from "@/features/bookings/last-known-jobs";

/**
 * /professional-dashboard: the dashboard, its bookings panel and its offline copy of them composed in
 * from the bookings feature.
 */
export default function ProfessionalDashboardPage() {
  return <DashboardPage Bookings={DashboardBookings} LastKnown={LastKnownJobs} />;
}
