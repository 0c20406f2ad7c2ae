import { ProfilePage } from "@/features/profiles/profile-page";
import { BookAction } from "@/features/bookings/book-action";

/** /professionals/:id: the public profile, its Book button composed in from the bookings feature. */
export default function ProfessionalProfilePage() {
  return <ProfilePage BookAction={BookAction} />;
}
