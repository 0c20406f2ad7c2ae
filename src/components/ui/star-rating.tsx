import { m } from "@/i18n/paraglide/messages";
import { formatNumber } from "@/lib/numbers";

const STAR_PATH = "M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z";

/** One star, filled by `fill` (0, 0.5 or 1). */
export function Star({ filled, fill = filled ? 1 : 0 }: { filled?: boolean; fill?: number }) {
  return (
    <span className="relative inline-block h-5 w-5" data-fill={fill}>
      <svg
        viewBox="0 0 20 20"
        aria-hidden="true"
        className="absolute inset-0 h-5 w-5 fill-slate-300"
      >
        <path d={STAR_PATH} />
      </svg>
      {fill > 0 && (
        <svg
          viewBox="0 0 20 20"
          aria-hidden="true"
          className="absolute inset-0 h-5 w-5 fill-accent-500"
          style={fill < 1 ? { clipPath: `inset(0 ${100 - fill * 100}% 0 0)` } : undefined}
        >
          <path d={STAR_PATH} />
        </svg>
      )}
    </span>
  );
}

/** Read-only stars to the nearest half: 4.5 shows four and a half, 4.3 four and a half, 4.2 four. */
export function StarRating({
  value,
  max = 5,
  className = "",
}: {
  value: number;
  max?: number;
  className?: string;
}) {
  const halves = Math.round(value * 2);
  return (
    <span
      role="img"
      aria-label={m.stars_out_of({
        value: formatNumber(Math.round(value * 10) / 10),
        max: formatNumber(max),
      })}
      className={`inline-flex ${className}`}
    >
      {Array.from({ length: max }, (_, i) => (
        <Star key={i} fill={Math.min(1, Math.max(0, (halves - 2 * i) / 2))} />
      ))}
    </span>
  );
}
