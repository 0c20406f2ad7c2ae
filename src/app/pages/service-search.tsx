import { useEffect } from "react";
import { afterLoad } from "@/lib/after-load";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { SearchPage } from "@/features/search/search-page";

// Book is on the professionals' cards, which come after the first paint (ProfessionalsList).
const loadBookAction = () => import("@/features/bookings/book-action");
const BookAction = lazyWhenOnline(() =>
  loadBookAction().then((module) => ({ default: module.BookAction })),
);

/** /services/search: the search page, its Book buttons composed in from the bookings feature. */
export default function ServiceSearchPage() {
  useEffect(() => afterLoad(() => void loadBookAction()), []);
  return <SearchPage BookAction={BookAction} />;
}
