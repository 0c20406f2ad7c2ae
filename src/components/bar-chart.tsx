/**
 * A small bar chart as inline SVG: one bar per value, each with its own label as a tooltip and for
 * screen readers. Values at or below zero draw no bar. No chart library: a few dozen bars need none.
 */
export function BarChart({
  values,
  barLabel,
  label,
  axis,
}: {
  values: readonly number[];
  /** The words for one bar ("27 Nov: Nrs. 1,350"). */
  barLabel: (index: number) => string;
  /** What the whole chart shows, for screen readers. */
  label: string;
  /** Under the first and the last bar. */
  axis: readonly [string, string];
}) {
  const max = Math.max(0, ...values);
  const width = 300;
  const height = 120;
  const slot = width / Math.max(1, values.length);
  return (
    <figure className="w-full">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
        className="h-32 w-full sm:h-40"
      >
        <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} className="stroke-slate-300" />
        {values.map((value, i) => {
          const h = max > 0 && value > 0 ? Math.max(2, (value / max) * (height - 4)) : 0;
          return (
            <g key={i}>
              <title>{barLabel(i)}</title>
              {/* the whole slot is the tooltip's target, so an empty day answers too */}
              <rect x={i * slot} y="0" width={slot} height={height} fill="transparent" />
              {h > 0 && (
                <rect
                  data-bar={i}
                  x={i * slot + slot * 0.15}
                  y={height - h}
                  width={slot * 0.7}
                  height={h}
                  rx="1"
                  className="fill-brand-600"
                />
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-slate-600">
        <span>{axis[0]}</span>
        <span>{axis[1]}</span>
      </figcaption>
    </figure>
  );
}
