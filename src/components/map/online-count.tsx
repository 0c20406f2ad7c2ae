import { formatNumber } from "@/lib/numbers";
import { m } from "@/i18n/paraglide/messages";

/** Under a live map: how many professionals are on it, live (undefined while loading). */
export function OnlineCount({
  count,
  one,
  many,
}: {
  count: number | undefined;
  one: () => string;
  many: (inputs: { count: string }) => string;
}) {
  return (
    <p className="mt-2 text-xs text-slate-500" aria-live="polite">
      {count === undefined
        ? m.sp_loading_positions()
        : count === 0
          ? m.sp_no_positions()
          : count === 1
            ? one()
            : many({ count: formatNumber(count) })}
    </p>
  );
}
