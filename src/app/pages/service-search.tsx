import { SearchPage } from "@/features/search/search-page";
import { BookAction } from "@/features/bookings/book-action";

/** /services/search: the search page, its Book buttons composed in from the bookings feature. */
export default function ServiceSearchPage() {
  return <SearchPage BookAction={BookAction} />;
}
