/**
 * Refunds, as the server and the web app both read them: a paid booking that is cancelled owes its
 * customer the payment back ("due"); an admin refunds it through the gateway's merchant portal (or
 * in cash) and records the reference ("refunded").
 */
export const REFUND_STATES = ["due", "refunded"] as const;
export type RefundState = (typeof REFUND_STATES)[number];
