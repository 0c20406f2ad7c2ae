/**
 * Every abuse limit as plain numbers (README "Abuse limits"): model/rateLimit.ts and
 * model/signUpDrafts.ts enforce them, the web app words its messages from them.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** At most `max` calls in each fixed window of `windowMs`. */
export type Allowance = { max: number; windowMs: number };

/**
 * Allowances per actor (a signed-in user, an email address) and for everyone together. The shared
 * ceilings are generous and their windows short: a flood that reaches one blocks others for seconds.
 */
export const RATE_LIMITS = {
  // a professional's sign-up uploads 4 files (photo and 3 documents), and may replace some
  upload: {
    perUser: { max: 20, windowMs: MINUTE },
    everyVisitor: { max: 60, windowMs: 5 * SECOND },
  },
  contact: {
    perUser: { max: 5, windowMs: MINUTE },
    everyVisitor: { max: 30, windowMs: MINUTE },
  },
  // each sign-up hashes a password (~0.1 s of server CPU), so the shared ceiling also bounds load
  signUp: {
    perEmail: { max: 5, windowMs: 10 * MINUTE },
    everyone: { max: 20, windowMs: 5 * SECOND },
  },
  // each password sign-in (known account or not) hashes once (PBKDF2, ~0.25 s of a core, off the
  // JavaScript thread); per account or unknown email as auth counted failures: 10 tries an hour,
  // a sign-in with the right password starts the count again
  signIn: {
    perAccount: { max: 10, windowMs: HOUR },
    everyone: { max: 20, windowMs: 5 * SECOND },
  },
  // reviews a customer writes (model/reviews.ts)
  review: { perUser: { max: 3, windowMs: 24 * HOUR } },
  // reports on bookings and reviews (model/reports.ts); each one waits for an admin
  report: { perUser: { max: 5, windowMs: HOUR } },
  // an admin's second factor (model/twoFactor.ts), after the right password: 3 of 10^6 TOTP codes
  // match at once (window ±1), so 5 guesses per 15 minutes, 20 a day, bound a guesser to 6 in 10^5 a day
  twoFactor: {
    perAccount: { max: 5, windowMs: 15 * MINUTE },
    perAccountDaily: { max: 20, windowMs: DAY },
  },
  // redeeming an admin setup link (model/adminSetup.ts): its token is 256 random bits, so guessing is
  // hopeless anyway; every try is counted for everyone together, which bounds the work a flood makes
  adminSetup: { everyone: { max: 10, windowMs: MINUTE } },
  // one-time codes by email or SMS (model/passwordReset.ts): each message costs money and a guess at
  // a code; per account, 5 codes a day of 5 tries each bound a 6-digit guesser to 25 in 10^6 a day
  accountCode: {
    perAddress: { max: 5, windowMs: HOUR },
    perAccount: { max: 5, windowMs: DAY },
    everyone: { max: 30, windowMs: 5 * SECOND },
  },
  // a booking's conversation (model/chat.ts): messages, and the photos among them
  chatMessage: { perUser: { max: 30, windowMs: MINUTE } },
  chatPhoto: { perUser: { max: 20, windowMs: HOUR } },
  // wallet payments (model/wallets/attempts.ts): each start may ask a gateway, each return asks one
  paymentStart: { perUser: { max: 10, windowMs: HOUR } },
  paymentReturn: { perUser: { max: 30, windowMs: MINUTE } },
  // drafts paid for with a proof of work (rules/signUpWork.ts)
  draft: { everyone: { max: 50, windowMs: 5 * SECOND } },
  // drafts of HTTP registrations that brought no proof of work
  apiDraft: { everyone: { max: 10, windowMs: 5 * SECOND } },
} as const satisfies Record<string, Record<string, Allowance>>;

/** What one sign-up draft may do in its life; a sign-up that creates an account spends it. */
export const DRAFT_LIMITS = {
  uploads: 12,
  signUps: 5,
  lifetimeMs: 24 * HOUR,
} as const;

const MB = 1024 * 1024;

/**
 * Files uploaded and not attached to anything yet (model/files.ts): what each uploader (a user or a
 * sign-up draft) and everyone together may hold, in bytes and files, and how long they are kept. A
 * professional's sign-up holds 4 files of at most 5 MB until it is sent, and may replace a few.
 */
export const PENDING_UPLOADS = {
  perUploader: { bytes: 30 * MB, files: 12 },
  everyone: { bytes: 600 * MB, files: 600 },
  lifetimeMs: 2 * HOUR,
} as const;

/** Booking requests per customer. */
export const BOOKING_LIMITS = {
  /** Unfinished bookings (requested or under way) with one professional. */
  openPerProfessional: 2,
  /** Unfinished bookings with anyone. */
  openOverall: 10,
  /** Requests made in any 60 minutes, whatever became of them. */
  perHour: 20,
  hourMs: HOUR,
} as const;

/**
 * What an uploaded image's header may declare (model/imageHeader.ts): a side of at most 10,000 px and
 * 40 megapixels in all, more than any phone photo of a document (a 50-megapixel phone saves 8,160 ×
 * 6,120 only in its special mode; the app shrinks photos to 2,048 px a side before upload).
 */
export const IMAGE_LIMITS = { maxSide: 10_000, maxPixels: 40_000_000 } as const;
