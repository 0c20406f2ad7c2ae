import { useMutation, useQuery } from "convex/react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CITIES } from "@convex/constants";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/inputs";
import { LoadingState } from "@/components/ui/states";
import { formatDateTime } from "@/lib/format";
import { formatDigits } from "@/lib/numbers";
import { useBusyCall } from "@/lib/use-busy-call";
import { FALLBACK, specialtyLabel, VERIFICATION } from "@/features/admin/technician-card";
import { m } from "@/i18n/paraglide/messages";
import { localCityName } from "@/i18n/places";
import { localDocumentLabel } from "@/i18n/rules";
import { DOCUMENT_KINDS as DOCUMENTS } from "@convex/rules/documents";

const NOTE_MAX = 500;

type Props = { professionalId: Id<"professionals">; onClose: () => void };

/** A technician's documents with Verify / Reject and a note for the professional. */
export function TechnicianDialog({ professionalId, onClose }: Props) {
  const technician = useQuery(api.admin.technician, { professionalId });
  const verify = useMutation(api.admin.verify);
  const setAvailability = useMutation(api.admin.setAvailability);
  const switching = useBusyCall();
  const [note, setNote] = useState("");
  const verifying = useBusyCall();
  const rejecting = useBusyCall();
  const busy = verifying.busy || rejecting.busy;
  const needsPhoneId = useId();
  const title =
    technician?.name?.trim() ||
    (technician === undefined ? m.admin_dialog_default_title() : FALLBACK.name());

  async function decide(decision: "verified" | "rejected") {
    const trimmed = note.trim();
    const done = await (decision === "verified" ? verifying : rejecting).run(
      () => verify({ professionalId, decision, ...(trimmed ? { note: trimmed } : {}) }),
      m.admin_dialog_decision_failed(),
    );
    if (!done) return;
    toast.success(
      decision === "verified"
        ? m.admin_dialog_verified_toast({ name: title })
        : m.admin_dialog_rejected_toast({ name: title }),
    );
    onClose();
  }

  async function toggleAvailability(available: boolean) {
    await switching.run(
      () => setAvailability({ professionalId, available }),
      m.admin_dialog_availability_failed(),
    );
  }

  return (
    <Dialog open onClose={onClose} title={title} className="sm:w-[min(56rem,calc(100vw-2rem))]">
      {technician === undefined ? (
        <LoadingState label={m.admin_dialog_loading()} />
      ) : technician === null ? (
        <p className="mt-3 text-slate-700">{m.admin_dialog_gone()}</p>
      ) : (
        <div className="mt-3 space-y-4">
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <Badge tone={VERIFICATION[technician.verification.status].tone}>
              {VERIFICATION[technician.verification.status].label()}
            </Badge>
            <span>{specialtyLabel(technician)}</span>
            <span aria-hidden="true">·</span>
            <span>
              {CITIES.some((c) => c.slug === technician.locations[0]?.city)
                ? localCityName(technician.locations[0].city)
                : FALLBACK.city()}
            </span>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm">
            <span className="text-slate-700">
              {technician.available ? m.admin_dialog_available() : m.admin_dialog_not_available()}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={switching.busy}
              onClick={() => void toggleAvailability(!technician.available)}
            >
              {technician.available
                ? m.admin_dialog_mark_unavailable()
                : m.admin_dialog_mark_available()}
            </Button>
          </div>
          <dl className="grid gap-1 text-sm sm:grid-cols-2">
            <div>
              <dt className="inline text-slate-500">{m.admin_dialog_email()} </dt>
              <dd className="inline break-all text-slate-800">
                {technician.email || m.admin_dialog_no_email()}
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-500">{m.admin_dialog_phone()} </dt>
              <dd className="inline text-slate-800">
                {technician.phone ? formatDigits(technician.phone) : m.admin_dialog_no_phone()}{" "}
                {technician.phoneVerified ? (
                  <Badge tone="success">{m.admin_phone_verified()}</Badge>
                ) : (
                  <Badge tone="warning">{m.admin_phone_not_verified()}</Badge>
                )}
              </dd>
            </div>
          </dl>
          {technician.verification.resubmittedAt && (
            <p className="rounded-lg bg-sky-50 px-3 py-2 text-sm text-slate-700">
              {m.admin_dialog_resubmitted({
                date: formatDateTime(technician.verification.resubmittedAt),
              })}
            </p>
          )}
          {technician.verification.note && (
            <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
              <span className="font-medium">{m.admin_dialog_last_note()}</span>{" "}
              <span translate="no">{technician.verification.note}</span>
              {technician.verification.at && (
                <span className="text-slate-500">
                  {" "}
                  ({formatDateTime(technician.verification.at)})
                </span>
              )}
            </p>
          )}
          <ul className="grid gap-3 sm:grid-cols-3">
            {DOCUMENTS.map((d) => {
              const url = technician.documents[d.key];
              return (
                <li key={d.key} className="rounded-lg border border-slate-200 p-2">
                  <p className="mb-1 text-sm font-medium text-slate-800">
                    {localDocumentLabel(d.key)}
                  </p>
                  {url ? (
                    <a href={url} target="_blank" rel="noreferrer" className="block">
                      <img
                        src={url}
                        alt={m.admin_dialog_document_alt({
                          document: localDocumentLabel(d.key),
                          name: title,
                        })}
                        className="h-32 w-full rounded bg-slate-100 object-contain sm:h-40"
                      />
                      <span className="mt-1 block text-xs text-brand-700">
                        {m.admin_dialog_open_full()}
                      </span>
                    </a>
                  ) : (
                    <p className="flex h-32 items-center sm:h-40 justify-center rounded bg-slate-100 text-sm text-slate-500">
                      {m.admin_dialog_not_uploaded()}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          <TextareaField
            label={m.admin_dialog_note()}
            hint={m.admin_dialog_note_hint()}
            rows={3}
            maxLength={NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          {!technician.phoneVerified && (
            <p
              id={needsPhoneId}
              className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              {m.admin_dialog_verify_needs_phone()}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {m.action_close()}
            </Button>
            <Button variant="danger" onClick={() => void decide("rejected")} disabled={busy}>
              {rejecting.busy ? m.admin_dialog_rejecting() : m.admin_dialog_reject()}
            </Button>
            <Button
              onClick={() => void decide("verified")}
              // the server refuses it too (PHONE_NOT_VERIFIED); the note above says why
              disabled={busy || !technician.phoneVerified}
              aria-describedby={technician.phoneVerified ? undefined : needsPhoneId}
            >
              {verifying.busy ? m.admin_dialog_verifying() : m.admin_dialog_verify()}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
