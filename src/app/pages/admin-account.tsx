import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { SecurityPanel } from "@/features/account/security-panel";
import { TwoFactorPanel } from "@/features/admin/two-factor-panel";
import { m } from "@/i18n/paraglide/messages";

/** /admin/account: the signed-in admin's password and devices (the account feature) and two-factor sign-in. */
export default function AdminAccountPage() {
  return (
    <AdminPageLayout title={m.security_title()} loadError={m.acc_section_failed()}>
      <div className="mt-4 max-w-3xl">
        <SecurityPanel heading={null} />
        <TwoFactorPanel />
      </div>
    </AdminPageLayout>
  );
}
