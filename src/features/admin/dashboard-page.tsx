import { useQuery } from "convex/react";
import type { ReactNode } from "react";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { LoadingState } from "@/components/ui/states";
import { BOOKING_STATUSES } from "@convex/rules/bookingLifecycle";
import { bookingStatusBadge } from "@/components/booking-status";
import { paths } from "@/lib/paths";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { roleLabel } from "@/features/admin/roles";
import { m } from "@/i18n/paraglide/messages";
import { formatNumber } from "@/lib/numbers";

const ROLE_LABELS = {
  customer: m.admin_roles_customer,
  professional: m.admin_roles_professional,
  admin: m.admin_roles_admin,
} as const;

export default function AdminDashboardPage() {
  return (
    <AdminPageLayout title={m.nav_dashboard()} loadError={m.admin_dashboard_load_failed()}>
      <Stats />
    </AdminPageLayout>
  );
}

function Stats() {
  const stats = useQuery(api.admin.stats);
  const online = useQuery(api.presence.online);
  if (stats === undefined) return <LoadingState label={m.admin_dashboard_loading()} />;
  const bookingTotal = Object.values(stats.bookings).reduce((a, b) => a + b, 0);
  return (
    <div className="mt-4 space-y-4">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label={m.admin_figure_pros_online()} value={stats.onlineProfessionals} />
        <Figure
          label={m.admin_figure_waiting()}
          value={stats.pendingVerifications}
          action={
            stats.pendingVerifications > 0 ? (
              <Link
                to={`${paths.adminTechnicians()}?verification=unverified`}
                className="text-sm text-brand-700 underline-offset-2 hover:underline"
              >
                {m.admin_figure_review_documents()}
              </Link>
            ) : null
          }
        />
        <Figure label={m.label_bookings()} value={bookingTotal} />
        <Figure label={m.admin_figure_users_online()} value={online?.length} />
      </div>
      {stats.capped && <p className="text-sm text-slate-600">{m.admin_figures_capped()}</p>}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Panel title={m.admin_panel_by_role()}>
          <dl className="divide-y divide-slate-100">
            {(Object.keys(ROLE_LABELS) as (keyof typeof ROLE_LABELS)[]).map((role) => (
              <Row key={role} label={ROLE_LABELS[role]()} value={stats.users[role] ?? 0} />
            ))}
          </dl>
        </Panel>
        <Panel title={m.admin_panel_by_status()}>
          <dl className="divide-y divide-slate-100">
            {BOOKING_STATUSES.map((status) => (
              <Row
                key={status}
                label={bookingStatusBadge(status, "admin").label}
                value={stats.bookings[status] ?? 0}
              />
            ))}
          </dl>
        </Panel>
        <Panel title={m.admin_panel_online()}>
          {online === undefined ? (
            <LoadingState label={m.admin_online_loading()} />
          ) : online.length === 0 ? (
            <p className="text-sm text-slate-600">{m.admin_online_nobody()}</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {online.map((u) => (
                <li
                  key={u.userId}
                  className="flex items-center justify-between gap-2 py-1.5 text-sm"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <span
                      aria-hidden="true"
                      className="h-2 w-2 shrink-0 rounded-full bg-green-500"
                    />
                    <span className="truncate text-slate-800" translate={u.name ? "no" : undefined}>
                      {u.name || m.admin_unnamed_user()}
                    </span>
                  </span>
                  <span className="text-slate-500">{roleLabel(u.role)}</span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}

function Figure({
  label,
  value,
  action,
}: {
  label: string;
  value: number | undefined;
  action?: ReactNode;
}) {
  return (
    <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-sm text-slate-600">{label}</h2>
      <p className="mt-1 text-3xl font-semibold text-slate-900">
        {value === undefined ? "…" : formatNumber(value)}
      </p>
      {action && <div className="mt-1">{action}</div>}
    </section>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="mb-2 font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Row({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex justify-between py-1.5 text-sm">
      <dt className="text-slate-700">{label}</dt>
      <dd className="font-medium text-slate-900">{formatNumber(value)}</dd>
    </div>
  );
}
