import { NavLink } from "@/components/link";
import { navLinkClass, type MenuItem } from "@/app/layouts/nav-links";
import { Avatar } from "@/components/avatar";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { paths } from "@/lib/paths";
import { m } from "@/i18n/paraglide/messages";

/**
 * The header's menu on small screens, a drawer; loaded after the page (header.tsx), since it shows
 * nothing until opened. `items` null reads 'Unknown role'.
 */
export default function HeaderDrawer({
  open,
  onClose,
  viewer,
  items,
  onLogout,
}: {
  open: boolean;
  onClose: () => void;
  viewer: { name: string; role: string; photoUrl?: string | null } | null;
  items: MenuItem[] | null;
  onLogout: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={m.nav_menu()} variant="drawer">
      <div
        className="mt-4 flex flex-col gap-1"
        onClick={(e) => (e.target as HTMLElement).closest("a") && onClose()}
      >
        {viewer ? (
          <>
            <div className="mb-3 flex items-center gap-3">
              <Avatar src={viewer.photoUrl} name={viewer.name} />
              <span className="font-medium">{viewer.name}</span>
            </div>
            <DrawerLink to={paths.home()}>{m.nav_home()}</DrawerLink>
            <DrawerLink to={paths.services()}>{m.nav_services()}</DrawerLink>
            {items?.map((item) => (
              <DrawerLink key={item.label} to={item.to}>
                {item.label}
              </DrawerLink>
            )) ?? <p className="px-3 py-2 text-slate-500">{m.nav_unknown_role()}</p>}
            {viewer.role === "customer" && (
              <>
                <DrawerLink to={paths.customerBookings()}>{m.nav_my_bookings()}</DrawerLink>
                <DrawerLink to={paths.customerNotifications()}>{m.nav_notifications()}</DrawerLink>
              </>
            )}
            <button
              type="button"
              className="rounded-lg px-3 py-2 text-left text-red-700 hover:bg-red-50"
              onClick={() => {
                onClose();
                onLogout();
              }}
            >
              {m.nav_logout()}
            </button>
          </>
        ) : (
          <>
            <DrawerLink to={paths.home()}>{m.nav_home()}</DrawerLink>
            <DrawerLink to={paths.services()}>{m.nav_services()}</DrawerLink>
            <DrawerLink to={paths.about()}>{m.nav_about()}</DrawerLink>
            <DrawerLink to={paths.contact()}>{m.nav_contact()}</DrawerLink>
            <DrawerLink to={paths.login()}>{m.nav_login()}</DrawerLink>
            <DrawerLink to={paths.signup()}>{m.nav_signup()}</DrawerLink>
          </>
        )}
        <Button variant="secondary" className="mt-4" onClick={onClose}>
          {m.nav_close_menu()}
        </Button>
      </div>
    </Dialog>
  );
}

function DrawerLink({ to, children }: { to: string; children: string }) {
  return (
    <NavLink to={to} end className={navLinkClass}>
      {children}
    </NavLink>
  );
}
