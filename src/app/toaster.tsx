import { Toaster as SonnerToaster } from "sonner";
import { TOASTS } from "@/lib/constants";
import { m } from "@/i18n/paraglide/messages";

/** The app's one toast outlet, with the spec's settings. */
export default function Toaster() {
  return (
    <SonnerToaster
      visibleToasts={TOASTS.visible}
      duration={TOASTS.durationMs}
      gap={TOASTS.gapPx}
      hotkey={[...TOASTS.hotkey]}
      // sonner sets a system font stack of its own, which has no Devanagari on many machines
      style={
        { "--width": `${TOASTS.widthPx}px`, fontFamily: "var(--font-sans)" } as React.CSSProperties
      }
      richColors
      closeButton
      containerAriaLabel={m.nav_notifications()}
      toastOptions={{ closeButtonAriaLabel: m.action_close() }}
    />
  );
}
