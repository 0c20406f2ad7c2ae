import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { settingsRules } from "@convex/rules/settings";
import { LATE_CANCEL_FEE_NRS } from "@convex/rules/cancellation";
import { m } from "@/i18n/paraglide/messages";

type Settings = z.infer<typeof settingsRules>;

export default function SettingsPage() {
  return (
    <AdminPageLayout title={m.admin_nav_settings()} loadError={m.admin_settings_load_failed()}>
      <SettingsLoader />
    </AdminPageLayout>
  );
}

function SettingsLoader() {
  const settings = useQuery(api.settings.get);
  if (settings === undefined) return <LoadingState label={m.admin_settings_loading()} />;
  return <SettingsForm initial={settings} />;
}

function SettingsForm({ initial }: { initial: Settings }) {
  const update = useMutation(api.admin.updateSettings);
  const form = useAppForm({
    defaultValues: initial,
    validators: { onChange: settingsRules, onSubmit: settingsRules },
    onSubmit: async ({ value, formApi }) => {
      try {
        const parsed = settingsRules.parse(value);
        await update(parsed);
        formApi.reset(parsed);
        toast.success(m.admin_settings_saved());
      } catch (error) {
        toast.error(errorMessage(error, m.admin_settings_save_failed()));
      }
    },
  });

  return (
    <Form
      className="mt-4 max-w-xl space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      onSubmit={() => form.handleSubmit()}
    >
      <form.AppField name="hotline">
        {(f) => (
          <f.TextField
            label={m.admin_settings_hotline()}
            hint={m.admin_settings_hotline_hint()}
            type="tel"
            required
          />
        )}
      </form.AppField>
      <form.AppField name="bannerText">
        {(f) => (
          <f.TextareaField
            label={m.admin_settings_banner()}
            hint={m.admin_settings_banner_hint()}
            rows={4}
            lang="en"
            required
          />
        )}
      </form.AppField>
      <form.AppField name="bannerTextNe">
        {(f) => (
          <f.TextareaField
            label={m.admin_settings_banner_ne()}
            hint={m.admin_settings_banner_ne_hint()}
            rows={4}
            lang="ne-NP"
            required
          />
        )}
      </form.AppField>
      <form.AppField name="bookingExpiryMinutes">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_expiry()}
            hint={m.admin_settings_expiry_hint()}
            min={5}
            max={1440}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="commissionPercent">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_commission()}
            hint={m.admin_settings_commission_hint()}
            min={0}
            max={50}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="noShowAfterMinutes">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_no_show()}
            hint={m.admin_settings_no_show_hint()}
            min={10}
            max={240}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="visitChargeNrs">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_visit_charge()}
            hint={m.admin_settings_visit_charge_hint()}
            min={0}
            max={5000}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="lateCancelFeeNrs">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_late_fee()}
            hint={m.admin_settings_late_fee_hint()}
            min={LATE_CANCEL_FEE_NRS.min}
            max={LATE_CANCEL_FEE_NRS.max}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="dispatchOfferSeconds">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_offer()}
            hint={m.admin_settings_offer_hint()}
            min={15}
            max={600}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="dispatchLimitMinutes">
        {(f) => (
          <f.NumberField
            label={m.admin_settings_limit()}
            hint={m.admin_settings_limit_hint()}
            min={1}
            max={60}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.Subscribe selector={(s) => [s.isSubmitting, s.isDirty] as const}>
        {([isSubmitting, isDirty]) => (
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={isSubmitting || !isDirty}>
              {isSubmitting ? m.admin_settings_saving() : m.admin_settings_save()}
            </Button>
            {!isDirty && <span className="text-sm text-slate-500">{m.admin_settings_clean()}</span>}
          </div>
        )}
      </form.Subscribe>
    </Form>
  );
}
