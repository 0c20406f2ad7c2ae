import { useState } from "react";
import { useMutation } from "convex/react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Avatar } from "@/components/avatar";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { formatDigits } from "@/lib/numbers";
import { imageHint, imageFileSchema, uploadImage } from "@/lib/upload";
import { m } from "@/i18n/paraglide/messages";
import { profileRules } from "@convex/rules/profile";

type Viewer = {
  name: string;
  email: string;
  phone: string;
  address: string;
  zipCode: string;
  photoUrl: string | null;
};

const editSchema = z.object({
  ...profileRules,
  photo: imageFileSchema,
});

export function ProfileTab({ viewer }: { viewer: Viewer }) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="space-y-6">
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 text-center shadow-sm sm:flex-row sm:text-left">
        <Avatar src={viewer.photoUrl} name={viewer.name} size={96} />
        <div className="flex-1">
          <h1 className="text-2xl font-bold">{viewer.name}</h1>
          <p className="text-slate-600">{viewer.email}</p>
        </div>
        {!editing && (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {m.acc_edit()}
          </Button>
        )}
      </div>
      {editing ? (
        <EditProfile viewer={viewer} onDone={() => setEditing(false)} />
      ) : (
        <section
          aria-labelledby="personal-info"
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="personal-info" className="text-lg font-semibold">
            {m.acc_personal_info()}
          </h2>
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            {/* the name as they wrote it: a Nepali name has no first/last split to guess */}
            <Info label={m.field_full_name()} value={viewer.name} />
            <Info label={m.acc_email()} value={viewer.email} />
            <Info
              label={m.label_phone_short()}
              value={viewer.phone ? formatDigits(viewer.phone) : "—"}
            />
            <Info label={m.label_address()} value={viewer.address || "—"} />
            <Info
              label={m.label_zip_code()}
              value={viewer.zipCode ? formatDigits(viewer.zipCode) : "—"}
            />
          </dl>
        </section>
      )}
    </div>
  );
}

function Info({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="font-medium break-words">{value}</dd>
    </div>
  );
}

function EditProfile({ viewer, onDone }: { viewer: Viewer; onDone: () => void }) {
  const updateProfile = useMutation(api.users.updateProfile);
  const generateUploadUrl = useMutation(api.files.generateUploadUrl);
  const [progress, setProgress] = useState<number | null>(null);

  const form = useAppForm({
    defaultValues: {
      name: viewer.name,
      phone: viewer.phone,
      address: viewer.address,
      zipCode: viewer.zipCode,
      photo: null as File | null,
    },
    validators: { onChange: editSchema, onSubmit: editSchema },
    onSubmit: async ({ value }) => {
      try {
        let photo: Id<"_storage"> | undefined;
        if (value.photo) {
          setProgress(0);
          photo = (await uploadImage(
            await generateUploadUrl({}),
            value.photo,
            setProgress,
          )) as Id<"_storage">;
        }
        await updateProfile({
          name: value.name.trim(),
          phone: value.phone.trim(),
          address: value.address.trim(),
          zipCode: value.zipCode.trim(),
          ...(photo ? { photo } : {}),
        });
        toast.success(m.acc_profile_saved());
        onDone();
      } catch (e) {
        toast.error(errorMessage(e, m.acc_profile_failed()));
      } finally {
        setProgress(null);
      }
    },
  });

  return (
    <Form
      aria-labelledby="edit-profile"
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      onSubmit={() => form.handleSubmit()}
    >
      <h2 id="edit-profile" className="text-lg font-semibold">
        {m.acc_edit_profile()}
      </h2>
      <form.AppField name="name">
        {(f) => <f.TextField label={m.field_full_name()} autoComplete="name" />}
      </form.AppField>
      <form.AppField name="phone">
        {(f) => <f.TextField label={m.field_phone()} type="tel" autoComplete="tel" />}
      </form.AppField>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <form.AppField name="address">
          {(f) => <f.TextField label={m.label_address()} autoComplete="street-address" />}
        </form.AppField>
        <form.AppField name="zipCode">
          {(f) => (
            <f.TextField
              label={m.label_zip_code()}
              autoComplete="postal-code"
              inputMode="numeric"
            />
          )}
        </form.AppField>
      </div>
      <form.AppField name="photo">
        {(f) => (
          <f.ImageField
            label={m.doc_profile_photo()}
            hint={m.photo_keep_hint({ hint: imageHint() })}
          />
        )}
      </form.AppField>
      {progress !== null && <ProgressBar label={m.acc_uploading_photo()} value={progress} />}
      <form.Subscribe selector={(s) => s.isSubmitting}>
        {(submitting) => (
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onDone} disabled={submitting}>
              {m.action_cancel()}
            </Button>
            <Button type="submit" disabled={submitting}>
              {submitting ? m.state_saving() : m.acc_save_changes()}
            </Button>
          </div>
        )}
      </form.Subscribe>
    </Form>
  );
}
