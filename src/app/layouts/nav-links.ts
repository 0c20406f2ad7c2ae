/** What the header and its small screens' drawer share: a menu entry, and how a nav link looks. */
export type MenuItem = { label: string; to: string };

export const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 hover:bg-slate-100 ${isActive ? "font-semibold text-brand-700" : "text-slate-700"}`;
