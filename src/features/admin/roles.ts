import { m } from "@/i18n/paraglide/messages";

const ROLE: Record<string, () => string> = {
  customer: m.admin_role_customer,
  professional: m.admin_role_professional,
  admin: m.admin_role_admin,
};

/** A user's role as the admin lists show it ("professional" / "पेशेवर"); an unknown role as stored. */
export function roleLabel(role: string): string {
  return ROLE[role]?.() ?? role;
}
