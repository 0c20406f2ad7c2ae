import { Link } from "@/components/link";
import { useQuery } from "convex/react";
import { api } from "@convex/_generated/api";
import { ChatUnreadButton } from "@/features/bookings/chat/chat-link";
import { m } from "@/i18n/paraglide/messages";
import { formatNumber } from "@/lib/numbers";
import { paths } from "@/lib/paths";
import UserMenu from "@/app/layouts/user-menu";
import type { MenuItem } from "@/app/layouts/nav-links";

function notificationsPath(role: string): string | null {
  if (role === "customer") return paths.customerNotifications();
  if (role === "professional") return paths.professionalDashboard("alerts");
  return null;
}

/** A signed-in user's side of the header: unread chats, the notification bell, the account menu. */
export default function HeaderAccount({
  viewer,
  items,
  onLogout,
}: {
  viewer: { role: string; name: string; photoUrl?: string | null };
  items: MenuItem[] | null;
  onLogout: () => void;
}) {
  return (
    <>
      {viewer.role !== "admin" && <ChatUnreadButton />}
      <NotificationBell role={viewer.role} />
      <UserMenu viewer={viewer} items={items} onLogout={onLogout} />
    </>
  );
}

function NotificationBell({ role }: { role: string }) {
  const to = notificationsPath(role);
  const unread = useQuery(api.notifications.unreadCount, to ? {} : "skip");
  if (!to) return null;
  const count = unread ?? 0;
  return (
    <Link
      to={to}
      aria-label={
        count ? m.nav_notifications_unread({ count: formatNumber(count) }) : m.nav_notifications()
      }
      className="relative inline-flex h-11 w-11 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
        <path d="M10 2a5 5 0 00-5 5v3.6L3.3 13.5A1 1 0 004.2 15h11.6a1 1 0 00.9-1.5L15 10.6V7a5 5 0 00-5-5zm-2 14a2 2 0 004 0z" />
      </svg>
      {count > 0 && (
        <span className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white">
          {count > 99 ? `${formatNumber(99)}+` : formatNumber(count)}
        </span>
      )}
    </Link>
  );
}
