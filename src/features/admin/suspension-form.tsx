import { useMutation, useQuery } from "convex/react";
import { Link } from "@/components/link";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { MODERATION_FIELDS } from "@convex/rules/moderation";
import { Button } from "@/components/ui/button";
import { TextareaField } from "@/components/ui/inputs";
import { lengthMessage } from "@/lib/length-message";
import { m } from "@/i18n/paraglide/messages";
import { useBusyCall } from "@/lib/use-busy-call";
import { formatNumber } from "@/lib/numbers";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";
import { localServiceName } from "@/i18n/services";
import { bookingStatusBadge } from "@/components/booking-status";

const LIMITS = MODERATION_FIELDS.accountReason;

/**
 * Suspend or restore an account, with the reason kept in its history. Suspending signs the user out
 * everywhere at once, hides a professional's listing and cancels their open bookings.
 */
export function SuspensionForm({
  userId,
  name,
  suspended,
  onDone,
}: {
  userId: Id<"users">;
  name: string;
  suspended: boolean;
  onDone?: () => void;
}) {
  const account = useQuery(api.adminAccounts.get, suspended ? "skip" : { userId });
  const suspend = useMutation(api.adminAccounts.suspend);
  const restore = useMutation(api.adminAccounts.restore);
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const { busy, run } = useBusyCall();
  const hintId = useId();
  const problem = lengthMessage(reason, LIMITS, (min) => m.error_min_chars({ min }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setTried(true);
    if (problem) return;
    const done = await run(
      () => (suspended ? restore : suspend)({ userId, reason: reason.trim() }),
      m.admin_suspend_failed(),
    );
    if (!done) return;
    toast.success(suspended ? m.admin_restored_toast({ name }) : m.admin_suspended_toast({ name }));
    setReason("");
    setTried(false);
    onDone?.();
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3" noValidate>
      {!suspended && (
        <p id={hintId} className="text-sm text-slate-600">
          {m.admin_suspend_effects()}
        </p>
      )}
      {account && account.openBookings.length > 0 && (
        <OpenBookings bookings={account.openBookings} />
      )}
      <TextareaField
        label={suspended ? m.admin_restore_reason() : m.admin_suspend_reason()}
        rows={3}
        maxLength={LIMITS.max}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={tried ? problem : undefined}
        aria-describedby={suspended ? undefined : hintId}
      />
      <Button type="submit" variant={suspended ? "primary" : "danger"} disabled={busy}>
        {suspended ? m.admin_restore_action() : m.admin_suspend_action()}
      </Button>
    </form>
  );
}

type OpenBooking = NonNullable<
  ReturnType<typeof useQuery<typeof api.adminAccounts.get>>
>["openBookings"][number];

/** The open bookings a suspension cancels: the admin sees them before confirming. */
function OpenBookings({ bookings }: { bookings: OpenBooking[] }) {
  return (
    <div className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
      <p className="font-medium">
        {m.admin_suspend_open_bookings({ count: formatNumber(bookings.length) })}
      </p>
      <ul className="mt-2 space-y-1">
        {bookings.map((b) => (
          <li key={b._id}>
            <Link to={paths.adminBooking(b._id)} className="underline underline-offset-2">
              {b.services.map((name) => localServiceName(name)).join(", ")}
            </Link>{" "}
            — {b.otherName} · {bookingStatusBadge(b.status, "customer").label} ·{" "}
            {formatDateTime(b.scheduledFor)}
          </li>
        ))}
      </ul>
    </div>
  );
}
