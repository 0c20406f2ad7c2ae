import { defineSchema, defineTable } from "convex/server";
import { authTables } from "@convex-dev/auth/server";
import { v } from "convex/values";
import {
  attemptProblem,
  attemptState,
  bookedService,
  bookingStatus,
  cashState,
  ledgerAccount,
  lineKind,
  lineStatus,
  paymentMethod,
  payoutMethod,
  refundState,
  txKind,
  city,
  dispatchOfferStatus,
  dispatchRequestStatus,
  locale,
  pin,
  rescheduleStatus,
  place,
  quickReply,
  reportCategory,
  reportStatus,
  role,
  specialty,
  verificationStatus,
  walletMethod,
  workingHours,
} from "./validators";

export default defineSchema({
  ...authTables,

  users: defineTable({
    // fields @convex-dev/auth manages
    name: v.optional(v.string()),
    image: v.optional(v.string()),
    email: v.optional(v.string()),
    emailVerificationTime: v.optional(v.number()),
    phone: v.optional(v.string()),
    phoneVerificationTime: v.optional(v.number()),
    isAnonymous: v.optional(v.boolean()),
    // ours
    role: v.optional(role),
    username: v.optional(v.string()), // admins sign in by username
    photo: v.optional(v.id("_storage")),
    address: v.optional(v.string()),
    zipCode: v.optional(v.string()),
    /** model/suspension.ts: an admin suspended the account; absent while it is in good standing. */
    suspended: v.optional(v.object({ at: v.number(), by: v.id("users"), reason: v.string() })),
    /** The interface language: chosen with a language switch when `languageChosen`, else detected by an older app. */
    language: v.optional(locale),
    /** `language` was chosen with a language switch: only then do the user's devices adopt it. */
    languageChosen: v.optional(v.literal(true)),
  })
    .index("email", ["email"])
    .index("phone", ["phone"])
    .index("by_role", ["role"])
    .index("by_username", ["username"])
    .index("by_suspendedAt", ["suspended.at"])
    .searchIndex("search_name", { searchField: "name", filterFields: ["role"] }),

  professionals: defineTable({
    userId: v.id("users"),
    specialty,
    city,
    state: v.string(),
    locations: v.array(place),
    documents: v.object({
      citizenshipFront: v.id("_storage"),
      citizenshipBack: v.id("_storage"),
      trainingCertificate: v.id("_storage"),
    }),
    verification: v.object({
      status: verificationStatus,
      by: v.optional(v.id("users")),
      at: v.optional(v.number()),
      note: v.optional(v.string()),
      resubmittedAt: v.optional(v.number()), // the professional replaced documents since the last decision
    }),
    rating: v.object({ sum: v.number(), count: v.number() }),
    available: v.boolean(),
    /** Since when too many no-shows keep customers from booking them, until an admin reviews (rules/noShow.ts). */
    noShowHold: v.optional(v.number()),
    /** Minutes after midnight, Kathmandu time (rules/schedule.ts DEFAULT_WORKING_HOURS when absent). */
    workingHours: v.optional(workingHours),
    /**
     * model/professionals.ts searchRankOf: search's order as one number, kept by updateProfessional.
     * Optional only for profiles written before it existed (search ranks those itself).
     */
    searchRank: v.optional(v.number()),
  })
    .index("by_userId", ["userId"])
    // the admin grid lists a specialty's professionals newest first: this index's _creationTime order
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_specialty_and_city", ["specialty", "city"])
    .index("by_specialty_and_city_and_searchRank", ["specialty", "city", "searchRank"])
    .index("by_city", ["city"])
    .index("by_verification", ["verification.status"]),

  /** Frequent position writes live apart from profiles so they re-run only map queries. */
  liveLocations: defineTable({
    professionalId: v.id("professionals"),
    city,
    specialty,
    lng: v.number(),
    lat: v.number(),
    accuracy: v.optional(v.number()),
    updatedAt: v.number(),
    /**
     * The marker row's name and listing (model/mapMarkers.ts), so locations:current and the HTTP
     * markers read one row per marker. Absent only on rows written before they were copied here: such
     * a row is off the map until its professional's next position write.
     */
    name: v.optional(v.string()),
    listed: v.optional(v.boolean()),
  })
    .index("by_professionalId", ["professionalId"])
    .index("by_city_and_updatedAt", ["city", "updatedAt"])
    // the search page's map asks for one specialty (in one city); filtering a city's newest rows would miss some
    .index("by_specialty_and_city_and_updatedAt", ["specialty", "city", "updatedAt"])
    .index("by_updatedAt", ["updatedAt"])
    .index("by_listed_and_city", ["listed", "city"])
    .index("by_listed_and_specialty_and_city", ["listed", "specialty", "city"]),

  /**
   * model/mapMarkers.ts: what a live professional's map marker shows, one row per `liveLocations` row,
   * denormalised from `professionals` and `users` by every writer of those fields. No position: it
   * changes on join, leave and profile edits only, so the map's list of markers (locations:onMap) is
   * not re-run by position writes; each marker's position is its own query (locations:marker).
   */
  mapMarkers: defineTable({
    professionalId: v.id("professionals"),
    city,
    specialty,
    name: v.string(),
    /** Shown to everyone: verified, available and not suspended (admins see the rest over HTTP). */
    listed: v.boolean(),
  })
    .index("by_professionalId", ["professionalId"])
    .index("by_listed_and_city", ["listed", "city"])
    .index("by_listed_and_specialty_and_city", ["listed", "specialty", "city"]),

  serviceCategories: defineTable({
    slug: v.string(),
    name: v.string(),
    description: v.string(),
    cities: v.array(city),
    order: v.number(),
  }).index("by_slug", ["slug"]),

  services: defineTable({
    category: v.string(), // serviceCategories.slug
    name: v.string(),
    description: v.string(),
    serviceWarranty: v.string(),
    availableCities: v.array(v.object({ name: city, price: v.number() })),
    totalBookings: v.number(),
    /** The admin's job length in minutes; absent: the category's (rules/schedule.ts). */
    jobMinutes: v.optional(v.number()),
  }).index("by_category_and_name", ["category", "name"]),

  bookings: defineTable({
    customerId: v.id("users"),
    professionalId: v.id("professionals"),
    professionalUserId: v.id("users"),
    services: v.array(
      v.object({ id: v.id("services"), name: v.string(), category: v.string(), price: v.number() }),
    ),
    address: v.string(),
    /** Where the job is on the map; shown to the professional only while the booking is active. */
    pin: v.optional(pin),
    city,
    scheduledFor: v.number(),
    /** How long the job occupies the professional (rules/schedule.ts jobMinutesOf); absent on old bookings. */
    jobMinutes: v.optional(v.number()),
    note: v.optional(v.string()),
    price: v.number(),
    status: bookingStatus,
    cancelReason: v.optional(v.string()),
    cancelledBy: v.optional(v.union(v.literal("customer"), v.literal("professional"))),
    /** When the professional accepted and marked the work done (how long the job took). */
    acceptedAt: v.optional(v.number()),
    workDoneAt: v.optional(v.number()),
    /** Who said a completed job is done (rules/bookingLifecycle.ts COMPLETION), and when. */
    confirmedBy: v.optional(v.union(v.literal("customer"), v.literal("system"))),
    confirmedAt: v.optional(v.number()),
    updatedAt: v.number(),
  })
    // My Bookings lists newest first, which needs this index's _creationTime order
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_customerId", ["customerId"])
    // a customer's open requests (model/bookings.ts limits)
    .index("by_customerId_and_status", ["customerId", "status"])
    // the professional's work queue, newest first (_creationTime order)
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_professionalId", ["professionalId"])
    .index("by_professionalId_and_status", ["professionalId", "status"])
    // the professional's jobs around a time: free slots and clashes (model/slots.ts)
    .index("by_professionalId_and_scheduledFor", ["professionalId", "scheduledFor"])
    .index("by_status", ["status"])
    // the admin's bookings view filtered by city, newest first (_creationTime order)
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_city", ["city"])
    .index("by_city_and_status", ["city", "status"]),

  bookingEvents: defineTable({
    bookingId: v.id("bookings"),
    professionalId: v.id("professionals"),
    actorId: v.optional(v.id("users")), // absent when the system acted (expiry)
    from: v.optional(bookingStatus),
    to: bookingStatus,
    reason: v.optional(v.string()),
  })
    .index("by_bookingId", ["bookingId"])
    .index("by_professionalId", ["professionalId"]),

  /**
   * The start code of an arrived booking (rules/startCode.ts): shown to its customer only, apart from
   * the booking so no view of the booking can carry it by accident. Deleted once the job starts.
   */
  /**
   * A professional's missed visit (rules/noShow.ts): made when a customer marks a no-show; strikes
   * within the window put the professional on hold. An admin's review clears them (`clearedAt`).
   */
  noShowStrikes: defineTable({
    professionalId: v.id("professionals"),
    bookingId: v.id("bookings"),
    /** Absent for a no-show; a professional's late cancellation (rules/cancellation.ts). */
    kind: v.optional(v.literal("late_cancel")),
    clearedAt: v.optional(v.number()),
  }).index("by_professionalId", ["professionalId"]),

  /** A customer's proposals to move a booking and the professional's answers (rules/reschedule.ts). */
  reschedules: defineTable({
    bookingId: v.id("bookings"),
    customerId: v.id("users"),
    professionalId: v.id("professionals"),
    from: v.number(),
    to: v.number(),
    status: rescheduleStatus,
    answeredAt: v.optional(v.number()),
    reason: v.optional(v.string()),
  }).index("by_bookingId", ["bookingId"]),

  startCodes: defineTable({
    bookingId: v.id("bookings"),
    code: v.string(),
    wrongTries: v.number(),
  }).index("by_bookingId", ["bookingId"]),

  notifications: defineTable({
    userId: v.id("users"),
    kind: v.string(),
    // English words for API clients and the record; the app words `kind` + `params` in the reader's language
    title: v.string(),
    body: v.string(),
    params: v.optional(v.record(v.string(), v.string())),
    bookingId: v.optional(v.id("bookings")),
    readAt: v.optional(v.number()),
  })
    // the newest-first list needs the _creationTime order; readAt serves the unread count
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_userId", ["userId"])
    .index("by_userId_and_readAt", ["userId", "readAt"]),

  reviews: defineTable({
    bookingId: v.id("bookings"),
    professionalId: v.id("professionals"),
    customerId: v.id("users"),
    rating: v.number(),
    comment: v.optional(v.string()),
    /** The professional's one answer (model/reviews.ts reply). */
    reply: v.optional(v.object({ text: v.string(), at: v.number() })),
    /**
     * Set on a review of an implausibly fast job (rules/bookingLifecycle.ts COMPLETION): not in the
     * rating nor the public list until an admin publishes it (deleting the field) or removes it.
     */
    held: v.optional(v.literal(true)),
  })
    .index("by_bookingId", ["bookingId"])
    .index("by_professionalId", ["professionalId"])
    .index("by_held", ["held"])
    // the landing page's testimonials: the newest five-star reviews
    .index("by_rating", ["rating"]),

  /** What admins did with held reviews: removed or published, by whom, why (the review as it was). */
  reviewDecisions: defineTable({
    reviewId: v.id("reviews"),
    bookingId: v.id("bookings"),
    professionalId: v.id("professionals"),
    customerId: v.id("users"),
    adminId: v.id("users"),
    decision: v.union(v.literal("removed"), v.literal("published")),
    rating: v.number(),
    comment: v.optional(v.string()),
  }).index("by_professionalId", ["professionalId"]),

  presence: defineTable({
    userId: v.id("users"),
    role,
    online: v.boolean(),
    lastSeen: v.number(),
  })
    .index("by_userId", ["userId"])
    .index("by_online", ["online"]),

  /**
   * Files attached to a profile (photo or document), each to at most one, and the user they belong to
   * (absent on rows attached before owners were recorded): a storage id seen in a URL cannot be
   * attached to a second account, so deleting an account deletes only its own files.
   */
  uploads: defineTable({
    storageId: v.id("_storage"),
    checked: v.boolean(),
    userId: v.optional(v.id("users")),
  }).index("by_storageId", ["storageId"]),

  /**
   * model/files.ts: upload URLs and the files sent to them, until attached. Each belongs to whoever
   * asked for the URL, a user or a visitor's sign-up draft; the URL carries `token` and stores one
   * file, whose `storageId` the row then holds.
   */
  uploadGrants: defineTable({
    token: v.optional(v.string()), // absent for files the server stored itself (HTTP registration)
    userId: v.optional(v.id("users")),
    draftId: v.optional(v.id("signUpDrafts")),
    expiresAt: v.number(), // of the URL
    storageId: v.optional(v.id("_storage")),
    bytes: v.optional(v.number()), // the stored file's size: unattached uploads have a quota
  })
    .index("by_token", ["token"])
    .index("by_storageId_and_expiresAt", ["storageId", "expiresAt"])
    .index("by_bytes", ["bytes"])
    .index("by_userId_and_bytes", ["userId", "bytes"])
    .index("by_draftId_and_bytes", ["draftId", "bytes"]),

  settings: defineTable({
    key: v.string(),
    value: v.union(v.string(), v.number()),
  }).index("by_key", ["key"]),

  contactMessages: defineTable({
    name: v.string(),
    email: v.string(),
    phone: v.optional(v.string()),
    message: v.string(),
    userId: v.optional(v.id("users")),
    handledAt: v.optional(v.number()),
  })
    // the admin inbox: unhandled ones (handledAt absent) newest first, and their count
    .index("by_handledAt", ["handledAt"]),

  /**
   * model/signUpDrafts.ts: a visitor's sign-up in progress, paid for with a proof of work; its
   * uploads and sign-up attempts are counted against it.
   */
  /** model/accountCodes.ts: one live one-time code per account and purpose, stored hashed. */
  accountCodes: defineTable({
    userId: v.id("users"),
    purpose: v.union(
      v.literal("reset"),
      v.literal("verifyEmail"),
      v.literal("verifyPhone"),
      v.literal("signIn"),
    ),
    codeHash: v.string(),
    expiresAt: v.number(),
    attemptsLeft: v.number(),
  }).index("by_userId_and_purpose", ["userId", "purpose"]),

  /**
   * model/adminSetup.ts: an admin's one-time setup link (npm run create-admin), stored as a SHA-256 of
   * its token; redeeming it deletes it. At most one per admin: a new link replaces the old.
   */
  adminSetupTokens: defineTable({
    userId: v.id("users"),
    tokenHash: v.string(),
    expiresAt: v.number(),
  })
    .index("by_tokenHash", ["tokenHash"])
    .index("by_userId", ["userId"]),

  /**
   * model/twoFactor.ts: an admin's authenticator. `secret` is sealed (model/twoFactorSecret.ts);
   * `enabledAt` is absent while setup waits for its first code; `lastStep` is the TOTP time step last
   * accepted (no replays); `recoveryCodes` are SHA-256 hashes of the unused ones.
   */
  twoFactor: defineTable({
    userId: v.id("users"),
    secret: v.string(),
    setupStartedAt: v.number(),
    enabledAt: v.optional(v.number()),
    lastStep: v.optional(v.number()),
    recoveryCodes: v.array(v.string()),
  }).index("by_userId", ["userId"]),

  /**
   * model/devices.ts: the browser behind each auth session, for the account's devices list. Kept apart
   * from `authSessions`, which every signed-in query reads: a "last seen" write there would re-run them.
   */
  sessionDevices: defineTable({
    sessionId: v.id("authSessions"),
    userId: v.id("users"),
    userAgent: v.string(), // at most rules/userAgent.ts USER_AGENT_MAX characters
    lastSeenAt: v.number(),
  })
    .index("by_sessionId", ["sessionId"])
    .index("by_userId", ["userId"]),

  signUpDrafts: defineTable({
    token: v.string(), // the secret the visitor holds and sends back
    stamp: v.optional(v.string()), // the proof of work that paid for it (absent: an HTTP registration's)
    expiresAt: v.number(),
    uploads: v.number(),
    signUps: v.number(),
    userId: v.optional(v.id("users")), // the account its sign-up created; the draft is spent
  })
    .index("by_token", ["token"])
    .index("by_stamp", ["stamp"])
    .index("by_expiresAt", ["expiresAt"]),

  /** model/push.ts: Web Push subscriptions, one per user and device (browser profile). */
  pushSubscriptions: defineTable({
    userId: v.id("users"),
    endpoint: v.string(), // the push service URL; unique per device
    p256dh: v.string(), // the browser's P-256 key and auth secret (base64url) that messages are encrypted to
    auth: v.string(),
    userAgent: v.string(), // a label for the device, e.g. "Chrome on Android"
    createdAt: v.number(),
    lastResult: v.optional(
      v.object({
        status: v.union(v.literal("sent"), v.literal("failed"), v.literal("retrying")),
        at: v.number(),
        httpStatus: v.optional(v.number()),
        reason: v.optional(v.string()),
      }),
    ),
  })
    .index("by_userId", ["userId"])
    .index("by_endpoint", ["endpoint"]),

  /** model/suspension.ts: every suspension and restoration of an account, by whom and why. */
  accountEvents: defineTable({
    userId: v.id("users"),
    adminId: v.id("users"),
    action: v.union(v.literal("suspended"), v.literal("restored")),
    reason: v.string(),
  }).index("by_userId", ["userId"]),

  /**
   * model/reports.ts: a party to a booking reports it, or the review on it; an admin resolves the
   * report with a note the reporter reads.
   */
  reports: defineTable({
    reporterId: v.id("users"),
    bookingId: v.id("bookings"),
    reviewId: v.optional(v.id("reviews")), // present when the review is reported
    messageId: v.optional(v.id("chatMessages")), // present when a message is reported
    upheld: v.optional(v.boolean()), // a reported message's sender was blocked from the conversation
    category: reportCategory,
    text: v.string(),
    status: reportStatus,
    resolution: v.optional(v.object({ by: v.id("users"), at: v.number(), note: v.string() })),
  })
    // the admin's queue newest first and its live count
    .index("by_status", ["status"])
    // one open report per reporter and target; the reporter's own list for a booking
    .index("by_reporterId_and_bookingId", ["reporterId", "bookingId"])
    // the admin's booking view lists the reports on it
    .index("by_bookingId", ["bookingId"]),

  /** model/chat.ts: the conversation of a booking, between its customer and its professional. */
  chatMessages: defineTable({
    bookingId: v.id("bookings"),
    senderId: v.id("users"),
    text: v.optional(v.string()),
    quickReply: v.optional(quickReply),
    photos: v.optional(v.array(v.id("_storage"))),
  })
    // newest first, paged backwards (_creationTime order)
    .index("by_bookingId", ["bookingId"])
    // the sender's data export
    .index("by_senderId", ["senderId"]),

  /** model/chat.ts: each side of a conversation: unread count, how far they read, alerts, a block. */
  chatMembers: defineTable({
    bookingId: v.id("bookings"),
    userId: v.id("users"),
    unread: v.number(),
    readUpTo: v.number(), // _creationTime of the newest message they have seen
    lastPushAt: v.optional(v.number()),
    /** A report on one of their messages was upheld: they may read, not write. */
    blocked: v.optional(v.boolean()),
  })
    .index("by_bookingId_and_userId", ["bookingId", "userId"])
    .index("by_userId_and_unread", ["userId", "unread"]),

  /** model/chat.ts: "typing…" — a row while someone types, removed shortly after the last keystroke. */
  chatTyping: defineTable({
    bookingId: v.id("bookings"),
    userId: v.id("users"),
    at: v.number(),
  }).index("by_bookingId_and_userId", ["bookingId", "userId"]),

  /** model/chat.ts: every time an admin read a conversation (both parties are shown the list). */
  chatAdminReads: defineTable({
    bookingId: v.id("bookings"),
    adminId: v.id("users"),
  }).index("by_bookingId_and_adminId", ["bookingId", "adminId"]),

  /** model/rateLimit.ts: calls counted in the current window, per limited action and caller. */
  rateLimits: defineTable({
    key: v.string(), // "<action>:<scope>:<actor>", e.g. "signUp:email:sita@example.np", "upload:everyone:"
    windowStart: v.number(),
    count: v.number(),
  }).index("by_key", ["key"]),

  /**
   * model/bill.ts: a booking's bill, one row per line in integer paisa. The booking's confirmed price
   * is its first lines; the professional adds site lines that count once the customer approves them.
   */
  billLines: defineTable({
    bookingId: v.id("bookings"),
    kind: lineKind,
    label: v.string(),
    amountPaisa: v.number(),
    status: lineStatus,
    reason: v.optional(v.string()),
    decidedAt: v.optional(v.number()),
  }).index("by_bookingId", ["bookingId"]),

  /**
   * model/ledger.ts: a booking's payment, at most one per booking and per gateway reference. A cash
   * payment carries the customer's answer to it.
   */
  payments: defineTable({
    bookingId: v.id("bookings"),
    customerId: v.id("users"),
    professionalId: v.id("professionals"),
    method: paymentMethod,
    reference: v.string(),
    amountPaisa: v.number(),
    cash: v.optional(
      v.object({
        state: cashState,
        decidedAt: v.optional(v.number()),
        reportId: v.optional(v.id("reports")),
        // the admin who settled a dispute (model/cashDisputes.ts)
        settledBy: v.optional(v.id("users")),
      }),
    ),
  })
    .index("by_bookingId", ["bookingId"])
    .index("by_method_and_reference", ["method", "reference"])
    // the admin's list of disputed cash
    .index("by_cashState", ["cash.state"]),

  /**
   * model/ledger.ts: immutable double-entry rows (rules/ledger.ts). Each transaction's entries share
   * `txId` and sum to zero; every balance is a sum of rows. Never patched, never deleted.
   */
  ledgerEntries: defineTable({
    txId: v.string(),
    kind: txKind,
    account: ledgerAccount,
    amountPaisa: v.number(),
    bookingId: v.optional(v.id("bookings")),
    customerId: v.optional(v.id("users")),
    professionalId: v.optional(v.id("professionals")),
    method: v.optional(v.union(paymentMethod, payoutMethod)),
    reference: v.optional(v.string()),
  })
    .index("by_txId", ["txId"])
    .index("by_bookingId", ["bookingId"])
    // the admin's revenue: one kind's rows in a time range (model/revenue.ts)
    .index("by_kind", ["kind"])
    // a professional's balance per account (model/ledger.ts), and per kind: their jobs and payouts,
    // one earning row each (model/earnings.ts)
    .index("by_professionalId_and_account_and_kind", ["professionalId", "account", "kind"]),

  /**
   * model/receipts.ts: the receipt of a paid booking (a wallet payment once recorded, cash once
   * confirmed), numbered in the order payments were made: one per payment.
   */
  receipts: defineTable({
    bookingId: v.id("bookings"),
    paymentId: v.id("payments"),
    number: v.number(),
  })
    .index("by_bookingId", ["bookingId"])
    .index("by_number", ["number"]),

  /**
   * model/refunds.ts: a cancelled paid booking's payment owed back to its customer, then refunded by
   * an admin with a reference. Its ledger transactions are `refund:<paymentId>` and `refunded:<id>`.
   */
  refunds: defineTable({
    bookingId: v.id("bookings"),
    paymentId: v.id("payments"),
    customerId: v.id("users"),
    professionalId: v.id("professionals"),
    method: paymentMethod,
    amountPaisa: v.number(),
    state: refundState,
    reference: v.optional(v.string()),
    refundedAt: v.optional(v.number()),
    adminId: v.optional(v.id("users")),
  })
    .index("by_bookingId", ["bookingId"])
    .index("by_state", ["state"]),

  /**
   * model/transfers.ts: a transfer an admin made to a professional; its ledger transaction is
   * `payout:<id>`. Never patched, never deleted.
   */
  payouts: defineTable({
    professionalId: v.id("professionals"),
    amountPaisa: v.number(),
    method: payoutMethod,
    reference: v.string(),
    adminId: v.id("users"),
  }),

  /**
   * model/transfers.ts: cash an admin received from a professional towards the commission they owe
   * on cash jobs; its ledger transaction is `settlement:<id>`. One per (method, reference): the same
   * reference again records nothing. Never patched, never deleted.
   */
  settlements: defineTable({
    professionalId: v.id("professionals"),
    amountPaisa: v.number(),
    method: payoutMethod,
    reference: v.string(),
    adminId: v.id("users"),
  }).index("by_method_and_reference", ["method", "reference"]),

  // a customer's trip to eSewa or Khalti to pay a booking's bill (model/wallets/attempts.ts)
  paymentAttempts: defineTable({
    bookingId: v.id("bookings"),
    customerId: v.id("users"),
    method: walletMethod,
    // this deployment's id of the payment: eSewa's transaction_uuid, Khalti's purchase_order_id
    reference: v.string(),
    // Khalti's id of the payment, from its initiate
    pidx: v.optional(v.string()),
    paymentUrl: v.optional(v.string()),
    amountPaisa: v.number(),
    state: attemptState,
    problem: v.optional(attemptProblem),
    // eSewa's ref_id, Khalti's transaction_id, once paid
    gatewayId: v.optional(v.string()),
    leftGateway: v.optional(v.boolean()),
    returnCheckAt: v.optional(v.number()),
    checks: v.number(),
    // the next scheduled re-check (model/wallets/attempts.ts startDueChecks), and its round
    nextCheckAt: v.optional(v.number()),
    round: v.optional(v.number()),
    updatedAt: v.number(),
  })
    .index("by_reference", ["reference"])
    .index("by_nextCheckAt", ["nextCheckAt"])
    .index("by_pidx", ["pidx"])
    .index("by_bookingId", ["bookingId"]),
  /**
   * model/dispatchSpots.ts: where each professional is for "nearest available now" — their live
   * position while they share one, else their home city — in a grid cell (model/geo.ts), so the
   * nearest bookable ones of a service are read cell by cell outwards from a pin.
   */
  dispatchSpots: defineTable({
    professionalId: v.id("professionals"),
    specialty,
    city,
    lat: v.number(),
    lng: v.number(),
    cell: v.string(),
    live: v.boolean(),
    /** Verified, available, not suspended (rules/bookability.ts). */
    eligible: v.boolean(),
  })
    .index("by_professionalId", ["professionalId"])
    .index("by_eligible_and_specialty_and_city_and_cell", [
      "eligible",
      "specialty",
      "city",
      "cell",
    ]),

  /** model/dispatch.ts: a customer's "nearest available now" request, until someone accepts it. */
  dispatchRequests: defineTable({
    customerId: v.id("users"),
    specialty,
    city,
    services: v.array(bookedService),
    /** In rupees, the visit charge included; `visitChargeNrs` is the bill's visit line. */
    price: v.number(),
    visitChargeNrs: v.number(),
    address: v.string(),
    pin,
    note: v.optional(v.string()),
    /** Not offered to this professional: the one who did not come (dispatch:redispatch). */
    skip: v.optional(v.id("professionals")),
    status: dispatchRequestStatus,
    /** The booking made when a professional accepted. */
    bookingId: v.optional(v.id("bookings")),
    /** The search ends unmatched at this time (settings: dispatchLimitMinutes). */
    deadline: v.number(),
    updatedAt: v.number(),
  })
    // the customer's requests, newest first (_creationTime order)
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_customerId", ["customerId"])
    .index("by_customerId_and_status", ["customerId", "status"]),

  /** model/dispatch.ts: a request offered to one professional; at most one per professional and request. */
  dispatchOffers: defineTable({
    requestId: v.id("dispatchRequests"),
    professionalId: v.id("professionals"),
    professionalUserId: v.id("users"),
    distanceMetres: v.number(),
    status: dispatchOfferStatus,
    expiresAt: v.number(),
    answeredAt: v.optional(v.number()),
  })
    .index("by_requestId", ["requestId"])
    // the professional's offers, newest first (_creationTime order)
    // eslint-disable-next-line @convex-dev/no-duplicate-indexes
    .index("by_professionalUserId", ["professionalUserId"])
    // a suspended professional's open offers (model/dispatch.ts leaveDispatch)
    .index("by_professionalUserId_and_status", ["professionalUserId", "status"]),
});
