import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { internal } from "./_generated/api";
import { env } from "./_generated/server";
import { newTest } from "./test.setup";
import { OUTBOUND_LIMITS, isPrivateHost } from "./model/delivery/outbound";
import type { QueuedMessage } from "./model/delivery/queue";

const GATEWAYS = {
  RESEND_API_KEY: "re_test",
  EMAIL_FROM: "GharSewa <no-reply@gharsewa.np>",
  EMAIL_API_URL: "https://api.resend.com",
  SPARROW_SMS_TOKEN: "sparrow-token",
  SPARROW_SMS_FROM: "GharSewa",
  SMS_API_URL: "https://api.sparrowsms.com/v2/sms/",
};
const NAMES = [...Object.keys(GATEWAYS), "DELIVERY_ALLOW_LOOPBACK_HTTP"];
const saved = Object.fromEntries(NAMES.map((name) => [name, env[name]]));

beforeEach(() => {
  Object.assign(env, GATEWAYS);
  delete env.DELIVERY_ALLOW_LOOPBACK_HTTP;
});
afterEach(() => {
  // the functions read this same object: restore its entries, never replace it
  for (const name of NAMES) {
    if (saved[name] === undefined) delete env[name];
    else env[name] = saved[name];
  }
  vi.unstubAllGlobals();
});

const email = { channel: "email" as const, to: "sita@example.np", subject: "Code", text: "123456" };
const sms = { channel: "sms" as const, to: "9812345678", text: "Your code: 123456" };

async function sendWith(
  response: () => Response | Promise<Response>,
  message: QueuedMessage = email,
) {
  const fetch = vi.fn(async (_url: URL, _init: RequestInit) => await response());
  vi.stubGlobal("fetch", fetch);
  const t = newTest();
  await t.action(internal.delivery.send, { message, attempt: 1 });
  const retries = await t.run((ctx) => ctx.db.system.query("_scheduled_functions").collect());
  return { fetch, retries };
}

describe("delivery:send", () => {
  test("sends an email through Resend's API with the key, sender and text", async () => {
    const { fetch, retries } = await sendWith(() => Response.json({ id: "e1" }));
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe("https://api.resend.com/emails");
    expect(init.headers).toMatchObject({ Authorization: "Bearer re_test" });
    expect(JSON.parse(init.body as string)).toEqual({
      from: GATEWAYS.EMAIL_FROM,
      to: ["sita@example.np"],
      subject: "Code",
      text: "123456",
    });
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(retries).toHaveLength(0);
  });

  test("sends an SMS through Sparrow SMS as a form with token, sender, number and text", async () => {
    const { fetch } = await sendWith(
      () => Response.json({ count: 1, response_code: 200, response: "queued" }),
      sms,
    );
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe("https://api.sparrowsms.com/v2/sms/");
    expect(Object.fromEntries(new URLSearchParams(init.body as string))).toEqual({
      token: "sparrow-token",
      from: "GharSewa",
      to: "9812345678",
      text: "Your code: 123456",
    });
  });

  test("tries again later while the gateway answers 5xx or 429, not after a refusal", async () => {
    expect((await sendWith(() => new Response("busy", { status: 503 }))).retries).toHaveLength(1);
    expect((await sendWith(() => new Response("slow", { status: 429 }))).retries).toHaveLength(1);
    const refused = await sendWith(() => Response.json({ response_code: 1002 }, { status: 403 }));
    expect(refused.retries).toHaveLength(0);
  });

  test("a gateway that cannot be reached in time is tried again", async () => {
    const { retries } = await sendWith(() => Promise.reject(new DOMException("t", "TimeoutError")));
    expect(retries).toHaveLength(1);
  });

  test("reads at most the byte cap of a gateway's answer", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 4096;
        controller.enqueue(new Uint8Array(4096));
      },
    });
    await sendWith(() => new Response(endless, { status: 400 }));
    expect(pulled).toBeLessThanOrEqual(OUTBOUND_LIMITS.responseBytes + 3 * 4096);
  });

  test("never sends to a private address or over plain http", async () => {
    for (const url of ["https://10.0.0.7", "https://127.0.0.1:3211", "http://api.resend.com"]) {
      env.EMAIL_API_URL = url;
      const { fetch, retries } = await sendWith(() => Response.json({ id: "x" }));
      expect(fetch).not.toHaveBeenCalled();
      expect(retries).toHaveLength(0);
    }
  });

  test("the local backend's loopback outbox is allowed only when the deployment says so", async () => {
    env.EMAIL_API_URL = "http://127.0.0.1:3211/outbox/resend";
    expect((await sendWith(() => Response.json({ id: "x" }))).fetch).not.toHaveBeenCalled();
    env.DELIVERY_ALLOW_LOOPBACK_HTTP = "1";
    const { fetch } = await sendWith(() => Response.json({ id: "x" }));
    expect(String(fetch.mock.calls[0]![0])).toBe("http://127.0.0.1:3211/outbox/resend/emails");
  });

  test("an unconfigured gateway sends nothing", async () => {
    delete env.SPARROW_SMS_TOKEN;
    const { fetch } = await sendWith(() => Response.json({}), sms);
    expect(fetch).not.toHaveBeenCalled();
  });
});

test("private hosts are recognised", () => {
  for (const host of [
    "localhost",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "[::1]",
  ])
    expect(isPrivateHost(host)).toBe(true);
  for (const host of ["api.resend.com", "8.8.8.8", "172.32.0.1"])
    expect(isPrivateHost(host)).toBe(false);
});
