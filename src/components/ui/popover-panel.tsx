import * as Popover from "@radix-ui/react-popover";
import type { ReactNode } from "react";
import { POPOVER_SIDE_OFFSET } from "@/lib/constants";

/** A Radix popover's floating card, portalled and stacked above Leaflet's map controls (z-index 1000). */
export function PopoverPanel({
  align,
  className = "",
  children,
}: {
  align: "start" | "end";
  className?: string;
  children: ReactNode;
}) {
  return (
    <Popover.Portal>
      <Popover.Content
        sideOffset={POPOVER_SIDE_OFFSET}
        align={align}
        className={`z-[1100] rounded-xl border border-slate-200 bg-white shadow-lg outline-none ${className}`}
      >
        {children}
      </Popover.Content>
    </Popover.Portal>
  );
}
