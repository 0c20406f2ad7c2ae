import { Suspense, type ComponentProps } from "react";
import { Spinner } from "@/components/ui/spinner";
import type { Part } from "@/lib/import-when-online";
import { lazyAfterPaint } from "@/lib/lazy-after-paint";

/**
 * A component that loads with lazyAfterPaint, painted with the page meanwhile as a placeholder.
 * `className` gives its box a min-height as tall as the part on that screen, kept once it has
 * come, so nothing under it moves; the placeholder's spinner shows only if the wait is noticeable.
 */
export function partAfterPaint<T extends Part>(
  load: () => Promise<{ default: T }>,
  className: string,
) {
  const Lazy = lazyAfterPaint(load);
  return function PartAfterPaint(props: ComponentProps<T>) {
    return (
      <div className={`flex flex-col ${className}`}>
        <Suspense
          fallback={
            <div aria-busy="true" className="flex flex-1 items-center justify-center">
              <Spinner className="animate-appear-late" />
            </div>
          }
        >
          <Lazy {...props} />
        </Suspense>
      </div>
    );
  };
}
