import { useMutation, useQuery } from "convex/react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { cityName } from "@convex/constants";
import { bookability } from "@convex/rules/bookability";
import { Avatar } from "@/components/avatar";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { ResubmitDocuments } from "@/features/professional/resubmit-documents";

const STATUS: Record<
  "unverified" | "verified" | "rejected",
  { label: string; tone: BadgeTone; help: string }
> = {
  unverified: {
    label: "Unverified",
    tone: "warning",
    help: "An admin is checking your documents. Customers see you once you are verified.",
  },
  verified: {
    label: "Verified",
    tone: "success",
    help: "Your documents were checked by GharSewa.",
  },
  rejected: {
    label: "Rejected",
    tone: "danger",
    help: "Your verification was rejected. Send new documents and an admin will check them again.",
  },
};

/** '4.8 (23 reviews)' from real reviews, or 'No reviews yet'. */
export function ratingText({ average, count }: { average: number; count: number }): string {
  if (count === 0) return "No reviews yet";
  return `${average.toFixed(1)} (${count} ${count === 1 ? "review" : "reviews"})`;
}

export function ProfileCard() {
  const me = useQuery(api.professionals.me);
  if (me === undefined) {
    return (
      <Card>
        <LoadingState label="Loading your profile…" />
      </Card>
    );
  }
  if (me === null) {
    return <ErrorState title="Your professional profile could not be found." />;
  }
  const first = me.locations[0];
  const status = STATUS[me.verification.status];
  return (
    <Card>
      <div className="flex items-center gap-4">
        <Avatar src={me.photoUrl} name={me.name} size={64} />
        <div className="min-w-0">
          <h2 className="truncate text-lg font-semibold text-slate-900">{me.name}</h2>
          <p className="text-sm text-slate-600">{me.specialtyName}</p>
          <p className="text-sm text-slate-600">
            {first
              ? `${cityName(first.city)}${first.zipCode ? `, ${first.zipCode}` : ""}`
              : "No location available"}
          </p>
        </div>
      </div>
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex items-center justify-between gap-2">
          <dt className="text-slate-600">Rating</dt>
          <dd className="font-medium text-slate-900">
            {me.rating.count > 0 && (
              <span aria-hidden="true" className="mr-1 text-accent-500">
                ★
              </span>
            )}
            {ratingText(me.rating)}
          </dd>
        </div>
        <div className="flex items-center justify-between gap-2">
          <dt className="text-slate-600">Account status</dt>
          <dd>
            <Badge tone={status.tone}>{status.label}</Badge>
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-500">{status.help}</p>
      {me.verification.note && (
        <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <span className="font-medium">Note from {me.verification.noteFrom}:</span>{" "}
          {me.verification.note}
        </p>
      )}
      {me.verification.status === "rejected" && <Resubmit documents={me.documents} />}
      <AvailabilityToggle
        available={me.available}
        verified={me.verification.status === "verified"}
      />
    </Card>
  );
}

/** Rejected professionals send new document images from here; the badge turns Unverified by itself. */
function Resubmit({
  documents,
}: {
  documents: ComponentProps<typeof ResubmitDocuments>["current"];
}) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button size="sm" className="mt-3 w-full sm:w-auto" onClick={() => setOpen(true)}>
        Re-submit documents
      </Button>
    );
  }
  return <ResubmitDocuments current={documents} onDone={() => setOpen(false)} />;
}

function AvailabilityToggle({ available, verified }: { available: boolean; verified: boolean }) {
  const canBook = bookability({ available, verified });
  const setAvailability = useMutation(api.professionals.setAvailability);
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    try {
      await setAvailability({ available: !available });
      toast.success(
        available
          ? "You are now unavailable for new bookings."
          : "You are now available for new bookings.",
      );
    } catch (error) {
      toast.error(errorMessage(error, "Could not change your availability. Please try again."));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
      <div>
        <p id="availability-label" className="text-sm font-medium text-slate-900">
          Available for bookings
        </p>
        <p className="text-xs text-slate-500">
          {canBook.bookable
            ? "Customers can book you."
            : available
              ? canBook.ownReason
              : "Hidden from new bookings (e.g. during Dashain or Tihar)."}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={available}
        aria-labelledby="availability-label"
        disabled={busy}
        onClick={() => void toggle()}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60 ${
          available ? "bg-brand-600" : "bg-slate-300"
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${
            available ? "translate-x-6" : "translate-x-1"
          }`}
        />
      </button>
    </div>
  );
}

function Card({ children }: { children: ReactNode }) {
  return (
    <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      {children}
    </section>
  );
}
