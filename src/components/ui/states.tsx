import type { ReactNode } from "react";
import { Spinner } from "@/components/ui/spinner";
import { m } from "@/i18n/paraglide/messages";

export function LoadingState({ label = m.state_loading() }: { label?: string }) {
  return (
    <div className="flex justify-center py-10">
      <Spinner label={label} />
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center">
      <p className="font-medium text-slate-700">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-500">{children}</div>}
    </div>
  );
}

/** A failed panel; with `onRetry` (an ErrorBoundary's retry) it offers a "Try again" button. */
export function ErrorState({
  title = m.state_failed(),
  onRetry,
  children,
}: {
  title?: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  const body = onRetry ? (
    <>
      {children}
      <button type="button" className="underline" onClick={onRetry}>
        {m.action_retry()}
      </button>
    </>
  ) : (
    children
  );
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-6 text-center">
      <p className="font-medium text-red-800">{title}</p>
      {body && <div className="mt-2 text-sm text-red-700">{body}</div>}
    </div>
  );
}

const ALERT_TONES = {
  error: { role: "alert", className: "bg-red-50 text-red-700" },
  success: { role: "status", className: "bg-green-50 text-green-700" },
} as const;

/** A short inline message: an error is announced at once (role="alert"), a success politely (role="status"). */
export function InlineAlert({
  tone,
  className = "",
  children,
}: {
  tone: keyof typeof ALERT_TONES;
  className?: string;
  children: ReactNode;
}) {
  const { role, className: toneClass } = ALERT_TONES[tone];
  return (
    <p role={role} className={`rounded-lg px-3 py-2 text-sm ${toneClass} ${className}`.trim()}>
      {children}
    </p>
  );
}
