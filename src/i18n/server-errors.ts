import type { ErrorCode } from "@convex/model/errors";
import { m } from "@/i18n/paraglide/messages";

/**
 * The one catalogue of server refusals: every ConvexError code of convex/model/errors.ts worded in
 * the reader's language. A code added on the server without a message here fails the typecheck.
 */
const SERVER_ERRORS: Record<ErrorCode, () => string> = {
  UNAUTHENTICATED: m.error_unauthenticated,
  FORBIDDEN: m.error_forbidden,
  NOT_FOUND: m.error_not_found,
  INVALID_CREDENTIALS: m.error_invalid_credentials,
  AUTH_FAILED: m.error_auth_failed,
  SIGN_UP_REFUSED: m.error_sign_up_refused,
  UNSUPPORTED_FLOW: m.error_unsupported_flow,
  LAST_ADMIN: m.error_last_admin,
  INVALID_INPUT: m.error_invalid_input,
  INVALID_JSON: m.error_invalid_json,
  INVALID_FORM: m.error_invalid_form,
  INVALID_PATH: m.error_invalid_path,
  BAD_REQUEST: m.error_bad_request,
  METHOD_NOT_ALLOWED: m.error_method_not_allowed,
  PAYLOAD_TOO_LARGE: m.error_payload_too_large,
  UNSUPPORTED_MEDIA_TYPE: m.error_unsupported_media_type,
  EMAIL_TAKEN: m.error_email_taken,
  PHONE_TAKEN: m.error_phone_taken,
  USERNAME_TAKEN: m.error_username_taken,
  FILE_NOT_IMAGE: m.error_file_not_image,
  FILE_TOO_LARGE: m.error_file_too_large,
  FILE_NOT_FOUND: m.error_file_not_found,
  FILE_NOT_YOURS: m.error_file_not_yours,
  FILE_IN_USE: m.error_file_in_use,
  UPLOAD_URL_INVALID: m.error_upload_url_invalid,
  RATE_LIMITED: m.error_rate_limited,
  TOO_MANY_ATTEMPTS: m.error_too_many_attempts,
  INVALID_CODE: m.error_invalid_code,
  TOO_MANY_OPEN_REQUESTS: m.error_too_many_open_requests,
  DRAFT_NOT_FOUND: m.error_draft_not_found,
  DRAFT_USED_UP: m.error_draft_used_up,
  STAMP_INVALID: m.error_stamp_invalid,
  STAMP_USED: m.error_stamp_used,
  STAMP_EXPIRED: m.error_stamp_expired,
  ILLEGAL_TRANSITION: m.error_illegal_transition,
  INVALID_ADDRESS: m.error_invalid_address,
  NOTE_TOO_LONG: m.error_note_too_long,
  REASON_REQUIRED: m.error_reason_required,
  REASON_TOO_LONG: m.error_reason_too_long,
  SLOT_IN_PAST: m.error_slot_in_past,
  SLOT_TOO_FAR: m.error_slot_too_far,
  NO_SERVICES: m.error_no_services,
  TOO_MANY_SERVICES: m.error_too_many_services,
  SERVICE_NOT_OFFERED: m.error_service_not_offered,
  SERVICE_UNAVAILABLE: m.error_service_unavailable,
  OUT_OF_AREA: m.error_out_of_area,
  PROFESSIONAL_UNAVAILABLE: m.error_professional_unavailable,
  PROFESSIONAL_UNVERIFIED: m.error_professional_unverified,
  BOOKINGS_UNDER_WAY: m.error_bookings_under_way,
  INVALID_RATING: m.error_invalid_rating,
  COMMENT_TOO_LONG: m.error_comment_too_long,
  ALREADY_REVIEWED: m.error_already_reviewed,
  NOT_COMPLETED: m.error_not_completed,
  ALREADY_VERIFIED: m.error_already_verified,
  INVALID_LOCATION: m.error_invalid_location,
  OUTSIDE_WORKING_HOURS: m.error_outside_working_hours,
  SLOT_TAKEN: m.error_slot_taken,
  BOOKING_CLASH: m.error_booking_clash,
  TOO_EARLY: m.error_too_early,
  ALREADY_REPLIED: m.error_already_replied,
  ACCOUNT_SUSPENDED: m.error_account_suspended,
  REPORT_OPEN: m.error_report_open,
  CANNOT_SUSPEND_SELF: m.error_cannot_suspend_self,
  DEVICE_TAKEN: m.error_device_taken,
  MESSAGE_TOO_LONG: m.error_message_too_long,
  TOO_MANY_PHOTOS: m.error_too_many_photos,
  CHAT_CLOSED: m.error_chat_closed,
  CHAT_BLOCKED: m.error_chat_blocked,
};

/** The catalogue's words for a refusal code, or null for a code this app does not know. */
export function serverErrorText(code: unknown): string | null {
  return typeof code === "string" && Object.hasOwn(SERVER_ERRORS, code)
    ? SERVER_ERRORS[code as ErrorCode]()
    : null;
}
