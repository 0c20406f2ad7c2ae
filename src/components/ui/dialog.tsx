import { useEffect, useId, useRef, type ReactNode } from "react";

type DialogProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** "drawer" slides in from the left edge, full height (the header's menu on small screens). */
  variant?: "center" | "drawer";
  className?: string;
};

/**
 * A modal on the native <dialog> element: the browser traps focus and closes on Escape; focus returns
 * to the opener. Clicking the backdrop closes it too.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  variant = "center",
  className = "",
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  // Focus goes back to what opened the dialog, also when the dialog unmounts with its content
  // (a conditionally rendered dialog never gets the native close that would restore it).
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement;
    return () => {
      if (opener instanceof HTMLElement && opener !== document.body && opener.isConnected)
        opener.focus();
    };
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    } else if (!open && dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }
  }, [open]);

  const placement =
    variant === "drawer"
      ? "m-0 h-dvh max-h-none w-72 max-w-[85vw] rounded-none"
      : "m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl";

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
      className={`${placement} bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 ${className}`}
    >
      {open && (
        <div className={variant === "drawer" ? "h-full overflow-y-auto p-5" : "p-5"}>
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="mt-2 text-slate-700">
              {description}
            </div>
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
