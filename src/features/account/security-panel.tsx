import { ChangePassword } from "@/features/account/change-password";
import { ContactCheck } from "@/features/account/contact-check";
import { Devices } from "@/features/account/devices";
import { m } from "@/i18n/paraglide/messages";

/**
 * Password and sign-in: a tab of the account page (customers and professionals) and the admin's
 * account page. `heading`: the level of its title in the page around it, or none when the
 * page already says it.
 */
export function SecurityPanel({ heading = "h1" }: { heading?: "h1" | null }) {
  const Title = heading;
  return (
    <div className="space-y-6">
      {Title !== null && <Title className="text-2xl font-bold">{m.security_title()}</Title>}
      <ContactCheck />
      <ChangePassword />
      <Devices />
    </div>
  );
}
