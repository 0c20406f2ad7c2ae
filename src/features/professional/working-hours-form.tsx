import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import {
  SUGGESTED_WORKING_HOURS,
  WEEKDAYS,
  clock,
  minuteOfDay,
  workingHoursRule,
  type WorkingHours,
} from "@convex/rules/schedule";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { Form, useAppForm } from "@/components/form";
import { errorMessage } from "@/lib/errors";
import { fieldError } from "@/lib/form-context";
import { formatWeekday, formatWeekdays } from "@/lib/format";
import { formatDigits } from "@/lib/numbers";
import { useBusyCall } from "@/lib/use-busy-call";
import { m } from "@/i18n/paraglide/messages";

const FIELD_OF = { days: "days", start: "from", end: "to" } as const;

const clockText = z
  .string()
  .check(z.refine((t) => !Number.isNaN(minuteOfDay(t)), { error: () => m.hours_enter_time() }));

/**
 * The form's values checked by the rule the server parses setWorkingHours with
 * (rules/schedule.ts workingHoursRule); its refusals land on the field they concern.
 */
export const workingHoursFormSchema = z
  .object({ days: z.array(z.number()), from: clockText, to: clockText })
  .check(
    z.superRefine((value, ctx) => {
      const parsed = workingHoursRule.safeParse(toHours(value));
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof typeof FIELD_OF;
        ctx.addIssue({ code: "custom", message: issue.message, path: [FIELD_OF[key] ?? "days"] });
      }
    }),
  );

type Values = z.infer<typeof workingHoursFormSchema>;

function toHours({ days, from, to }: Values): WorkingHours {
  return { days, start: minuteOfDay(from), end: minuteOfDay(to) };
}

/** The signed-in professional's working hours panel (the same subscription as the profile card). */
export function WorkingHoursPanel() {
  const me = useQuery(api.professionals.me);
  if (me === undefined) return <LoadingState label={m.hours_title()} />;
  if (me === null) return null;
  // saved hours re-key the form, so its fields start from what the server holds
  return <WorkingHoursForm key={JSON.stringify(me.workingHours)} hours={me.workingHours} />;
}

/**
 * The professional's working hours on the dashboard: the days and from/to that customers may book
 * (bookings:create refuses other times with OUTSIDE_WORKING_HOURS), or any time when none are set.
 */
export function WorkingHoursForm({ hours }: { hours: WorkingHours | null }) {
  const save = useMutation(api.professionals.setWorkingHours);
  const { busy: clearing, run } = useBusyCall();
  const shown = hours ?? SUGGESTED_WORKING_HOURS;
  const form = useAppForm({
    defaultValues: {
      days: [...shown.days],
      from: clock(shown.start),
      to: clock(Math.min(shown.end, 1439)),
    } as Values,
    validators: { onChange: workingHoursFormSchema, onSubmit: workingHoursFormSchema },
    onSubmit: async ({ value }) => {
      try {
        await save({ hours: toHours(value) });
        toast.success(m.hours_saved());
      } catch (e) {
        toast.error(errorMessage(e, m.hours_failed()));
      }
    },
  });

  async function clear() {
    if (await run(() => save({ hours: null }), m.hours_failed())) toast.success(m.hours_cleared());
  }

  return (
    <section
      aria-labelledby="working-hours-heading"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <h2 id="working-hours-heading" className="text-lg font-semibold text-slate-900">
        {m.hours_title()}
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="working-hours-now">
        {hours === null
          ? m.hours_any_time()
          : m.hours_current({
              days: formatWeekdays(hours.days),
              start: formatDigits(clock(hours.start)),
              end: formatDigits(clock(hours.end)),
            })}
      </p>
      <Form
        aria-labelledby="working-hours-heading"
        className="mt-3 space-y-3"
        onSubmit={() => form.handleSubmit()}
      >
        <form.Field name="days">
          {(f) => {
            const error = fieldError(f.state.meta);
            return (
              <fieldset aria-describedby={error ? "working-days-error" : undefined}>
                <legend className="text-sm font-medium text-slate-800">{m.hours_days()}</legend>
                <div className="mt-1 flex flex-wrap gap-1.5">
                  {WEEKDAYS.map((day) => (
                    <label
                      key={day}
                      className="flex min-h-11 cursor-pointer items-center gap-1.5 rounded-lg border border-slate-300 px-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                    >
                      <input
                        type="checkbox"
                        checked={f.state.value.includes(day)}
                        onChange={(e) =>
                          f.handleChange(
                            e.target.checked
                              ? [...f.state.value, day].sort((a, b) => a - b)
                              : f.state.value.filter((d) => d !== day),
                          )
                        }
                        onBlur={f.handleBlur}
                      />
                      {formatWeekday(day)}
                    </label>
                  ))}
                </div>
                {error && (
                  <p id="working-days-error" className="mt-1 text-sm text-red-600">
                    {error}
                  </p>
                )}
              </fieldset>
            );
          }}
        </form.Field>
        <div className="grid grid-cols-2 gap-3">
          <form.AppField name="from">
            {(f) => <f.TextField label={m.hours_from()} type="time" />}
          </form.AppField>
          <form.AppField name="to">
            {(f) => <f.TextField label={m.hours_to()} type="time" />}
          </form.AppField>
        </div>
        <div className="flex flex-wrap gap-2">
          <form.AppForm>
            <form.SubmitButton size="sm" label={m.hours_save()} pendingLabel={m.state_saving()} />
          </form.AppForm>
          {hours !== null && (
            <Button variant="secondary" size="sm" disabled={clearing} onClick={() => void clear()}>
              {m.hours_clear()}
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}
