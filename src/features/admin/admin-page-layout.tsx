import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { m } from "@/i18n/paraglide/messages";

/**
 * An admin page: its heading, any controls (filters, search) and the content that loads data. When
 * loading fails, the content gives way to `loadError` with the reason and a "Try again" button.
 */
export function AdminPageLayout({
  title,
  loadError,
  controls,
  children,
}: {
  title: string;
  loadError: string;
  controls?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="p-3 sm:p-6">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      {controls}
      <ErrorBoundary
        fallback={(error, retry) => (
          <div className="mt-4">
            <ErrorState title={loadError}>
              <p>{errorMessage(error, m.admin_load_failed_hint())}</p>
              <Button variant="secondary" size="sm" className="mt-3" onClick={retry}>
                {m.action_retry()}
              </Button>
            </ErrorState>
          </div>
        )}
      >
        {children}
      </ErrorBoundary>
    </main>
  );
}
