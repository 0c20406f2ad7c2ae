import { useQuery } from "convex/react";
import { useDeferredValue, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { Link } from "@/components/link";
import { api } from "@convex/_generated/api";
import { USER_FILTERS } from "@convex/constants";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { SelectField, TextField } from "@/components/ui/inputs";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { formatGregorianDate } from "@/lib/format";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { roleLabel } from "@/features/admin/roles";
import { m } from "@/i18n/paraglide/messages";
import { formatDigits, formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";

const ROLE_TONE: Record<string, BadgeTone> = {
  customer: "info",
  professional: "brand",
  admin: "neutral",
};

type UserFilter = (typeof USER_FILTERS)[number];

const FILTER_LABEL: Record<UserFilter, () => string> = {
  customer: m.admin_users_show_customer,
  professional: m.admin_users_show_professional,
  admin: m.admin_users_show_admin,
  suspended: m.admin_users_show_suspended,
};

/** /admin/users: the newest users, searched by name or email, narrowed by `?show=` to a role or the suspended. */
export default function UsersPage() {
  const [search, setSearch] = useState("");
  // Typing should not start a new subscription for every keystroke while the last one is still loading.
  const deferred = useDeferredValue(search.trim());
  const [params, setParams] = useSearchParams();
  const show = USER_FILTERS.find((f) => f === params.get("show"));
  return (
    <AdminPageLayout
      title={m.admin_nav_users()}
      loadError={m.admin_users_load_failed()}
      controls={
        <form
          role="search"
          className="mt-4 flex flex-wrap items-end gap-3"
          onSubmit={(e) => e.preventDefault()}
        >
          <TextField
            label={m.admin_users_search()}
            type="search"
            wrapperClassName="w-full max-w-md"
            placeholder={m.admin_users_search_placeholder()}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <SelectField
            label={m.admin_users_show()}
            wrapperClassName="w-full sm:w-56"
            value={show ?? ""}
            onChange={(e) =>
              setParams(e.target.value ? { show: e.target.value } : {}, { replace: true })
            }
          >
            <option value="">{m.admin_users_show_everyone()}</option>
            {USER_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_LABEL[f]()}
              </option>
            ))}
          </SelectField>
        </form>
      }
    >
      <UsersList search={deferred} show={show} />
    </AdminPageLayout>
  );
}

function UsersList({ search, show }: { search: string; show: UserFilter | undefined }) {
  const users = useQuery(api.admin.users, {
    ...(search ? { search } : {}),
    ...(show ? { show } : {}),
  });
  if (users === undefined) return <LoadingState label={m.admin_users_loading()} />;
  if (users.length === 0) {
    return (
      <div className="mt-4">
        <EmptyState
          title={
            search
              ? m.admin_users_none_match({ search })
              : show
                ? m.admin_users_none_shown()
                : m.admin_users_none()
          }
        />
      </div>
    );
  }
  return (
    <div className="mt-4">
      <p className="mb-2 text-sm text-slate-600" aria-live="polite">
        {users.length === 1
          ? m.admin_users_count_one({ count: formatNumber(1) })
          : m.admin_users_count({ count: formatNumber(users.length) })}
      </p>
      {/* Cards on phones, a table from md up. */}
      <ul className="space-y-2 md:hidden">
        {users.map((u) => (
          <li key={u._id} className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <div className="flex items-center justify-between gap-2">
              <Link
                to={paths.adminUser(u._id)}
                className="truncate font-medium text-brand-700 underline"
                translate={u.name ? "no" : undefined}
              >
                {u.name || m.admin_unnamed_user()}
              </Link>
              <span className="flex shrink-0 gap-1">
                {u.suspended && <Badge tone="danger">{m.admin_user_suspended()}</Badge>}
                <Badge tone={ROLE_TONE[u.role] ?? "neutral"}>{roleLabel(u.role)}</Badge>
              </span>
            </div>
            <p className="truncate text-sm text-slate-600">{u.email || m.admin_users_no_email()}</p>
            <p className="text-sm text-slate-600">
              {u.phone ? formatDigits(u.phone) : m.admin_users_no_phone()}
            </p>
            <p className="mt-1 text-xs text-slate-500">
              {u.bookingCount === 1
                ? m.admin_users_bookings_one({ count: formatNumber(1) })
                : m.admin_users_bookings({ count: formatNumber(u.bookingCount) })}{" "}
              · {m.admin_users_joined({ date: formatGregorianDate(u._creationTime) })}
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 md:block">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                {m.admin_users_col_name()}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {m.admin_users_col_role()}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {m.label_email()}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {m.label_phone_short()}
              </th>
              <th scope="col" className="px-4 py-2 text-right font-medium">
                {m.admin_users_col_bookings()}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {m.admin_users_col_joined()}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((u) => (
              <tr key={u._id}>
                <td className="px-4 py-2 font-medium">
                  <Link
                    to={paths.adminUser(u._id)}
                    className="text-brand-700 underline"
                    translate={u.name ? "no" : undefined}
                  >
                    {u.name || m.admin_unnamed_user()}
                  </Link>
                  {u.suspended && (
                    <Badge tone="danger" className="ml-2">
                      {m.admin_user_suspended()}
                    </Badge>
                  )}
                </td>
                <td className="px-4 py-2">
                  <Badge tone={ROLE_TONE[u.role] ?? "neutral"}>{roleLabel(u.role)}</Badge>
                </td>
                <td className="px-4 py-2 break-all text-slate-700">{u.email || "—"}</td>
                <td className="px-4 py-2 text-slate-700">
                  {u.phone ? formatDigits(u.phone) : "—"}
                </td>
                <td className="px-4 py-2 text-right text-slate-900">
                  {formatNumber(u.bookingCount)}
                </td>
                <td className="px-4 py-2 whitespace-nowrap text-slate-600">
                  {formatGregorianDate(u._creationTime)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
