import { m } from "@/i18n/paraglide/messages";

export function Spinner({
  label = m.state_loading(),
  className = "",
}: {
  label?: string;
  className?: string;
}) {
  return (
    <span role="status" className={`inline-flex items-center gap-2 text-slate-600 ${className}`}>
      <span
        aria-hidden="true"
        className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600 motion-reduce:animate-none"
      />
      <span>{label}</span>
    </span>
  );
}
