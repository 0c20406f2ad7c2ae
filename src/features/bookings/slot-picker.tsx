import { useState } from "react";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { kathmanduDayStart, kathmanduWeekday, SLOT_STEP_MINUTES } from "@convex/rules/schedule";
import { LoadingState } from "@/components/ui/states";
import {
  formatBsDate,
  formatGregorianDate,
  formatKathmanduTime,
  formatWeekday,
} from "@/lib/format";
import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

const STEP_MS = SLOT_STEP_MINUTES * 60_000;

/**
 * The professional's free start times for the next days (bookings:freeSlots, live: a time someone
 * else books disappears), by Kathmandu day with its Bikram Sambat date; picking one sets `value`.
 */
export function SlotPicker({
  professionalId,
  serviceIds,
  value,
  onPick,
}: {
  professionalId: Id<"professionals">;
  serviceIds: Id<"services">[];
  value: number;
  onPick: (at: number) => void;
}) {
  // the query reads no clock: the dialog's, rounded down to the half hour so the subscription stays put
  const [now] = useState(() => Math.floor(Date.now() / STEP_MS) * STEP_MS);
  const free = useQuery(api.bookings.freeSlots, { professionalId, serviceIds, now });
  if (free === undefined) return <LoadingState label={m.book_slots_loading()} />;
  return <SlotGrid free={free} value={value} onPick={onPick} none={m.book_slots_none()} />;
}

/**
 * Free start times by Kathmandu day, with each day's Bikram Sambat date; picking one sets `value`.
 * A picked time that leaves `free` (someone else took it) is announced.
 */
export function SlotGrid({
  free,
  value,
  onPick,
  none,
}: {
  free: { jobMinutes: number; slots: number[] };
  value: number;
  onPick: (at: number) => void;
  /** What to say when there is no free time. */
  none: string;
}) {
  const [day, setDay] = useState<number | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const days = [...new Set(free.slots.map(kathmanduDayStart))];
  const shownDay = day !== null && days.includes(day) ? day : (days[0] ?? null);
  const times = free.slots.filter((s) => kathmanduDayStart(s) === shownDay);
  // the time this customer picked went to someone else while the dialog was open
  const gone = picked !== null && picked === value && !free.slots.includes(picked);

  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-medium text-slate-800">{m.book_slots_title()}</legend>
      <p className="text-xs text-slate-600">
        {m.book_slots_length({ hours: formatNumber(free.jobMinutes / 60) })}
      </p>
      {gone && (
        <p
          role="alert"
          className="rounded-lg border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900"
        >
          {m.book_slot_gone()}
        </p>
      )}
      {days.length === 0 ? (
        <p className="text-sm text-slate-600">{none}</p>
      ) : (
        <>
          <div
            role="group"
            aria-label={m.book_slots_days()}
            className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1"
          >
            {days.map((d) => (
              <button
                key={d}
                type="button"
                aria-pressed={d === shownDay}
                onClick={() => setDay(d)}
                className={`shrink-0 rounded-lg border px-3 py-1.5 text-left text-xs ${
                  d === shownDay
                    ? "border-brand-600 bg-brand-50 text-brand-700"
                    : "border-slate-200 text-slate-700 hover:bg-slate-50"
                }`}
              >
                <span className="block font-medium">
                  {formatWeekday(kathmanduWeekday(d))} {formatGregorianDate(d)}
                </span>
                <span className="block text-slate-500">{formatBsDate(d)}</span>
              </button>
            ))}
          </div>
          <div
            role="group"
            aria-label={m.book_slots_times()}
            className="grid grid-cols-3 gap-2 sm:grid-cols-4"
          >
            {times.map((at) => (
              <button
                key={at}
                type="button"
                aria-pressed={at === value}
                onClick={() => {
                  setPicked(at);
                  onPick(at);
                }}
                className={`rounded-lg border px-2 py-2 text-sm ${
                  at === value
                    ? "border-brand-600 bg-brand-600 text-white"
                    : "border-slate-200 text-slate-800 hover:bg-slate-50"
                }`}
              >
                {formatKathmanduTime(at)}
              </button>
            ))}
          </div>
        </>
      )}
    </fieldset>
  );
}

/** The free times a SLOT_TAKEN refusal proposes, as buttons that pick one. */
export function NextFreeSlots({
  slots,
  onPick,
}: {
  slots: readonly number[];
  onPick: (at: number) => void;
}) {
  if (slots.length === 0) return null;
  return (
    <div role="group" aria-label={m.book_slots_next()} className="mb-3 flex flex-wrap gap-2">
      <span className="w-full text-sm text-red-800">{m.book_slots_next()}</span>
      {slots.map((at) => (
        <button
          key={at}
          type="button"
          onClick={() => onPick(at)}
          className="rounded-lg border border-red-200 bg-white px-2 py-1 text-sm text-red-900 hover:bg-red-50"
        >
          {formatWeekday(kathmanduWeekday(at))} {formatGregorianDate(at)}, {formatKathmanduTime(at)}
        </button>
      ))}
    </div>
  );
}
