import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { CITIES } from "@convex/constants";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextareaField } from "@/components/ui/inputs";
import { LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { FALLBACK, VERIFICATION } from "@/features/admin/technician-card";
import { DOCUMENT_KINDS as DOCUMENTS } from "@convex/rules/documents";

const NOTE_MAX = 500;

type Props = { professionalId: Id<"professionals">; onClose: () => void };

/** A technician's documents with Verify / Reject and a note for the professional. */
export function TechnicianDialog({ professionalId, onClose }: Props) {
  const technician = useQuery(api.admin.technician, { professionalId });
  const verify = useMutation(api.admin.verify);
  const setAvailability = useMutation(api.admin.setAvailability);
  const [switching, setSwitching] = useState(false);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState<"verified" | "rejected" | null>(null);
  const title =
    technician?.name?.trim() || (technician === undefined ? "Technician" : FALLBACK.name);

  async function decide(decision: "verified" | "rejected") {
    setBusy(decision);
    try {
      const trimmed = note.trim();
      await verify({ professionalId, decision, ...(trimmed ? { note: trimmed } : {}) });
      toast.success(decision === "verified" ? `${title} is verified.` : `${title} was rejected.`);
      onClose();
    } catch (error) {
      toast.error(errorMessage(error, "Could not save the decision. Please try again."));
    } finally {
      setBusy(null);
    }
  }

  async function toggleAvailability(available: boolean) {
    setSwitching(true);
    try {
      await setAvailability({ professionalId, available });
    } catch (error) {
      toast.error(errorMessage(error, "Could not change the availability. Please try again."));
    } finally {
      setSwitching(false);
    }
  }

  return (
    <Dialog open onClose={onClose} title={title} className="sm:w-[min(56rem,calc(100vw-2rem))]">
      {technician === undefined ? (
        <LoadingState label="Loading documents…" />
      ) : technician === null ? (
        <p className="mt-3 text-slate-700">This technician no longer exists.</p>
      ) : (
        <div className="mt-3 space-y-4">
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <Badge tone={VERIFICATION[technician.verification.status].tone}>
              {VERIFICATION[technician.verification.status].label}
            </Badge>
            <span>{technician.specialtyName || FALLBACK.specialty}</span>
            <span aria-hidden="true">·</span>
            <span>
              {CITIES.find((c) => c.slug === technician.locations[0]?.city)?.name ?? FALLBACK.city}
            </span>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm">
            <span className="text-slate-700">
              {technician.available ? "Available for new bookings." : "Not taking new bookings."}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={switching}
              onClick={() => void toggleAvailability(!technician.available)}
            >
              {technician.available ? "Mark unavailable" : "Mark available"}
            </Button>
          </div>
          <dl className="grid gap-1 text-sm sm:grid-cols-2">
            <div>
              <dt className="inline text-slate-500">Email: </dt>
              <dd className="inline break-all text-slate-800">
                {technician.email || "No email available"}
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-500">Phone: </dt>
              <dd className="inline text-slate-800">{technician.phone || "No phone available"}</dd>
            </div>
          </dl>
          {technician.verification.resubmittedAt && (
            <p className="rounded-lg bg-sky-50 px-3 py-2 text-sm text-slate-700">
              New documents re-submitted by the professional (
              {formatDateTime(technician.verification.resubmittedAt)}).
            </p>
          )}
          {technician.verification.note && (
            <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
              <span className="font-medium">Last note:</span> {technician.verification.note}
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
                  <p className="mb-1 text-sm font-medium text-slate-800">{d.label}</p>
                  {url ? (
                    <a href={url} target="_blank" rel="noreferrer" className="block">
                      <img
                        src={url}
                        alt={`${d.label} of ${title}`}
                        className="h-32 w-full rounded bg-slate-100 object-contain sm:h-40"
                      />
                      <span className="mt-1 block text-xs text-brand-700">Open full size</span>
                    </a>
                  ) : (
                    <p className="flex h-32 items-center sm:h-40 justify-center rounded bg-slate-100 text-sm text-slate-500">
                      Not uploaded
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
          <TextareaField
            label="Note for the professional (optional)"
            hint="Shown on their dashboard, e.g. why the documents were rejected."
            rows={3}
            maxLength={NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={busy !== null}>
              Close
            </Button>
            <Button
              variant="danger"
              onClick={() => void decide("rejected")}
              disabled={busy !== null}
            >
              {busy === "rejected" ? "Rejecting…" : "Reject"}
            </Button>
            <Button onClick={() => void decide("verified")} disabled={busy !== null}>
              {busy === "verified" ? "Verifying…" : "Verify"}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
