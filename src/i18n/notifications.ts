import { m } from "@/i18n/paraglide/messages";
import { formatNrs } from "@/lib/numbers";
import { localCityName } from "@/i18n/places";
import { localServiceName } from "@/i18n/services";

/** A notification as stored: `kind` and `params` from the server, English `title`/`body` as kept. */
export type StoredNotification = {
  kind: string;
  title: string;
  body: string;
  params?: Record<string, string> | null;
};

type Words = { title: string; body: string };

/**
 * A server-created notification worded in the reader's language from its kind and parameters.
 * Rows stored before parameters existed get the kind's general wording; a kind this app does not
 * know keeps the stored text.
 */
export function notificationText(n: StoredNotification): Words {
  const p = n.params;
  const actor = p
    ? p.actor ||
      (p.actorRole === "customer" ? m.notice_someone_customer() : m.notice_someone_professional())
    : "";
  const services = p?.services
    ? p.services
        .split("\n")
        .map((s) => localServiceName(s))
        .join(m.list_separator())
    : "";
  switch (n.kind) {
    case "booking.requested":
      return {
        title: m.notice_requested_title(),
        body: p
          ? m.notice_requested_body({ actor, services, city: localCityName(p.city ?? "") })
          : m.notice_requested_body_generic(),
      };
    case "booking.accepted":
      return {
        title: m.notice_accepted_title(),
        body: p ? m.notice_accepted_body({ actor, services }) : m.notice_accepted_body_generic(),
      };
    case "booking.rejected":
      return {
        title: m.notice_rejected_title(),
        body: !p
          ? m.notice_rejected_body_generic()
          : p.reason
            ? m.notice_rejected_body_reason({ actor, services, reason: p.reason })
            : m.notice_rejected_body({ actor, services }),
      };
    case "booking.en_route":
      return {
        title: m.notice_en_route_title(),
        body: p ? m.notice_en_route_body({ actor, services }) : m.notice_en_route_body_generic(),
      };
    case "booking.in_progress":
      return {
        title: m.notice_in_progress_title(),
        body: p
          ? m.notice_in_progress_body({ actor, services })
          : m.notice_in_progress_body_generic(),
      };
    case "booking.completed":
      return {
        title: m.notice_completed_title(),
        body: p
          ? m.notice_completed_body({ actor, services, price: formatNrs(Number(p.price ?? 0)) })
          : m.notice_completed_body_generic(),
      };
    case "booking.reviewed":
      return {
        title: m.notice_reviewed_title(),
        body: p ? m.notice_reviewed_body({ actor, services }) : m.notice_reviewed_body_generic(),
      };
    case "booking.cancelled":
      return {
        title: m.notice_cancelled_title(),
        body: p
          ? m.notice_cancelled_body({ actor, services, reason: p.reason ?? "" })
          : m.notice_cancelled_body_generic(),
      };
    case "booking.expired":
      return {
        title: m.notice_expired_title(),
        body: p ? m.notice_expired_body({ services }) : m.notice_expired_body_generic(),
      };
    case "verification.verified":
      return { title: m.notice_verified_title(), body: m.notice_verified_body() };
    case "verification.rejected":
      return {
        title: m.notice_verification_rejected_title(),
        body: !p?.note
          ? m.notice_verification_rejected_body_generic()
          : p.cause === "document"
            ? m.notice_document_rejected_body({ note: p.note })
            : m.notice_verification_rejected_body({ note: p.note }),
      };
    case "account.photo_rejected":
      return { title: m.notice_photo_rejected_title(), body: m.notice_photo_rejected_body() };
    default:
      return { title: n.title, body: n.body };
  }
}
