import { useCallback, useRef } from "react";
import { useSearchParams } from "react-router-dom";

/** The booking a link (a notification's tap) points at: `?booking=<id>`. */
export function useLinkedBookingId(): string | null {
  const [params] = useSearchParams();
  return params.get("booking");
}

/**
 * Whether the card of booking `id` is the linked one, and a ref that scrolls it into view the first
 * time it renders.
 */
export function useLinkedBooking(id: string) {
  const linked = useLinkedBookingId() === id;
  const scrolled = useRef(false);
  const scrollTarget = useCallback(
    (element: HTMLElement | null) => {
      if (!linked || element === null || scrolled.current) return;
      scrolled.current = true;
      element.scrollIntoView({ block: "center" });
    },
    [linked],
  );
  return { linked, scrollTarget };
}
