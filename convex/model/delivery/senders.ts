/**
 * Where codes and account notices go: an email through Resend's HTTP API, an SMS through Sparrow
 * SMS (a Nepali gateway), both configured by the deployment's environment:
 *
 * - `RESEND_API_KEY`, `EMAIL_FROM` (e.g. `GharSewa <no-reply@gharsewa.np>`), `EMAIL_API_URL`
 *   (default https://api.resend.com; POST {url}/emails)
 * - `SPARROW_SMS_TOKEN`, `SPARROW_SMS_FROM` (the sender identity Sparrow issued), `SMS_API_URL`
 *   (default https://api.sparrowsms.com/v2/sms/)
 *
 * The local backend points both URLs at its outbox stand-in (local-backend/stand-ins/outbox.ts).
 */
import { env } from "../../_generated/server";
import { gatewayUrl, post, type OutboundAnswer } from "./outbound";

export type Message =
  | { channel: "email"; to: string; subject: string; text: string }
  | { channel: "sms"; to: string; text: string };

/** What became of one send: sent, worth another try later, or never going to work as configured. */
export type SendOutcome = { kind: "sent" } | { kind: "retry" | "failed"; reason: string };

const DEFAULTS = {
  emailApiUrl: "https://api.resend.com",
  smsApiUrl: "https://api.sparrowsms.com/v2/sms/",
  emailFrom: "GharSewa <no-reply@gharsewa.np>",
};

function outcomeOf(answer: OutboundAnswer | null, gateway: string): SendOutcome {
  if (answer === null) return { kind: "retry", reason: `${gateway} could not be reached` };
  if (answer.status >= 200 && answer.status < 300) return { kind: "sent" };
  const reason = `${gateway} answered ${answer.status}: ${answer.body.slice(0, 200)}`;
  return answer.status === 429 || answer.status >= 500
    ? { kind: "retry", reason }
    : { kind: "failed", reason };
}

async function sendEmail(message: Extract<Message, { channel: "email" }>): Promise<SendOutcome> {
  const key = env.RESEND_API_KEY;
  const url = gatewayUrl(
    `${(env.EMAIL_API_URL || DEFAULTS.emailApiUrl).replace(/\/$/, "")}/emails`,
  );
  if (!key || url === null) return { kind: "failed", reason: "email is not configured" };
  const answer = await post(url, {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      from: env.EMAIL_FROM || DEFAULTS.emailFrom,
      to: [message.to],
      subject: message.subject,
      text: message.text,
    }),
  });
  return outcomeOf(answer, "Resend");
}

async function sendSms(message: Extract<Message, { channel: "sms" }>): Promise<SendOutcome> {
  const token = env.SPARROW_SMS_TOKEN;
  const from = env.SPARROW_SMS_FROM;
  const url = gatewayUrl(env.SMS_API_URL || DEFAULTS.smsApiUrl);
  if (!token || !from || url === null) return { kind: "failed", reason: "SMS is not configured" };
  const answer = await post(url, {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, from, to: message.to, text: message.text }).toString(),
  });
  return outcomeOf(answer, "Sparrow SMS");
}

export async function send(message: Message): Promise<SendOutcome> {
  return message.channel === "email" ? await sendEmail(message) : await sendSms(message);
}
