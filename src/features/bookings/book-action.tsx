import { Suspense, useState } from "react";
import { lazyWhenOnline } from "@/lib/import-when-online";
import { useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { useConvexAuth, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { bookability } from "@convex/rules/bookability";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { BOOK_PARAM, withBookIntent, type BookActionProps } from "@/lib/booking-intent";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

// The form (zod, TanStack Form) loads when a customer is about to book, not with the page.
const loadBookingDialog = () => import("@/features/bookings/booking-dialog");
const BookingDialog = lazyWhenOnline(() =>
  loadBookingDialog().then((m) => ({ default: m.BookingDialog })),
);

/**
 * Book for a bookable professional, or why not. A visitor goes to /login and comes back to this
 * page with the dialog open (?book=<id>); a customer gets the dialog at once.
 */
export function BookAction({ professional, category }: BookActionProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const { isAuthenticated } = useConvexAuth();
  const viewer = useQuery(api.users.viewer, isAuthenticated ? {} : "skip");
  const [open, setOpen] = useState(false);
  const intended = params.get(BOOK_PARAM) === professional._id;
  const canBook = bookability(professional);

  if (!canBook.bookable) {
    return (
      <p className="max-w-40 text-right text-xs text-slate-600" data-testid="not-bookable">
        {canBook.code === "PROFESSIONAL_UNVERIFIED"
          ? m.bookable_unverified()
          : m.bookable_unavailable()}
      </p>
    );
  }

  function book() {
    if (!isAuthenticated || viewer === null) {
      toast.info(m.book_login_first());
      navigate(paths.login(withBookIntent(location.pathname + location.search, professional._id)));
      return;
    }
    if (viewer && viewer.role !== "customer") {
      toast.error(m.book_customers_only());
      return;
    }
    setOpen(true);
  }

  function close() {
    setOpen(false);
    if (intended) {
      setParams(
        (p) => {
          p.delete(BOOK_PARAM);
          return p;
        },
        { replace: true },
      );
    }
  }

  const showDialog = (open || intended) && viewer?.role === "customer";
  return (
    <>
      <Button
        size="sm"
        onPointerEnter={() => void loadBookingDialog()}
        onFocus={() => void loadBookingDialog()}
        onClick={book}
        aria-label={m.book_title({ name: professional.name })}
      >
        {m.book_button()}
      </Button>
      {showDialog && viewer && (
        <Suspense fallback={<LoadingState label={m.book_opening()} />}>
          <BookingDialog
            professional={professional}
            category={category}
            defaultAddress={viewer.address}
            onClose={close}
          />
        </Suspense>
      )}
    </>
  );
}
