/*
 * The one catalogue of server-created notifications, in both languages: the web app words a stored
 * notification from its `kind` + `params` in the reader's language (src/i18n/notifications.ts), and
 * the server words a phone alert in its recipient's `users.language` (model/push.ts) from the same
 * words. Plain values and a pure function, so both sides import it.
 */
import { CITIES, type Locale } from "../constants";
import { SERVICE_NAMES_NE } from "../localServiceNames";
import { formatAmount, formatPaisaAmount } from "./money";
import { kathmanduDateTimeText } from "./schedule";

const EN = {
  someone_customer: "The customer",
  someone_professional: "The professional",
  list_separator: ", ",
  money: "Nrs. {amount}",
  requested_title: "New booking request",
  requested_body: "{actor} requested {services} in {city}.",
  requested_body_generic: "A customer sent you a booking request.",
  accepted_title: "Booking accepted",
  accepted_body: "{actor} accepted your booking for {services}.",
  accepted_body_generic: "Your booking was accepted.",
  rejected_title: "Booking declined",
  rejected_body: "{actor} could not take your booking for {services}. Try another professional.",
  rejected_body_reason:
    "{actor} could not take your booking for {services} ({reason}). Try another professional.",
  rejected_body_generic: "Your booking was declined. Try another professional.",
  en_route_title: "Professional on the way",
  en_route_body: "{actor} is on the way for {services}. Track them live from My Bookings.",
  en_route_body_generic: "Your professional is on the way. Track them live from My Bookings.",
  arrived_title: "Professional arrived",
  arrived_body:
    "{actor} has arrived for {services}. Give them the start code shown on your booking in My Bookings.",
  arrived_body_generic:
    "Your professional has arrived. Give them the start code shown on your booking in My Bookings.",
  in_progress_title: "Job started",
  in_progress_body: "The job has started: {services}.",
  in_progress_body_generic: "The job has started.",
  completed_title: "Job completed",
  completed_body: "{actor} completed {services}. Total {price}. Please rate the job.",
  completed_body_generic: "The job is completed. Please rate it.",
  reviewed_title: "New review",
  reviewed_body: "{actor} rated your work on {services}.",
  reviewed_body_generic: "A customer rated your work.",
  cancelled_title: "Booking cancelled",
  cancelled_body: "{actor} cancelled the booking for {services}: {reason}",
  cancelled_body_generic: "A booking was cancelled.",
  expired_title: "Booking expired",
  expired_body: "The request for {services} was not answered in time and has expired.",
  expired_body_generic: "A booking request was not answered in time and has expired.",
  verified_title: "Your account is verified",
  verified_body: "An administrator checked your documents. Customers can now book you.",
  verification_rejected_title: "Your verification was rejected",
  verification_rejected_body: "An administrator could not verify your documents: {note}",
  verification_rejected_body_generic: "An administrator could not verify your documents.",
  document_rejected_body: "A document you uploaded could not be used: {note}",
  photo_rejected_title: "Profile photo removed",
  photo_rejected_body:
    "The photo you uploaded is not a JPEG, PNG, WebP or GIF image. Please upload another one.",
  push_accept: "Accept",
  push_view: "View",
  push_fallback: "Something changed in your bookings.",
  chat_title: "New message",
  chat_photo: "📷 Photo",
  someone_gharsewa: "GharSewa",
  reason_suspended: "The account of one party was suspended by GharSewa.",
  cash_recorded_title: "Confirm your cash payment",
  cash_recorded_body:
    "{actor} recorded {amount} received in cash. Confirm it, or tell us if it is wrong.",
  cash_confirmed_title: "Cash confirmed",
  cash_confirmed_body: "{actor} confirmed paying {amount} in cash.",
  cash_auto_confirmed_body:
    "The {amount} paid in cash was confirmed: nobody disputed it within 48 hours.",
  cash_disputed_title: "Cash disputed",
  cash_disputed_body:
    "{actor} disputes the {amount} in cash you recorded. GharSewa will look into it.",
  refund_due_title: "Your payment will be refunded",
  refund_due_body: "The booking was cancelled: GharSewa refunds the {amount} you paid.",
  refund_paid_title: "Refund sent",
  refund_paid_body: "GharSewa refunded the {amount} you paid (reference {reference}).",
  cash_settled_title: "Cash dispute settled",
  cash_settled_paid_body:
    "GharSewa settled the dispute: the {amount} in cash counts as paid. {reason}",
  cash_settled_waived_body:
    "GharSewa settled the dispute: the {amount} in cash is waived and nobody owes it. {reason}",
  cash_cancelled_title: "Did you pay in cash?",
  cash_cancelled_body:
    "The booking was cancelled. If you paid the {amount} in cash, confirm it and GharSewa refunds it; if you did not, say so.",
  cash_not_paid_title: "Cash not paid",
  cash_not_paid_body:
    "{actor} says the {amount} in cash was not paid before the booking was cancelled: nothing is owed.",
  payout_recorded_title: "Payout sent",
  payout_recorded_body: "GharSewa paid you {amount} ({method}, reference {reference}).",
  settlement_recorded_title: "Cash commission received",
  settlement_recorded_body:
    "GharSewa received {amount} of the commission you owed on cash jobs ({method}, reference {reference}).",
  method_bank: "bank transfer",
  method_esewa: "eSewa",
  method_khalti: "Khalti",
  method_cash: "cash",
  dispatch_offered_title: "Job nearby now",
  dispatch_offered_body:
    "{services} in {city}, {km} km away. Answer within {seconds} seconds on your dashboard.",
  dispatch_unmatched_title: "No professional free right now",
  dispatch_unmatched_body:
    "Nobody could take {services} now. Choose a professional and a time instead.",
  reschedule_proposed_title: "New time proposed",
  reschedule_proposed_body:
    "{actor} asks to move {services} from {from} to {to} (Nepal time). Accept or decline it on your dashboard.",
  reschedule_accepted_title: "New time accepted",
  reschedule_accepted_body: "{actor} accepted the new time for {services}: {to} (Nepal time).",
  reschedule_declined_title: "New time declined",
  reschedule_declined_body:
    "{actor} cannot come at {to}: {services} stays booked for {from} (Nepal time).",
  reschedule_withdrawn_title: "New time withdrawn",
  reschedule_withdrawn_body:
    "{actor} no longer asks to move {services} to {to}: it stays booked for {from} (Nepal time).",
  reschedule_lapsed_title: "New time not answered",
  reschedule_lapsed_body:
    "Your request to move {services} to {to} lapsed without an answer: it stays booked for {from} (Nepal time).",
};

export type NoticeKey = keyof typeof EN;

/** Every notification's words per language; a key missing in one language fails the typecheck. */
export const NOTICE_WORDS: Record<Locale, Record<NoticeKey, string>> = {
  en: EN,
  "ne-NP": {
    someone_customer: "ग्राहक",
    someone_professional: "पेशेवर",
    list_separator: ", ",
    money: "रु. {amount}",
    requested_title: "नयाँ बुकिङ अनुरोध",
    requested_body: "{actor}ले {city}मा {services} को अनुरोध गर्नुभयो।",
    requested_body_generic: "एक ग्राहकले तपाईंलाई बुकिङ अनुरोध पठाउनुभयो।",
    accepted_title: "बुकिङ स्वीकार भयो",
    accepted_body: "{actor}ले तपाईंको {services} को बुकिङ स्वीकार गर्नुभयो।",
    accepted_body_generic: "तपाईंको बुकिङ स्वीकार भयो।",
    rejected_title: "बुकिङ अस्वीकार भयो",
    rejected_body: "{actor}ले तपाईंको {services} को बुकिङ लिन सक्नुभएन। अर्को पेशेवर खोज्नुहोस्।",
    rejected_body_reason:
      "{actor}ले तपाईंको {services} को बुकिङ लिन सक्नुभएन ({reason})। अर्को पेशेवर खोज्नुहोस्।",
    rejected_body_generic: "तपाईंको बुकिङ अस्वीकार भयो। अर्को पेशेवर खोज्नुहोस्।",
    en_route_title: "पेशेवर आउँदै हुनुहुन्छ",
    en_route_body: "{actor} {services} का लागि आउँदै हुनुहुन्छ। मेरा बुकिङहरूमा उहाँको स्थान लाइभ हेर्नुहोस्।",
    en_route_body_generic: "तपाईंको पेशेवर आउँदै हुनुहुन्छ। मेरा बुकिङहरूमा उहाँको स्थान लाइभ हेर्नुहोस्।",
    arrived_title: "पेशेवर आइपुग्नुभयो",
    arrived_body:
      "{actor} {services} का लागि आइपुग्नुभयो। मेरा बुकिङहरूमा तपाईंको बुकिङमा देखिएको सुरु कोड उहाँलाई दिनुहोस्।",
    arrived_body_generic:
      "तपाईंको पेशेवर आइपुग्नुभयो। मेरा बुकिङहरूमा तपाईंको बुकिङमा देखिएको सुरु कोड उहाँलाई दिनुहोस्।",
    in_progress_title: "काम सुरु भयो",
    in_progress_body: "काम सुरु भयो: {services}।",
    in_progress_body_generic: "काम सुरु भयो।",
    completed_title: "काम सकियो",
    completed_body: "{actor}ले {services} पूरा गर्नुभयो। जम्मा {price}। कृपया कामको मूल्याङ्कन गर्नुहोस्।",
    completed_body_generic: "काम सकियो। कृपया मूल्याङ्कन गर्नुहोस्।",
    reviewed_title: "नयाँ समीक्षा",
    reviewed_body: "{actor}ले तपाईंको {services} को कामको मूल्याङ्कन गर्नुभयो।",
    reviewed_body_generic: "एक ग्राहकले तपाईंको कामको मूल्याङ्कन गर्नुभयो।",
    cancelled_title: "बुकिङ रद्द भयो",
    cancelled_body: "{actor}ले {services} को बुकिङ रद्द गर्नुभयो: {reason}",
    cancelled_body_generic: "एउटा बुकिङ रद्द भयो।",
    expired_title: "बुकिङको समय सकियो",
    expired_body: "{services} को अनुरोधको समयमै जवाफ नआएकाले यसको समय सकियो।",
    expired_body_generic: "एउटा बुकिङ अनुरोधको समयमै जवाफ नआएकाले यसको समय सकियो।",
    verified_title: "तपाईंको खाता प्रमाणित भयो",
    verified_body: "प्रशासकले तपाईंका कागजात जाँच गर्नुभयो। अब ग्राहकहरूले तपाईंलाई बुक गर्न सक्छन्।",
    verification_rejected_title: "तपाईंको प्रमाणीकरण अस्वीकार भयो",
    verification_rejected_body: "प्रशासकले तपाईंका कागजात प्रमाणित गर्न सक्नुभएन: {note}",
    verification_rejected_body_generic: "प्रशासकले तपाईंका कागजात प्रमाणित गर्न सक्नुभएन।",
    document_rejected_body: "तपाईंले अपलोड गरेको एउटा कागजात प्रयोग गर्न मिलेन: {note}",
    photo_rejected_title: "प्रोफाइल फोटो हटाइयो",
    photo_rejected_body:
      "तपाईंले अपलोड गरेको फोटो JPEG, PNG, WebP वा GIF होइन। कृपया अर्को फोटो अपलोड गर्नुहोस्।",
    push_accept: "स्वीकार गर्नुहोस्",
    push_view: "हेर्नुहोस्",
    push_fallback: "तपाईंका बुकिङमा केही परिवर्तन भयो।",
    chat_title: "नयाँ सन्देश",
    chat_photo: "📷 फोटो",
    someone_gharsewa: "घर सेवा",
    reason_suspended: "घर सेवाले एक पक्षको खाता निलम्बन गरेको छ।",
    cash_recorded_title: "तपाईंको नगद भुक्तानी पुष्टि गर्नुहोस्",
    cash_recorded_body:
      "{actor}ले {amount} नगद पाएको लेख्नुभयो। पुष्टि गर्नुहोस्, वा गलत भए हामीलाई भन्नुहोस्।",
    cash_confirmed_title: "नगद पुष्टि भयो",
    cash_confirmed_body: "{actor}ले {amount} नगद तिरेको पुष्टि गर्नुभयो।",
    cash_auto_confirmed_body: "नगदमा तिरेको {amount} पुष्टि भयो: ४८ घण्टाभित्र कसैले विवाद गरेन।",
    cash_disputed_title: "नगदमा विवाद",
    cash_disputed_body:
      "तपाईंले लेख्नुभएको {amount} नगदमा {actor}ले विवाद गर्नुभयो। घर सेवाले यसको छानबिन गर्नेछ।",
    refund_due_title: "तपाईंको भुक्तानी फिर्ता हुनेछ",
    refund_due_body: "बुकिङ रद्द भयो: तपाईंले तिर्नुभएको {amount} घर सेवाले फिर्ता गर्छ।",
    refund_paid_title: "रकम फिर्ता पठाइयो",
    refund_paid_body: "तपाईंले तिर्नुभएको {amount} घर सेवाले फिर्ता गर्‍यो (सन्दर्भ {reference})।",
    cash_settled_title: "नगदको विवाद टुङ्गियो",
    cash_settled_paid_body: "घर सेवाले विवाद टुङ्ग्यायो: {amount} नगद तिरेको मानियो। {reason}",
    cash_settled_waived_body:
      "घर सेवाले विवाद टुङ्ग्यायो: {amount} नगद मिनाहा गरियो, कसैले तिर्नु पर्दैन। {reason}",
    cash_cancelled_title: "के तपाईंले नगद तिर्नुभयो?",
    cash_cancelled_body:
      "बुकिङ रद्द भयो। तपाईंले {amount} नगद तिर्नुभएको भए पुष्टि गर्नुहोस्, घर सेवाले फिर्ता गर्छ; तिर्नुभएको छैन भने त्यसै भन्नुहोस्।",
    payout_recorded_title: "भुक्तानी पठाइयो",
    payout_recorded_body: "घर सेवाले तपाईंलाई {amount} तिर्‍यो ({method}, सन्दर्भ {reference})।",
    settlement_recorded_title: "नगद कमिसन प्राप्त भयो",
    settlement_recorded_body:
      "नगद कामको तपाईंले तिर्नुपर्ने कमिसनमध्ये {amount} घर सेवाले प्राप्त गर्‍यो ({method}, सन्दर्भ {reference})।",
    method_bank: "बैंक ट्रान्सफर",
    method_esewa: "इसेवा",
    method_khalti: "खल्ती",
    method_cash: "नगद",
    cash_not_paid_title: "नगद तिरिएन",
    cash_not_paid_body:
      "{actor}ले बुकिङ रद्द हुनुअघि {amount} नगद तिरिएको थिएन भन्नुभयो: कसैले केही तिर्नु पर्दैन।",
    dispatch_offered_title: "नजिकै अहिले काम",
    dispatch_offered_body:
      "{city}मा {services}, {km} किमी टाढा। ड्यासबोर्डमा {seconds} सेकेन्डभित्र जवाफ दिनुहोस्।",
    dispatch_unmatched_title: "अहिले कुनै पेशेवर खाली छैनन्",
    dispatch_unmatched_body: "अहिले {services} कसैले लिन सकेनन्। बरु पेशेवर र समय रोज्नुहोस्।",
    reschedule_proposed_title: "नयाँ समय प्रस्ताव",
    reschedule_proposed_body:
      "{actor}ले {services} {from} बाट {to} मा सार्न अनुरोध गर्नुभयो (नेपाली समय)। ड्यासबोर्डमा स्वीकार वा अस्वीकार गर्नुहोस्।",
    reschedule_accepted_title: "नयाँ समय स्वीकार भयो",
    reschedule_accepted_body: "{actor}ले {services} को नयाँ समय स्वीकार गर्नुभयो: {to} (नेपाली समय)।",
    reschedule_declined_title: "नयाँ समय अस्वीकार भयो",
    reschedule_declined_body:
      "{actor} {to} मा आउन सक्नुहुन्न: {services} को बुकिङ {from} (नेपाली समय) मै रहन्छ।",
    reschedule_withdrawn_title: "नयाँ समय फिर्ता लिइयो",
    reschedule_withdrawn_body:
      "{actor}ले {services} {to} मा सार्ने अनुरोध फिर्ता लिनुभयो: बुकिङ {from} (नेपाली समय) मै रहन्छ।",
    reschedule_lapsed_title: "नयाँ समयको जवाफ आएन",
    reschedule_lapsed_body:
      "{services} {to} मा सार्ने तपाईंको अनुरोधको जवाफ नआई म्याद सकियो: बुकिङ {from} (नेपाली समय) मै रहन्छ।",
  },
};

/** The reason stored on bookings a suspension cancels (model/suspension.ts); read with reasonText. */
export const SUSPENSION_REASON = EN.reason_suspended;

/** A stored reason in `locale`: the system's own reasons are translated, people's words kept. */
export function reasonText(locale: Locale, reason: string): string {
  return reason === SUSPENSION_REASON ? noticeWords(locale).reason_suspended : reason;
}

/** The words this catalogue has for `locale` (English for a language it does not know). */
export function noticeWords(locale: string): Record<NoticeKey, string> {
  return NOTICE_WORDS[locale as Locale] ?? EN;
}

/** A notification as stored: `kind` and `params` from the server, English `title`/`body` as kept. */
export type StoredNotice = {
  kind: string;
  title: string;
  body: string;
  params?: Record<string, string> | null;
};

const DEVANAGARI_DIGITS = "०१२३४५६७८९";

/**
 * A server-created notification worded in `locale` from its kind and parameters. Rows stored before
 * parameters existed get the kind's general wording; a kind this catalogue does not know keeps the
 * stored text.
 */
export function noticeText(locale: Locale, n: StoredNotice): { title: string; body: string } {
  const words = NOTICE_WORDS[locale];
  const say = (key: NoticeKey, values: Record<string, string> = {}) =>
    words[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "");
  const nepali = locale === "ne-NP";
  const p = n.params;
  const actor = !p
    ? ""
    : p.actorRole === "admin"
      ? say("someone_gharsewa")
      : p.actor || say(p.actorRole === "customer" ? "someone_customer" : "someone_professional");
  const services = p?.services
    ? p.services
        .split("\n")
        .map((s) => (nepali ? (SERVICE_NAMES_NE[s] ?? s) : s))
        .join(words.list_separator)
    : "";
  const city = () => {
    const key = (p?.city ?? "").toLowerCase();
    const found = CITIES.find((c) => c.slug === key || c.name.toLowerCase() === key);
    return found ? (nepali ? found.nameNe : found.name) : (p?.city ?? "");
  };
  const digits = (text: string) =>
    nepali ? text.replace(/\d/g, (d) => DEVANAGARI_DIGITS[Number(d)]) : text;
  const price = () => say("money", { amount: digits(formatAmount(Number(p?.price ?? 0))) });
  // an amount in paisa (the bill's notices), "Nrs. 1,100.50"
  const amount = () => say("money", { amount: digits(formatPaisaAmount(Number(p?.amount ?? 0))) });
  const both = (title: NoticeKey, body: string) => ({ title: say(title), body });
  switch (n.kind) {
    case "booking.requested":
      return both(
        "requested_title",
        p
          ? say("requested_body", { actor, services, city: city() })
          : say("requested_body_generic"),
      );
    case "booking.accepted":
      return both(
        "accepted_title",
        p ? say("accepted_body", { actor, services }) : say("accepted_body_generic"),
      );
    case "booking.rejected":
      return both(
        "rejected_title",
        !p
          ? say("rejected_body_generic")
          : p.reason
            ? say("rejected_body_reason", { actor, services, reason: p.reason })
            : say("rejected_body", { actor, services }),
      );
    case "booking.en_route":
      return both(
        "en_route_title",
        p ? say("en_route_body", { actor, services }) : say("en_route_body_generic"),
      );
    case "booking.arrived":
      return both(
        "arrived_title",
        p ? say("arrived_body", { actor, services }) : say("arrived_body_generic"),
      );
    case "booking.in_progress":
      return both(
        "in_progress_title",
        p ? say("in_progress_body", { services }) : say("in_progress_body_generic"),
      );
    case "booking.completed":
      return both(
        "completed_title",
        p
          ? say("completed_body", { actor, services, price: price() })
          : say("completed_body_generic"),
      );
    case "booking.reviewed":
      return both(
        "reviewed_title",
        p ? say("reviewed_body", { actor, services }) : say("reviewed_body_generic"),
      );
    case "booking.cancelled":
      return both(
        "cancelled_title",
        p
          ? say("cancelled_body", { actor, services, reason: reasonText(locale, p.reason ?? "") })
          : say("cancelled_body_generic"),
      );
    case "booking.expired":
      return both(
        "expired_title",
        p ? say("expired_body", { services }) : say("expired_body_generic"),
      );
    case "verification.verified":
      return both("verified_title", say("verified_body"));
    case "verification.rejected":
      return both(
        "verification_rejected_title",
        !p?.note
          ? say("verification_rejected_body_generic")
          : p.cause === "document"
            ? say("document_rejected_body", { note: p.note })
            : say("verification_rejected_body", { note: p.note }),
      );
    case "dispatch.offered":
      return both(
        "dispatch_offered_title",
        say("dispatch_offered_body", {
          services,
          city: city(),
          km: digits(p?.km ?? ""),
          seconds: digits(p?.seconds ?? ""),
        }),
      );
    case "reschedule.proposed":
    case "reschedule.accepted":
    case "reschedule.declined":
    case "reschedule.withdrawn":
    case "reschedule.lapsed": {
      const step = n.kind.slice("reschedule.".length) as
        "proposed" | "accepted" | "declined" | "withdrawn" | "lapsed";
      const when = (ms: string | undefined) => digits(kathmanduDateTimeText(Number(ms ?? 0)));
      return both(
        `reschedule_${step}_title`,
        say(`reschedule_${step}_body`, { actor, services, from: when(p?.from), to: when(p?.to) }),
      );
    }
    case "dispatch.unmatched":
      return both("dispatch_unmatched_title", say("dispatch_unmatched_body", { services }));
    case "account.photo_rejected":
      return both("photo_rejected_title", say("photo_rejected_body"));
    case "cash.recorded":
      return both("cash_recorded_title", say("cash_recorded_body", { actor, amount: amount() }));
    case "cash.confirmed":
      return both("cash_confirmed_title", say("cash_confirmed_body", { actor, amount: amount() }));
    case "cash.auto_confirmed":
      return both("cash_confirmed_title", say("cash_auto_confirmed_body", { amount: amount() }));
    case "cash.disputed":
      return both("cash_disputed_title", say("cash_disputed_body", { actor, amount: amount() }));
    case "cash.cancelled":
      return both("cash_cancelled_title", say("cash_cancelled_body", { amount: amount() }));
    case "cash.not_paid":
      return both("cash_not_paid_title", say("cash_not_paid_body", { actor, amount: amount() }));
    case "payout.recorded":
    case "settlement.recorded": {
      const method = p?.method ?? "";
      const key = n.kind === "payout.recorded" ? "payout_recorded" : "settlement_recorded";
      return both(
        `${key}_title`,
        say(`${key}_body`, {
          amount: amount(),
          method: ["bank", "esewa", "khalti", "cash"].includes(method)
            ? say(`method_${method}` as NoticeKey)
            : method,
          reference: p?.reference ?? "",
        }),
      );
    }
    case "refund.due":
      return both("refund_due_title", say("refund_due_body", { amount: amount() }));
    case "refund.paid":
      return both(
        "refund_paid_title",
        say("refund_paid_body", { amount: amount(), reference: p?.reference ?? "" }),
      );
    case "cash.settled":
      return both(
        "cash_settled_title",
        say(p?.outcome === "waived" ? "cash_settled_waived_body" : "cash_settled_paid_body", {
          amount: amount(),
          reason: p?.reason ?? "",
        }),
      );
    default:
      return { title: n.title, body: n.body };
  }
}
