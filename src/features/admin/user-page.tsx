import { useQuery } from "convex/react";
import { useParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { roleLabel } from "@/features/admin/roles";
import { SuspensionForm } from "@/features/admin/suspension-form";
import { NoShowStrikes } from "@/features/admin/no-show-strikes";
import { m } from "@/i18n/paraglide/messages";
import { formatDateTime, formatGregorianDate } from "@/lib/format";
import { formatDigits } from "@/lib/numbers";
import { paths } from "@/lib/paths";

/** /admin/users/:userId: one account, whether it is suspended (by whom, when, why), its history. */
export default function UserPage() {
  const { userId = "" } = useParams();
  return (
    <AdminPageLayout title={m.admin_user_title()} loadError={m.admin_users_load_failed()}>
      <Link to={paths.adminUsers()} className="mt-1 inline-block text-sm text-brand-700 underline">
        {m.admin_user_back()}
      </Link>
      <UserDetail userId={userId as Id<"users">} />
    </AdminPageLayout>
  );
}

function UserDetail({ userId }: { userId: Id<"users"> }) {
  const user = useQuery(api.adminAccounts.get, { userId });
  if (user === undefined) return <LoadingState label={m.admin_users_loading()} />;
  if (user === null)
    return (
      <div className="mt-4">
        <EmptyState title={m.admin_user_missing()} />
      </div>
    );
  const name = user.name || user.username || m.admin_unnamed_user();
  const bookings =
    user.role === "professional" && user.professionalId
      ? paths.adminBookings({ professional: user.professionalId, who: name })
      : user.role === "customer"
        ? paths.adminBookings({ customer: user._id, who: name })
        : null;
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-2">
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold break-words text-slate-900" translate="no">
            {name}
          </h2>
          <div className="flex gap-1">
            <Badge>{roleLabel(user.role)}</Badge>
            {user.suspended ? (
              <Badge tone="danger">{m.admin_user_suspended()}</Badge>
            ) : (
              <Badge tone="success">{m.admin_user_active()}</Badge>
            )}
          </div>
        </div>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">{m.label_email()}</dt>
          <dd className="break-all">{user.email || "—"}</dd>
          <dt className="text-slate-500">{m.label_phone_short()}</dt>
          <dd>{user.phone ? formatDigits(user.phone) : "—"}</dd>
          <dt className="text-slate-500">{m.admin_users_col_joined()}</dt>
          <dd>{formatGregorianDate(user._creationTime)}</dd>
        </dl>
        {bookings && (
          <Link to={bookings} className={buttonClasses("secondary", "sm", "mt-3")}>
            {m.admin_user_bookings()}
          </Link>
        )}
        {user.suspended && (
          <div
            role="status"
            className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200"
          >
            <p className="font-medium">
              {m.admin_user_suspended_by({
                name: user.suspended.byName,
                when: formatDateTime(user.suspended.at),
              })}
            </p>
            <p className="mt-1 break-words" translate="no">
              {user.suspended.reason}
            </p>
          </div>
        )}
      </section>
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-semibold text-slate-900">
          {user.suspended ? m.admin_restore_title() : m.admin_suspend_title()}
        </h2>
        <div className="mt-3">
          {user.isSelf ? (
            <p className="text-sm text-slate-600">{m.error_cannot_suspend_self()}</p>
          ) : (
            <SuspensionForm userId={user._id} name={name} suspended={user.suspended !== null} />
          )}
        </div>
        <h2 className="mt-6 font-semibold text-slate-900">{m.admin_user_history()}</h2>
        {user.history.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{m.admin_user_history_none()}</p>
        ) : (
          <ol className="mt-2 space-y-2 text-sm" aria-label={m.admin_user_history()}>
            {user.history.map((h) => (
              <li key={h.at} className="rounded-lg bg-slate-50 p-2">
                <p className="font-medium">
                  {h.action === "suspended"
                    ? m.admin_user_suspended_by({ name: h.adminName, when: formatDateTime(h.at) })
                    : m.admin_history_restored({ name: h.adminName, when: formatDateTime(h.at) })}
                </p>
                <p className="break-words text-slate-700" translate="no">
                  {h.reason}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      {user.professionalId && <NoShowStrikes professionalId={user.professionalId} />}
    </div>
  );
}
