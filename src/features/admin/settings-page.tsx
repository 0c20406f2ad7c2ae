import { useMutation, useQuery } from "convex/react";
import { toast } from "sonner";
import { z } from "zod";
import { api } from "@convex/_generated/api";
import { Button } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { AdminPageLayout } from "@/features/admin/admin-page-layout";
import { settingsRules } from "@convex/rules/settings";

type Settings = z.infer<typeof settingsRules>;

export default function SettingsPage() {
  return (
    <AdminPageLayout title="Settings" loadError="Settings could not be loaded.">
      <SettingsLoader />
    </AdminPageLayout>
  );
}

function SettingsLoader() {
  const settings = useQuery(api.settings.get);
  if (settings === undefined) return <LoadingState label="Loading settings…" />;
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
        toast.success("Settings saved.");
      } catch (error) {
        toast.error(errorMessage(error, "Could not save the settings. Please try again."));
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
            label="Hotline number"
            hint="Shown in the footer and on the contact page."
            type="tel"
            required
          />
        )}
      </form.AppField>
      <form.AppField name="bannerText">
        {(f) => (
          <f.TextareaField
            label="Banner text"
            hint="The scrolling banner on the landing page."
            rows={4}
            required
          />
        )}
      </form.AppField>
      <form.AppField name="bookingExpiryMinutes">
        {(f) => (
          <f.NumberField
            label="Booking expiry (minutes)"
            hint="A request the professional has not answered by then expires."
            min={5}
            max={1440}
            step={1}
            required
          />
        )}
      </form.AppField>
      <form.Subscribe selector={(s) => [s.isSubmitting, s.isDirty] as const}>
        {([isSubmitting, isDirty]) => (
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={isSubmitting || !isDirty}>
              {isSubmitting ? "Saving…" : "Save settings"}
            </Button>
            {!isDirty && <span className="text-sm text-slate-500">No unsaved changes.</span>}
          </div>
        )}
      </form.Subscribe>
    </Form>
  );
}
