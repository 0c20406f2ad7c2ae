import { useState } from "react";
import { Link } from "@/components/link";
import * as Popover from "@radix-ui/react-popover";
import { Avatar } from "@/components/avatar";
import { PopoverPanel } from "@/components/ui/popover-panel";
import { m } from "@/i18n/paraglide/messages";

/** The signed-in user's account menu (spec §2); `items` null reads 'Unknown role'. */
export default function UserMenu({
  viewer,
  items,
  onLogout,
}: {
  viewer: { name: string; photoUrl?: string | null };
  items: { label: string; to: string }[] | null;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          aria-label={m.nav_account_menu({ name: viewer.name })}
          className="flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full p-0.5 sm:pr-2 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <Avatar src={viewer.photoUrl} name={viewer.name} size={32} />
          <span className="hidden max-w-32 truncate text-sm font-medium sm:inline">
            {viewer.name}
          </span>
        </button>
      </Popover.Trigger>
      <PopoverPanel align="end" className="w-56 p-1 text-sm">
        <p className="truncate px-3 py-2 text-xs text-slate-500">
          {m.nav_signed_in_as({ name: viewer.name })}
        </p>
        {items ? (
          items.map((item) => (
            <Link
              key={item.label}
              to={item.to}
              onClick={() => setOpen(false)}
              className="block rounded-lg px-3 py-2 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none"
            >
              {item.label}
            </Link>
          ))
        ) : (
          <p className="px-3 py-2 text-slate-500">{m.nav_unknown_role()}</p>
        )}
        <button
          type="button"
          onClick={() => {
            setOpen(false);
            onLogout();
          }}
          className="block w-full rounded-lg px-3 py-2 text-left text-red-700 hover:bg-red-50 focus-visible:bg-red-50 focus-visible:outline-none"
        >
          {m.nav_logout()}
        </button>
      </PopoverPanel>
    </Popover.Root>
  );
}
