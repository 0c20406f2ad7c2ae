import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { addressToPropose } from "@convex/rules/address";
import { BOOKING_FIELDS } from "@convex/rules/bookingFields";
import { BOOKING_LIMITS } from "@convex/rules/limits";
import { clock, withinWorkingHours } from "@convex/rules/schedule";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorData, errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { fieldError } from "@/lib/form-context";
import { paths } from "@/lib/paths";
import type { BookTarget } from "@/lib/booking-intent";
import type { Pin } from "@convex/rules/pin";
import { PinField } from "@/features/bookings/pin-field";
import {
  formatBsDate,
  formatWeekdays,
  fromKathmanduInputValue,
  toKathmanduInputValue,
} from "@/lib/format";
import { formatNrs } from "@/lib/rupees";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localLandingService } from "@/i18n/categories";
import { localServiceName } from "@/i18n/services";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { NextFreeSlots, SlotPicker } from "@/features/bookings/slot-picker";

const HOUR = 3_600_000;
const { address, note } = BOOKING_FIELDS;

export const bookingSchema = z.object({
  serviceIds: z.array(z.string()).check(z.minLength(1, { error: () => m.book_choose_service() })),
  when: z.string().check(
    z.minLength(1, { error: () => m.book_choose_when() }),
    z.refine((v) => !Number.isNaN(fromKathmanduInputValue(v)), {
      error: () => m.book_valid_when(),
    }),
    z.refine((v) => fromKathmanduInputValue(v) > Date.now(), { error: () => m.book_future() }),
  ),
  address: z.string().check(
    z.trim(),
    z.minLength(address.min, { error: () => m.book_address_min() }),
    z.maxLength(address.max, {
      error: () => m.book_address_max({ max: formatNumber(address.max) }),
    }),
  ),
  note: z
    .string()
    .check(
      z.maxLength(note.max, { error: () => m.book_note_max({ max: formatNumber(note.max) }) }),
    ),
});

export type Priced = { id: Id<"services">; price: number };

/** Choose services, a time and the address; see the total in Nrs. before confirming (bookings:create). */
export function BookingDialog({
  professional,
  category,
  defaultAddress,
  onClose,
}: {
  professional: BookTarget;
  category: string;
  /** The customer's profile address: its street is proposed when it is in the booking's city. */
  defaultAddress: string;
  onClose: () => void;
}) {
  const create = useMutation(api.bookings.create);
  const navigate = useNavigate();
  // the server's refusal, shown inside the dialog: a toast would sit under the modal's backdrop
  const [refusal, setRefusal] = useState<string | null>(null);
  // a SLOT_TAKEN refusal's next free times
  const [nextFree, setNextFree] = useState<number[]>([]);
  const refusalRef = useRef<HTMLParagraphElement>(null);
  const hours = professional.workingHours;
  const [prices, setPrices] = useState<Record<string, Priced>>({});
  const [pin, setPin] = useState<Pin | null>(null);
  const [initialWhen] = useState(() =>
    toKathmanduInputValue(Math.ceil((Date.now() + 2 * HOUR) / HOUR) * HOUR),
  );
  const [minWhen] = useState(() => toKathmanduInputValue(Date.now()));

  const form = useAppForm({
    defaultValues: {
      serviceIds: [] as string[],
      when: initialWhen,
      address: addressToPropose(defaultAddress, professional.city),
      note: "",
    },
    validators: { onChange: bookingSchema, onSubmit: bookingSchema },
    onSubmit: async ({ value }) => {
      setRefusal(null);
      setNextFree([]);
      try {
        await create({
          professionalId: professional._id as Id<"professionals">,
          serviceIds: value.serviceIds.map((id) => prices[id].id),
          address: value.address.trim(),
          city: professional.city,
          scheduledFor: fromKathmanduInputValue(value.when),
          ...(value.note.trim() ? { note: value.note.trim() } : {}),
          ...(pin ? { pin } : {}),
        });
        toast.success(m.book_sent({ name: professional.name }), {
          action: { label: m.nav_my_bookings(), onClick: () => navigate(paths.customerBookings()) },
        });
        onClose();
      } catch (e) {
        setRefusal(errorMessage(e, m.book_failed()));
        const next = errorData(e)?.next;
        if (Array.isArray(next)) setNextFree(next.filter((at) => typeof at === "number"));
        requestAnimationFrame(() => refusalRef.current?.scrollIntoView?.({ block: "nearest" }));
      }
    },
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title={m.book_title({ name: professional.name })}
      description={m.book_subtitle({
        specialty: localLandingService(professional.specialtyName),
        city: localCityName(professional.cityName),
      })}
    >
      <Form
        className="mt-4 max-h-[70dvh] space-y-4 overflow-y-auto pr-1"
        onSubmit={() => form.handleSubmit()}
      >
        <form.Field name="serviceIds">
          {(f) => (
            <fieldset aria-describedby={fieldError(f.state.meta) ? "services-error" : undefined}>
              <legend className="text-sm font-medium text-slate-800">{m.book_services()}</legend>
              <ErrorBoundary fallback={() => <ErrorState title={m.book_services_failed()} />}>
                <ServiceChoices
                  category={category}
                  location={professional.cityName}
                  selected={f.state.value}
                  onPrice={(name, priced) =>
                    setPrices((p) =>
                      p[name]?.id === priced.id && p[name]?.price === priced.price
                        ? p
                        : { ...p, [name]: priced },
                    )
                  }
                  onToggle={(name, on) =>
                    f.handleChange(
                      on ? [...f.state.value, name] : f.state.value.filter((n) => n !== name),
                    )
                  }
                />
              </ErrorBoundary>
              {fieldError(f.state.meta) && (
                <p id="services-error" className="mt-1 text-sm text-red-600">
                  {fieldError(f.state.meta)}
                </p>
              )}
            </fieldset>
          )}
        </form.Field>
        <form.Subscribe selector={(s) => s.values.serviceIds}>
          {(names) => (
            <form.Field name="when">
              {(f) => (
                <SlotPicker
                  professionalId={professional._id as Id<"professionals">}
                  serviceIds={names.flatMap((n) => (prices[n] ? [prices[n].id] : []))}
                  value={fromKathmanduInputValue(f.state.value)}
                  onPick={(at) => f.handleChange(toKathmanduInputValue(at))}
                />
              )}
            </form.Field>
          )}
        </form.Subscribe>
        <form.AppField name="when">
          {(f) => {
            const ms = fromKathmanduInputValue(f.state.value);
            const outside = !Number.isNaN(ms) && !withinWorkingHours(ms, hours);
            const hint = [
              Number.isNaN(ms) ? null : formatBsDate(ms),
              hours === null
                ? null
                : m.book_works_hours({
                    name: professional.name,
                    days: formatWeekdays(hours.days),
                    start: formatDigits(clock(hours.start)),
                    end: formatDigits(clock(hours.end)),
                  }),
            ]
              .filter(Boolean)
              .join(" · ");
            return (
              <div>
                <f.TextField
                  label={m.book_when()}
                  type="datetime-local"
                  min={minWhen}
                  hint={hint || undefined}
                />
                {/* before Confirm: the server refuses such a time (OUTSIDE_WORKING_HOURS) */}
                {outside && <OutsideHoursNote at={ms} />}
              </div>
            );
          }}
        </form.AppField>
        <form.AppField name="address">
          {(f) => (
            <f.TextField
              label={m.label_address()}
              autoComplete="street-address"
              hint={m.book_address_hint({ city: localCityName(professional.cityName) })}
            />
          )}
        </form.AppField>
        <p className="text-sm text-slate-700">
          {m.book_city()} <strong>{localCityName(professional.cityName)}</strong>
        </p>
        <PinField city={professional.city} value={pin} onChange={setPin} />
        <form.AppField name="note">
          {(f) => <f.TextareaField label={m.book_note()} rows={3} />}
        </form.AppField>
        <form.Subscribe selector={(s) => [s.values.serviceIds, s.isSubmitting] as const}>
          {([ids, submitting]) => {
            const known = ids.every((n) => prices[n]);
            const total = ids.reduce((sum, n) => sum + (prices[n]?.price ?? 0), 0);
            return (
              <div className="sticky bottom-0 -mx-1 border-t border-slate-200 bg-white px-1 pt-3">
                {refusal && (
                  <p
                    ref={refusalRef}
                    role="alert"
                    className="mb-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
                  >
                    {refusal}
                  </p>
                )}
                {refusal && (
                  <NextFreeSlots
                    slots={nextFree}
                    onPick={(at) => {
                      form.setFieldValue("when", toKathmanduInputValue(at));
                      setRefusal(null);
                      setNextFree([]);
                    }}
                  />
                )}
                <p className="flex justify-between text-base">
                  <span>{m.book_total()}</span>
                  <strong aria-live="polite">{ids.length && known ? formatNrs(total) : "—"}</strong>
                </p>
                <p className="text-xs text-slate-500">
                  {m.book_terms({ count: formatNumber(BOOKING_LIMITS.openPerProfessional) })}
                </p>
                <div className="mt-3 flex justify-end gap-2">
                  <Button variant="secondary" onClick={onClose} disabled={submitting}>
                    {m.action_cancel()}
                  </Button>
                  <Button type="submit" disabled={submitting || !known}>
                    {submitting ? m.book_busy() : m.book_confirm()}
                  </Button>
                </div>
              </div>
            );
          }}
        </form.Subscribe>
      </Form>
    </Dialog>
  );
}

export function ServiceChoices({
  category,
  location,
  selected,
  onToggle,
  onPrice,
}: {
  category: string;
  location: string;
  selected: string[];
  onToggle: (name: string, on: boolean) => void;
  onPrice: (name: string, priced: Priced) => void;
}) {
  const names = useQuery(api.catalog.serviceNames, { category });
  if (names === undefined) return <LoadingState label={m.state_loading_services()} />;
  if (names.length === 0) return <p className="text-sm text-slate-600">{m.book_no_services()}</p>;
  return (
    <ul className="mt-1 divide-y divide-slate-100 rounded-lg border border-slate-200">
      {names.map((name) => (
        <ServiceChoice
          key={name}
          category={category}
          name={name}
          location={location}
          checked={selected.includes(name)}
          onToggle={onToggle}
          onPrice={onPrice}
        />
      ))}
    </ul>
  );
}

function ServiceChoice({
  category,
  name,
  location,
  checked,
  onToggle,
  onPrice,
}: {
  category: string;
  name: string;
  location: string;
  checked: boolean;
  onToggle: (name: string, on: boolean) => void;
  onPrice: (name: string, priced: Priced) => void;
}) {
  const details = useQuery(api.catalog.serviceDetails, { category, serviceName: name, location });
  const price = details?.availableCities[0]?.price;
  useEffect(() => {
    if (details && price !== undefined) onPrice(name, { id: details._id, price });
  }, [details, price, name, onPrice]);
  const unavailable = details === null;
  return (
    <li>
      <label
        className={`flex items-center gap-3 px-3 py-2 text-sm ${unavailable ? "text-slate-400" : "cursor-pointer"}`}
      >
        <input
          type="checkbox"
          checked={checked}
          disabled={!details}
          onChange={(e) => onToggle(name, e.target.checked)}
          className="h-4 w-4 accent-brand-600"
        />
        <span className="flex-1">{localServiceName(name)}</span>
        <span className="font-medium">
          {details === undefined ? "…" : unavailable ? m.book_not_offered() : formatNrs(price ?? 0)}
        </span>
      </label>
    </li>
  );
}

/** Said as soon as a time is chosen, scrolled clear of the sticky footer (Confirm and the total). */
function OutsideHoursNote({ at }: { at: number }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [at]);
  return (
    <p
      ref={ref}
      role="status"
      className="mt-2 scroll-mb-36 rounded-lg border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900"
    >
      {m.book_outside_hours()}
    </p>
  );
}
