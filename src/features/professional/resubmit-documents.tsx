import { useMutation } from "convex/react";
import { useMemo, useState } from "react";
import { toast } from "sonner";
import * as z from "zod/mini";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { Button } from "@/components/ui/button";
import { DOCUMENT_KINDS as DOCUMENTS, type DocumentKind } from "@convex/rules/documents";
import { ProgressBar } from "@/components/ui/progress-bar";
import { errorMessage } from "@/lib/errors";
import { Form, useAppForm } from "@/components/form";
import { imageFileProblem, imageFileSchema, uploadImage } from "@/lib/upload";
import { m } from "@/i18n/paraglide/messages";
import { localDocumentLabel } from "@/i18n/rules";

type DocumentKey = DocumentKind;

const schema = z.object({
  citizenshipFront: imageFileSchema,
  citizenshipBack: imageFileSchema,
  trainingCertificate: imageFileSchema,
});

type Props = {
  /** The documents the admin saw, shown until a new image is chosen. */
  current: Record<DocumentKey, string | null>;
  onDone: () => void;
};

/** New images for any of the three documents; sending them puts the profile back in the admins' queue. */
export function ResubmitDocuments({ current, onDone }: Props) {
  const generateUploadUrl = useMutation(api.files.generateUploadUrl);
  const resubmit = useMutation(api.professionals.resubmitDocuments);
  const [progress, setProgress] = useState<Partial<Record<DocumentKey, number>>>({});

  const form = useAppForm({
    defaultValues: {
      citizenshipFront: null,
      citizenshipBack: null,
      trainingCertificate: null,
    } as Record<DocumentKey, File | null>,
    validators: { onChange: schema, onSubmit: schema },
    onSubmit: async ({ value }) => {
      const chosen = DOCUMENTS.filter((d) => value[d.key]);
      setProgress(Object.fromEntries(chosen.map((d) => [d.key, 0])));
      try {
        // One at a time, as at sign-up: on slow mobile data each file finishes sooner.
        const ids: Partial<Record<DocumentKey, Id<"_storage">>> = {};
        for (const { key } of chosen) {
          ids[key] = (await uploadImage(await generateUploadUrl({}), value[key]!, (fraction) =>
            setProgress((p) => ({ ...p, [key]: fraction })),
          )) as Id<"_storage">;
        }
        await resubmit(ids);
        toast.success(m.rs_sent());
        onDone();
      } catch (error) {
        toast.error(errorMessage(error, m.rs_failed()));
      } finally {
        setProgress({});
      }
    },
  });

  return (
    <Form
      aria-label={m.pc_resubmit()}
      className="mt-3 space-y-4 rounded-xl border border-slate-200 p-3"
      onSubmit={() => form.handleSubmit()}
    >
      <p className="text-sm text-slate-700">{m.rs_intro()}</p>
      {DOCUMENTS.map((d) => (
        <form.AppField key={d.key} name={d.key}>
          {(f) => (
            <div className="space-y-2">
              <Preview
                file={f.state.value}
                currentUrl={current[d.key]}
                label={localDocumentLabel(d.key)}
              />
              <f.ImageField
                label={m.rs_new_label({ document: localDocumentLabel(d.key) })}
                hint={m.rs_hint()}
                className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1 file:text-brand-800"
              />
            </div>
          )}
        </form.AppField>
      ))}
      {Object.keys(progress).length > 0 && (
        <div className="space-y-2 rounded-lg bg-slate-50 p-3" aria-live="polite">
          {DOCUMENTS.filter((d) => progress[d.key] !== undefined).map((d) => (
            <ProgressBar
              key={d.key}
              label={m.rs_uploading({ document: localDocumentLabel(d.key) })}
              value={progress[d.key]!}
            />
          ))}
        </div>
      )}
      <form.Subscribe
        selector={(s) => [DOCUMENTS.some((d) => s.values[d.key]), s.isSubmitting] as const}
      >
        {([chosen, submitting]) => (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onDone} disabled={submitting}>
              {m.action_cancel()}
            </Button>
            <form.AppForm>
              <form.SubmitButton
                label={m.rs_send()}
                pendingLabel={m.state_sending()}
                disabled={!chosen}
              />
            </form.AppForm>
          </div>
        )}
      </form.Subscribe>
    </Form>
  );
}

/** The chosen image, or the one on file until an acceptable image is chosen. */
function Preview({
  file,
  currentUrl,
  label,
}: {
  file: File | null;
  currentUrl: string | null;
  label: string;
}) {
  // Released once the image has loaded: the picture stays on screen, the blob is freed.
  const fileUrl = useMemo(
    () => (file && imageFileProblem(file) === null ? URL.createObjectURL(file) : null),
    [file],
  );
  const src = fileUrl ?? currentUrl;
  return (
    <figure className="flex items-center gap-3">
      {src ? (
        <img
          src={src}
          alt={fileUrl ? m.rs_alt_new({ document: label }) : m.rs_alt_on_file({ document: label })}
          onLoad={() => fileUrl && URL.revokeObjectURL(fileUrl)}
          className="h-16 w-24 shrink-0 rounded bg-slate-100 object-contain"
        />
      ) : (
        <span className="flex h-16 w-24 shrink-0 items-center justify-center rounded bg-slate-100 text-xs text-slate-500">
          {m.rs_no_image()}
        </span>
      )}
      <figcaption className="text-sm">
        <span className="block font-medium text-slate-800">{label}</span>
        <span className="text-xs text-slate-500">
          {fileUrl ? m.rs_new_not_sent() : m.rs_on_file()}
        </span>
      </figcaption>
    </figure>
  );
}
