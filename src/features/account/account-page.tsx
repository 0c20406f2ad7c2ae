import type { ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ErrorBoundary } from "@/components/ui/error-boundary";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { BillingTab, DataExportTab, DeleteAccountTab } from "@/features/account/account-actions";
import { NotificationsTab } from "@/features/account/notifications-tab";
import { ProfileTab } from "@/features/account/profile-tab";
import { SecurityPanel } from "@/features/account/security-panel";
import { m } from "@/i18n/paraglide/messages";

/** `customerOnly`: a professional's bookings and notifications live on their dashboard. */
const ALL_TABS = [
  { id: "profile", label: m.nav_my_profile, customerOnly: false },
  { id: "bookings", label: m.nav_my_bookings, customerOnly: true },
  { id: "notifications", label: m.nav_notifications, customerOnly: true },
  { id: "security", label: m.security_title, customerOnly: false },
  { id: "billing", label: m.acc_tab_billing, customerOnly: true },
  { id: "export", label: m.acc_tab_export, customerOnly: false },
  { id: "delete", label: m.acc_tab_delete, customerOnly: false },
] as const;
export type AccountTab = (typeof ALL_TABS)[number]["id"];

/**
 * The account page of customers and professionals (the same tools: profile with photo, phone and
 * address, data export, account deletion); `?tab=` selects the panel so each one can be linked to.
 */
export function AccountPage({
  defaultTab,
  bookings = null,
}: {
  defaultTab: AccountTab;
  /** My Bookings, composed in by the route (customers). */
  bookings?: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const viewer = useQuery(api.users.viewer);
  const TABS = ALL_TABS.filter((t) => viewer?.role === "customer" || !t.customerOnly);
  const requested = params.get("tab");
  const tab = TABS.find((t) => t.id === requested)?.id ?? defaultTab;

  return (
    <main className="mx-auto grid w-full max-w-6xl gap-4 px-4 py-6 md:grid-cols-[14rem_minmax(0,1fr)] md:gap-8 md:py-10">
      <nav aria-label={m.acc_nav()}>
        <ul className="flex flex-wrap gap-1 md:flex-col">
          {TABS.map((t) => (
            <li key={t.id} className="shrink-0">
              <button
                type="button"
                aria-current={tab === t.id ? "page" : undefined}
                onClick={() =>
                  setParams(t.id === defaultTab ? {} : { tab: t.id }, { replace: true })
                }
                className={`min-h-11 w-full rounded-lg px-3 text-left text-sm whitespace-nowrap ${
                  tab === t.id
                    ? "bg-brand-600 font-medium text-white"
                    : t.id === "delete"
                      ? "text-red-700 hover:bg-red-50"
                      : "text-slate-700 hover:bg-slate-100"
                }`}
              >
                {t.label()}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-label={TABS.find((t) => t.id === tab)?.label()} className="min-w-0">
        <ErrorBoundary
          key={tab}
          fallback={(_, retry) => <ErrorState title={m.acc_section_failed()} onRetry={retry} />}
        >
          {viewer === undefined ? (
            <LoadingState />
          ) : viewer === null ? (
            <ErrorState title={m.acc_signed_out()} />
          ) : tab === "profile" ? (
            <ProfileTab viewer={viewer} />
          ) : tab === "bookings" ? (
            bookings
          ) : tab === "notifications" ? (
            <NotificationsTab />
          ) : tab === "security" ? (
            <SecurityPanel />
          ) : tab === "billing" ? (
            <BillingTab />
          ) : tab === "export" ? (
            <DataExportTab />
          ) : (
            <DeleteAccountTab name={viewer.name} />
          )}
        </ErrorBoundary>
      </section>
    </main>
  );
}
