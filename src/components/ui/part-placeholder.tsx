import { Suspense, type ComponentProps } from "react";
import { Spinner } from "@/components/ui/spinner";
import type { Part } from "@/lib/import-when-online";
import { lazyAfterPaint } from "@/lib/lazy-after-paint";

type Placeholder = { minHeight: string; className?: string };

/**
 * Holds the place of a part of a page that is still loading: as tall as the part (so nothing under
 * it moves when it arrives), with a spinner that shows only if the wait is long enough to notice.
 */
export function PartPlaceholder({ minHeight, className = "" }: Placeholder) {
  return (
    <div
      aria-busy="true"
      className={`flex items-center justify-center ${className}`}
      style={{ minHeight }}
    >
      <Spinner className="animate-appear-late" />
    </div>
  );
}

/** A component that loads with lazyAfterPaint, its PartPlaceholder painted with the page meanwhile. */
export function partAfterPaint<T extends Part>(
  load: () => Promise<{ default: T }>,
  placeholder: Placeholder,
) {
  const Lazy = lazyAfterPaint(load);
  return function PartAfterPaint(props: ComponentProps<T>) {
    return (
      <Suspense fallback={<PartPlaceholder {...placeholder} />}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
