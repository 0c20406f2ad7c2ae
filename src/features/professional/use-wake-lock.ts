import { useEffect, useState } from "react";

export type WakeLockState = "off" | "on" | "unsupported" | "refused";

/** Keeps the screen on while `active` and the page is visible, where the browser offers the Screen Wake Lock API. */
export function useWakeLock(active: boolean): WakeLockState {
  const supported = typeof navigator !== "undefined" && "wakeLock" in navigator;
  const [held, setHeld] = useState<"on" | "refused" | "off">("off");

  useEffect(() => {
    if (!active || !supported) return;
    let lock: WakeLockSentinel | null = null;
    let cancelled = false;

    const acquire = async () => {
      if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
      try {
        const next = await navigator.wakeLock.request("screen");
        if (cancelled) {
          await next.release();
          return;
        }
        lock = next;
        setHeld("on");
        next.addEventListener("release", () => {
          if (!cancelled) setHeld("off");
        });
      } catch {
        if (!cancelled) setHeld("refused");
      }
    };
    // The browser drops the lock whenever the page is hidden; take it again when it comes back.
    const onVisibility = () => void acquire();

    void acquire();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      cancelled = true;
      document.removeEventListener("visibilitychange", onVisibility);
      void lock?.release();
      setHeld("off");
    };
  }, [active, supported]);

  if (!supported) return "unsupported";
  return active ? held : "off";
}
