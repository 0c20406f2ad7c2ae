// The outbox stand-in: the app's production senders (convex/model/delivery/senders.ts) deliver to it
// through Resend's and Sparrow SMS's documented APIs; its page lists messages newest first and its
// event stream pushes each new one as it arrives.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { send } from "../../convex/model/delivery/senders.ts";
import type { OutboxMessage } from "../stand-ins/outbox.ts";
import type { Backend } from "../server.ts";
import { closeTestBackends, startTestBackend } from "./helpers.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(closeTestBackends);

const messages = async () =>
  (await (await fetch(`${backend.siteUrl}/outbox/messages`)).json()) as OutboxMessage[];

/** Opens the outbox's event stream; resolves once its first event (every message so far) is read. */
async function openEvents(): Promise<{ next: () => Promise<OutboxMessage> }> {
  const response = await fetch(`${backend.siteUrl}/outbox/events`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const read = async (): Promise<string> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return event;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream ended");
      buffer += value;
    }
  };
  expect(await read()).toMatch(/^event: all\n/);
  return {
    async next() {
      const event = await read();
      await reader.cancel();
      expect(event).toMatch(/^event: message\n/);
      return JSON.parse(event.slice(event.indexOf("data: ") + 6)) as OutboxMessage;
    },
  };
}

describe("outbox stand-in", () => {
  test("an email sent with Resend's API is listed, newest first, and pushed live", async () => {
    const events = await openEvents();
    expect(
      await send({ channel: "email", to: "asha@example.np", subject: "Code", text: "123456" }),
    ).toEqual({ kind: "sent" });
    expect(
      await send({ channel: "sms", to: "9812345678", text: "Your GharSewa code: 654321" }),
    ).toEqual({ kind: "sent" });
    const [sms, email] = await messages();
    expect(sms).toMatchObject({ channel: "sms", to: ["9812345678"], from: "GharSewa" });
    expect(email).toMatchObject({
      channel: "email",
      to: ["asha@example.np"],
      subject: "Code",
      text: "123456",
    });
    expect(await events.next()).toMatchObject({ channel: "email", to: ["asha@example.np"] });
  });

  test("the gateways refuse what the real ones refuse", async () => {
    const resend = (headers: Record<string, string>, body: unknown) =>
      fetch(`${backend.siteUrl}/outbox/resend/emails`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const ok = { from: "a@b.np", to: "c@d.np", subject: "s", text: "t" };
    expect((await resend({}, ok)).status).toBe(401);
    expect((await resend({ Authorization: "Bearer wrong" }, ok)).status).toBe(403);
    const noSubject = await resend(
      { Authorization: "Bearer local-outbox" },
      { ...ok, subject: "" },
    );
    expect(noSubject.status).toBe(422);
    expect(await noSubject.json()).toMatchObject({ name: "missing_required_field" });

    const sparrow = (fields: Record<string, string>) =>
      fetch(`${backend.siteUrl}/outbox/sparrow/v2/sms/`, {
        method: "POST",
        body: new URLSearchParams(fields),
      });
    const sms = { token: "local-outbox", from: "GharSewa", to: "9812345678", text: "hi" };
    expect(await (await sparrow({ ...sms, token: "x" })).json()).toEqual({
      response_code: 1002,
      response: "Invalid Token",
    });
    expect((await (await sparrow({ ...sms, to: "12345" })).json()).response_code).toBe(1011);
    expect((await (await sparrow({ ...sms, text: "" })).json()).response_code).toBe(1010);
    const before = (await messages()).length;
    expect((await sparrow(sms)).status).toBe(200);
    expect((await messages()).length).toBe(before + 1);
  });

  test("the page is served with a script-limiting policy and lists messages as text", async () => {
    const page = await fetch(`${backend.siteUrl}/outbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('new EventSource("/outbox/events")');
    expect(html).not.toContain("innerHTML");
  });
});
