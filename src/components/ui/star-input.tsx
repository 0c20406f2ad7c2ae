import { useId } from "react";
import { Star } from "@/components/ui/star-rating";
import { m } from "@/i18n/paraglide/messages";
import { formatNumber } from "@/lib/numbers";

/** A 1–5 star picker as a radio group (arrow keys move between stars). */
export function StarInput({
  value,
  onChange,
  label,
}: {
  value: number;
  onChange: (v: number) => void;
  label: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      <div className="mt-1 flex">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="inline-flex h-11 w-11 cursor-pointer items-center justify-center rounded has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
            />
            <span className="sr-only">
              {n === 1 ? m.stars_one() : m.stars_many({ count: formatNumber(n) })}
            </span>
            <Star filled={n <= value} />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
