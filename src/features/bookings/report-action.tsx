import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import {
  MODERATION_FIELDS,
  CHOSEN_CATEGORIES,
  type ChosenCategory,
  type ReportTarget,
} from "@convex/rules/moderation";
import { ReportStatusBadge } from "@/components/report-status-badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { SelectField, TextareaField } from "@/components/ui/inputs";
import { lengthMessage } from "@/lib/length-message";
import { m } from "@/i18n/paraglide/messages";
import { reportCategoryLabel } from "@/i18n/moderation";
import { errorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";

const TEXT = MODERATION_FIELDS.reportText;

/**
 * "Report a problem" on a booking card, for either party: the booking or (once written) its review.
 * Below it, live, the reporter's reports on this booking with their status and GharSewa's answer.
 */
export function ReportAction({
  bookingId,
  hasReview,
}: {
  bookingId: Id<"bookings">;
  hasReview: boolean;
}) {
  const mine = useQuery(api.reports.mine, { bookingId });
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-3 border-t border-slate-100 pt-2">
      {mine && mine.length > 0 && (
        <ul className="mb-2 space-y-1 text-sm" aria-label={m.report_mine_label()}>
          {mine.map((r) => (
            <li key={r._id} className="rounded-lg bg-slate-50 p-2">
              <p className="flex flex-wrap items-center gap-2">
                <span>
                  {m.report_mine_item({
                    category: reportCategoryLabel(r.category),
                    when: formatDateTime(r._creationTime),
                  })}
                </span>
                <ReportStatusBadge status={r.status} />
              </p>
              {r.resolutionNote && (
                <p className="mt-1 break-words text-slate-700" translate="no">
                  {m.report_mine_answer({ note: r.resolutionNote })}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        {m.report_open()}
      </Button>
      {open && (
        <ReportDialog bookingId={bookingId} hasReview={hasReview} onClose={() => setOpen(false)} />
      )}
    </div>
  );
}

/** Reports the booking, its review (`hasReview`), or one message of its conversation (`messageId`). */
export function ReportDialog({
  bookingId,
  hasReview = false,
  messageId,
  onClose,
}: {
  bookingId: Id<"bookings">;
  hasReview?: boolean;
  messageId?: Id<"chatMessages">;
  onClose: () => void;
}) {
  const create = useMutation(api.reports.create);
  const [target, setTarget] = useState<ReportTarget>(messageId ? "message" : "booking");
  const [category, setCategory] = useState<ChosenCategory | "">("");
  const [text, setText] = useState("");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const textProblem = lengthMessage(text, TEXT, (min) => m.error_min_chars({ min }));
  const categoryProblem = category === "" ? m.report_category_required() : undefined;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setTried(true);
    setFailure(null);
    if (textProblem || category === "") return;
    setBusy(true);
    try {
      await create({ bookingId, target, category, text: text.trim(), messageId });
      toast.success(m.report_sent());
      onClose();
    } catch (error) {
      setFailure(errorMessage(error, m.report_failed()));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={messageId ? m.chat_report_title() : m.report_title()}
      description={m.report_text_intro()}
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 space-y-3">
        {hasReview && (
          <SelectField
            label={m.report_target()}
            value={target}
            onChange={(e) => setTarget(e.target.value === "review" ? "review" : "booking")}
          >
            <option value="booking">{m.report_target_booking()}</option>
            <option value="review">{m.report_target_review()}</option>
          </SelectField>
        )}
        <SelectField
          label={m.report_category()}
          value={category}
          onChange={(e) => setCategory(CHOSEN_CATEGORIES.find((c) => c === e.target.value) ?? "")}
          error={tried ? categoryProblem : undefined}
        >
          <option value="">{m.report_category_choose()}</option>
          {CHOSEN_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {reportCategoryLabel(c)}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label={m.report_details()}
          rows={4}
          maxLength={TEXT.max}
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={tried ? textProblem : undefined}
        />
        {failure && (
          <p role="alert" className="text-sm text-red-600">
            {failure}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {m.action_close()}
          </Button>
          <Button type="submit" disabled={busy}>
            {m.report_send()}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
