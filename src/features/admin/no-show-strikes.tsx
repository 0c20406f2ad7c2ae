import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { NO_SHOW } from "@convex/rules/noShow";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";
import { useBusyCall } from "@/lib/use-busy-call";

/** A professional's no-show strikes in the window (rules/noShow.ts), live, and the hold to clear. */
export function NoShowStrikes({ professionalId }: { professionalId: Id<"professionals"> }) {
  const record = useQuery(api.noShows.forProfessional, { professionalId });
  const clear = useMutation(api.noShows.clearHold);
  const { busy, run } = useBusyCall();
  if (!record) return null;
  return (
    <section
      aria-label={m.admin_no_show_title()}
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 lg:col-span-2"
    >
      <h2 className="font-semibold text-slate-900">{m.admin_no_show_title()}</h2>
      <p className="mt-1 text-sm text-slate-700">
        {m.admin_no_show_count({
          count: formatNumber(record.strikes.length),
          max: formatNumber(NO_SHOW.strikes),
        })}
      </p>
      {record.heldSince !== null && (
        <p role="status" className="mt-2 rounded-lg bg-red-50 p-2 text-sm text-red-900">
          {m.admin_no_show_held({ when: formatDateTime(record.heldSince) })}
        </p>
      )}
      {record.strikes.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{m.admin_no_show_none()}</p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {record.strikes.map((s) => (
            <li key={s.bookingId} className="rounded-lg bg-slate-50 p-2">
              {(s.kind === "late_cancel" ? m.admin_late_cancel_item : m.admin_no_show_item)({
                when: formatDateTime(s.scheduledFor ?? s.at),
                services: s.services.join(", "),
              })}
            </li>
          ))}
        </ul>
      )}
      {(record.heldSince !== null || record.strikes.length > 0) && (
        <Button
          className="mt-3"
          size="sm"
          disabled={busy}
          onClick={async () => {
            if (await run(() => clear({ professionalId }), m.admin_no_show_clear_failed()))
              toast.success(m.admin_no_show_cleared());
          }}
        >
          {m.admin_no_show_clear()}
        </Button>
      )}
    </section>
  );
}
