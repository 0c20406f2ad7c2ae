import { useState } from "react";
import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import type { RescheduleView } from "@convex/model/reschedules";
import type { BookingStatus } from "@convex/rules/bookingLifecycle";
import { proposalRefusal, RESCHEDULE } from "@convex/rules/reschedule";
import { SLOT_STEP_MINUTES } from "@convex/rules/schedule";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { LoadingState } from "@/components/ui/states";
import { errorData, errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { useNow } from "@/lib/use-now";
import { useBusyCall } from "@/lib/use-busy-call";
import { NextFreeSlots, SlotGrid } from "@/features/bookings/slot-picker";
import { m } from "@/i18n/paraglide/messages";

const STEP_MS = SLOT_STEP_MINUTES * 60_000;

type MovableBooking = {
  _id: Id<"bookings">;
  status: BookingStatus;
  scheduledFor: number;
  reschedule: RescheduleView;
};

/**
 * The customer's side of moving a booking (rules/reschedule.ts): "Propose another time" while the
 * rule allows it, the proposal waiting for the professional's answer (which they may withdraw), and
 * the earlier outcomes.
 */
export function CustomerReschedule({
  booking: b,
  name,
}: {
  booking: MovableBooking;
  name: string;
}) {
  const { pending, history, left } = b.reschedule;
  // the latest step's time is a floor for the clock: a lapse hides the button when it arrives
  const now = Math.max(useNow(), history.at(-1)?.at ?? 0);
  const [open, setOpen] = useState(false);
  const refusal = proposalRefusal({
    status: b.status,
    scheduledFor: b.scheduledFor,
    proposals: RESCHEDULE.maxPerBooking - left,
    pending: pending !== null,
    now,
  });
  if (pending === null && refusal !== null && history.length === 0) return null;
  return (
    <div className="mt-3 space-y-2">
      {pending && <WaitingProposal bookingId={b._id} pending={pending} name={name} />}
      <History history={history} name={name} audience="customer" />
      {refusal === null && (
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
            {m.reschedule_open()}
          </Button>
          <span className="text-xs text-slate-500">
            {m.reschedule_left({ count: formatNumber(left) })}
          </span>
        </div>
      )}
      {open && <ProposeDialog bookingId={b._id} name={name} onClose={() => setOpen(false)} />}
    </div>
  );
}

function WaitingProposal({
  bookingId,
  pending,
  name,
}: {
  bookingId: Id<"bookings">;
  pending: NonNullable<RescheduleView["pending"]>;
  name: string;
}) {
  const withdraw = useMutation(api.reschedules.withdraw);
  const { busy, run } = useBusyCall();
  async function takeBack() {
    if (await run(() => withdraw({ bookingId }), m.reschedule_withdraw_failed()))
      toast.success(m.reschedule_withdrawn_toast());
  }
  return (
    <div role="status" className="rounded-xl bg-sky-50 p-3 text-sm text-sky-900">
      <p>{m.reschedule_waiting({ name, when: formatDateTime(pending.to) })}</p>
      <p className="mt-1 text-xs text-sky-800">
        {m.reschedule_lapses({ name, when: formatDateTime(pending.lapsesAt) })}
      </p>
      <Button
        className="mt-2"
        variant="secondary"
        size="sm"
        onClick={() => void takeBack()}
        disabled={busy}
      >
        {busy ? m.step_busy() : m.reschedule_withdraw()}
      </Button>
    </div>
  );
}

function ProposeDialog({
  bookingId,
  name,
  onClose,
}: {
  bookingId: Id<"bookings">;
  name: string;
  onClose: () => void;
}) {
  // the query reads no clock: the dialog's, rounded down to the half hour so the subscription stays put
  const [now] = useState(() => Math.floor(Date.now() / STEP_MS) * STEP_MS);
  const free = useQuery(api.reschedules.freeSlots, { bookingId, now });
  const propose = useMutation(api.reschedules.propose);
  const [to, setTo] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [nextFree, setNextFree] = useState<number[]>([]);

  async function submit() {
    setBusy(true);
    setError(undefined);
    try {
      await propose({ bookingId, to });
      toast.success(m.reschedule_sent({ name }));
      onClose();
    } catch (e) {
      setError(errorMessage(e, m.reschedule_failed()));
      const next = errorData(e)?.next;
      setNextFree(Array.isArray(next) ? next.filter((at) => typeof at === "number") : []);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={m.reschedule_title()}
      description={m.reschedule_text({ name })}
    >
      <div className="mt-3 space-y-3">
        {free === undefined ? (
          <LoadingState label={m.book_slots_loading()} />
        ) : (
          <SlotGrid free={free} value={to} onPick={setTo} none={m.reschedule_none()} />
        )}
        {error && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-2">
            <p className="mb-2 text-sm text-red-800">{error}</p>
            <NextFreeSlots
              slots={nextFree}
              onPick={(at) => {
                setTo(at);
                setError(undefined);
              }}
            />
          </div>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {m.reschedule_keep()}
          </Button>
          <Button onClick={() => void submit()} disabled={busy || to === 0}>
            {busy ? m.step_busy() : m.reschedule_send()}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** The professional's side: the customer's proposal to accept or decline, and the earlier answers. */
export function ProfessionalReschedule({
  booking: b,
  name,
}: {
  booking: MovableBooking;
  name: string;
}) {
  const accept = useMutation(api.reschedules.accept);
  const decline = useMutation(api.reschedules.decline);
  const { busy, run } = useBusyCall();
  const { pending, history } = b.reschedule;
  if (pending === null && history.length === 0) return null;

  const answer = (yes: boolean) =>
    run(() => (yes ? accept : decline)({ bookingId: b._id }), m.reschedule_answer_failed());

  return (
    <div className="mt-3 space-y-2">
      {pending && (
        <div className="rounded-xl bg-amber-50 p-3">
          <p className="text-sm text-slate-800">
            {m.reschedule_asked({
              name,
              from: formatDateTime(pending.from),
              to: formatDateTime(pending.to),
            })}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void answer(true)} disabled={busy}>
              {m.reschedule_accept()}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void answer(false)}
              disabled={busy}
            >
              {m.action_decline()}
            </Button>
          </div>
        </div>
      )}
      <History history={history} name={name} audience="professional" />
    </div>
  );
}

function outcome(
  h: RescheduleView["history"][number],
  name: string,
  audience: "customer" | "professional",
) {
  const to = formatDateTime(h.to);
  switch (h.status) {
    case "accepted":
      return m.reschedule_moved({ from: formatDateTime(h.from), to });
    case "declined":
      return audience === "customer"
        ? m.reschedule_declined({ name, to })
        : m.reschedule_you_declined({ to });
    case "withdrawn":
      return audience === "customer"
        ? m.reschedule_you_withdrew({ to })
        : m.reschedule_they_withdrew({ name, to });
    case "lapsed":
    case "proposed":
      return m.reschedule_lapsed({ to });
  }
}

/** The closed proposals, oldest first: answered, withdrawn or lapsed. */
function History({
  history,
  name,
  audience,
}: {
  history: RescheduleView["history"];
  name: string;
  audience: "customer" | "professional";
}) {
  if (history.length === 0) return null;
  return (
    <ul aria-label={m.heading_time_changes()} className="space-y-1 text-xs text-slate-600">
      {history.map((h) => (
        <li key={h.at}>
          {outcome(h, name, audience)}
          {h.reason && ` (${h.reason})`}
        </li>
      ))}
    </ul>
  );
}
