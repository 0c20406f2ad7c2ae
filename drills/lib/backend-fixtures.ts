/**
 * The access drill's cast on a started backend (hostile-backend.ts `startCli`, as `npm start` runs
 * it), made through the app's own paths only: customers A and B and professionals P and Q sign up
 * (a proof-of-work draft, their uploads, `auth:signIn`), the seeded admin verifies P and Q, A books P
 * (accepted: active, with a proposal to move it), B books Q (completed, reviewed and reported), a
 * fifth account pays P for a job the admin's suspension of it cancels (a refund), P turns on alerts,
 * shares a position and is offered A's "nearest now" request. The admin sets up two-factor first.
 *
 * Canaries (canaries.ts) are what they typed into private fields — homes, phones, emails, booking
 * addresses and notes, P's push subscription, P's exact position — and the ids of P's and Q's
 * documents, sessions and refresh tokens, with who may see each.
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { Secret, TOTP } from "otpauth/slim";
import { solveStamp } from "../../convex/rules/signUpWork";
import type { DrillRole } from "../access-table";
import { PNG } from "./app-backend.ts";
import { canaryPhone, canaryText, type Canary, type Viewer } from "./canaries";
import { DataDirReader } from "./data-dir";
import { smsTo } from "../../local-backend/stand-ins/outbox-reader.ts";

export type SignedInRole = Exclude<DrillRole, "visitor">;
type Tokens = { token: string; refreshToken: string };

const query = (name: string) => makeFunctionReference<"query">(name);
const mutation = (name: string) => makeFunctionReference<"mutation">(name);
const action = (name: string) => makeFunctionReference<"action">(name);

/** Exact positions with digits nothing else has; the public map rounds them away. */
const P_POSITION = { latitude: 27.7031337, longitude: 85.3131337 };

export type BackendCast = Awaited<ReturnType<typeof buildBackendCast>>;

export async function buildBackendCast(backend: {
  url: string;
  /** The HTTP actions' origin, where the wallet stand-ins are served too. */
  siteUrl: string;
  dataDir: string;
  admin: { username: string; password: string };
  /** Where P's phone is subscribed: a push service that takes every message (push-stub.ts). */
  pushService: string;
}) {
  const { url } = backend;
  const client = (token?: string) => {
    const c = new ConvexHttpClient(url, { logger: false });
    if (token !== undefined) c.setAuth(token);
    return c;
  };
  const visitor = client();
  const canaries: Canary[] = [];
  const plant = (value: string, label: string, users: string[], admins = true) => {
    canaries.push({ value, label, users, admins });
    return value;
  };

  const upload = async (uploadUrl: string) => {
    const bytes = new Uint8Array([...PNG, ...new TextEncoder().encode(canaryText("file"))]);
    const res = await fetch(uploadUrl, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: bytes,
    });
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { storageId: string }).storageId;
  };

  type Account = Tokens & {
    userId: string;
    email: string;
    home: { address: string; zipCode: string; phone: string };
    documents: string[];
  };
  /** A sign-up as the app makes it, with canaries for a home and (professionals) documents. */
  const signUp = async (role: SignedInRole, professional: boolean): Promise<Account> => {
    const { draft } = (await visitor.mutation(mutation("signUpDrafts:create"), {
      stamp: await solveStamp(),
    })) as { draft: string };
    const documents: Record<string, string> = {};
    if (professional)
      for (const kind of ["citizenshipFront", "citizenshipBack", "trainingCertificate"])
        documents[kind] = await upload(
          (await visitor.mutation(mutation("files:generateUploadUrl"), { draft })) as string,
        );
    const email = `${canaryText(`${role.toLowerCase()}-mail`)}@example.np`;
    const home = {
      address: canaryText(`${role}-home`),
      // a zip code is 3-10 letters and digits: "Z" and 8 hex digits (ids are lowercase)
      zipCode: `Z${canaryText("zip").slice(-8)}`,
      phone: canaryPhone(),
    };
    const result = (await visitor.action(action("auth:signIn"), {
      provider: professional ? "professional" : "customer",
      params: {
        flow: "signUp",
        draft,
        email,
        password: "correct horse",
        name: `Drill ${role}`,
        ...home,
        ...(professional
          ? { specialty: "Electrician", city: "Kathmandu", state: "Bagmati", ...documents }
          : {}),
      },
    })) as { tokens?: Tokens | null };
    if (!result.tokens) throw new Error(`sign-up of ${role} gave no tokens`);
    const me = (await client(result.tokens.token).query(query("users:viewer"), {})) as {
      _id: string;
    };
    return {
      ...result.tokens,
      userId: me._id,
      email,
      home,
      documents: Object.values(documents),
    };
  };

  const a = await signUp("customer", false);
  const b = await signUp("otherCustomer", false);
  const p = await signUp("professional", true);
  const q = await signUp("otherProfessional", true);
  const adminTokens = (
    (await visitor.action(action("auth:signIn"), {
      provider: "admin",
      params: { flow: "signIn", ...backend.admin },
    })) as { tokens?: Tokens | null }
  ).tokens;
  if (!adminTokens) throw new Error("the admin's sign-in gave no tokens");
  const adminId = (
    (await client(adminTokens.token).query(query("users:viewer"), {})) as { _id: string }
  )._id;

  const userIds: Record<SignedInRole, string> = {
    customer: a.userId,
    otherCustomer: b.userId,
    professional: p.userId,
    otherProfessional: q.userId,
    admin: adminId,
  };
  const tokens: Record<SignedInRole, Tokens> = {
    customer: a,
    otherCustomer: b,
    professional: p,
    otherProfessional: q,
    admin: adminTokens,
  };
  const roleOfUser = new Map<string, DrillRole>(
    Object.entries(userIds).map(([role, id]) => [id, role as DrillRole]),
  );
  const callers = { visitor } as Record<DrillRole, ConvexHttpClient>;
  const viewers = new Map<ConvexHttpClient, Viewer & { role: DrillRole }>([
    [visitor, { role: "visitor", admin: false }],
  ]);
  for (const role of Object.keys(tokens) as SignedInRole[]) {
    callers[role] = client(tokens[role].token);
    viewers.set(callers[role], { role, userId: userIds[role], admin: role === "admin" });
  }

  // the admin sets up an authenticator first (admin functions need it); its key is the admin's alone
  const { key } = (await callers.admin.mutation(mutation("twoFactor:begin"), {})) as {
    key: string;
  };
  plant(key, "the admin's authenticator key", [adminId], false);
  const enrolled = await callers.admin.mutation(mutation("twoFactor:confirm"), {
    code: TOTP.generate({ secret: Secret.fromBase32(key) }),
  });
  if (enrolled === null) throw new Error("the admin's first authenticator code was refused");

  // P and Q verify their phones by the SMS code, read off the outbox (admins verify only such)
  for (const [role, account] of [
    ["professional", p],
    ["otherProfessional", q],
  ] as const) {
    await callers[role].mutation(mutation("contactVerification:sendCode"), { kind: "phone" });
    const code = /\b(\d{6})\b/.exec(await smsTo(backend.siteUrl, account.home.phone))?.[1];
    const confirmed = await callers[role].mutation(mutation("contactVerification:confirm"), {
      kind: "phone",
      code: code ?? "",
    });
    if (confirmed !== true) throw new Error(`${role}'s phone code was refused`);
  }

  // P and Q verified and available; their professional ids
  const professionalOf = async (role: SignedInRole) =>
    ((await callers[role].query(query("professionals:me"), {})) as { _id: string })._id;
  const pId = await professionalOf("professional");
  const qId = await professionalOf("otherProfessional");
  for (const [role, id] of [
    ["professional", pId],
    ["otherProfessional", qId],
  ] as const) {
    await callers.admin.mutation(mutation("admin:verify"), {
      professionalId: id,
      decision: "verified",
    });
    await callers[role].mutation(mutation("professionals:setAvailability"), { available: true });
  }

  // an electrical service P and Q offer in Kathmandu
  const reader = new DataDirReader(backend.dataDir);
  const service = [...reader.snapshot().values()].find(
    ({ table, doc }) =>
      table === "services" &&
      doc.category === "electrical" &&
      (doc.availableCities as { name: string }[]).some((c) => c.name === "kathmandu"),
  );
  if (service === undefined) throw new Error("no electrical service in Kathmandu was seeded");
  const serviceId = service.doc._id;

  const book = (
    role: SignedInRole,
    professionalId: string,
    address: string,
    note: string,
    inMs: number,
  ) =>
    callers[role].mutation(mutation("bookings:create"), {
      professionalId,
      serviceIds: [serviceId],
      address,
      note,
      city: "kathmandu",
      scheduledFor: Date.now() + inMs,
    }) as Promise<string>;
  /** Q accepts B's booking, sets off and arrives: its start code opens. */
  const qArrives = async (bookingId: string) => {
    for (const step of ["accept", "startTrip", "arrive"])
      await callers.otherProfessional.mutation(mutation(`bookings:${step}`), { bookingId });
  };
  const booking = await book(
    "customer",
    pId,
    plant(canaryText("ap-address"), "A's booking address", [a.userId, p.userId]),
    plant(canaryText("ap-note"), "A's booking note", [a.userId, p.userId]),
    // far enough for A to propose another time (rules/reschedule.ts) and for P to be free now
    3 * 3_600_000,
  );
  await callers.professional.mutation(mutation("bookings:accept"), { bookingId: booking });
  const finished = await book(
    "otherCustomer",
    qId,
    plant(canaryText("bq-address"), "B's booking address", [b.userId, q.userId]),
    plant(canaryText("bq-note"), "B's booking note", [b.userId, q.userId]),
    // soon: a job's steps may start an hour before its time (rules/schedule.ts)
    5 * 60_000,
  );
  await qArrives(finished);
  // the start code the customer's booking shows (rules/startCode.ts)
  const arrived = (await callers.otherCustomer.query(query("bookings:get"), {
    bookingId: finished,
  })) as { start: { code: string } };
  await callers.otherProfessional.mutation(mutation("bookings:start"), {
    bookingId: finished,
    code: arrived.start.code,
  });
  await callers.otherProfessional.mutation(mutation("bookings:complete"), { bookingId: finished });
  // done within seconds of being accepted: the review is held for an admin (rules/bookingLifecycle.ts)
  await callers.otherCustomer.mutation(mutation("bookings:confirmDone"), { bookingId: finished });
  await callers.otherCustomer.mutation(mutation("reviews:create"), {
    bookingId: finished,
    rating: 4,
    comment: "Neat work",
  });
  // the admin checks it and publishes it (a reviewDecisions row)
  const [held] = (await callers.admin.query(query("adminReviews:held"), {})) as { _id: string }[];
  await callers.admin.mutation(mutation("adminReviews:publish"), { reviewId: held._id });
  await payWithKhalti(callers.otherCustomer, backend.siteUrl, finished);
  // the admin pays Q out what B's paid job left due (a payouts row)
  let due: number | undefined;
  for (let cursor: string | null = null; due === undefined;) {
    const page = (await callers.admin.query(query("payouts:balances"), {
      paginationOpts: { numItems: 50, cursor },
    })) as {
      page: { professionalId: string; duePaisa: number }[];
      isDone: boolean;
      continueCursor: string;
    };
    due = page.page.find((row) => row.professionalId === qId)?.duePaisa;
    if (page.isDone) break;
    cursor = page.continueCursor;
  }
  if (!due) throw new Error("Q has nothing due after B's paid job");
  await callers.admin.mutation(mutation("payouts:record"), {
    professionalId: qId,
    method: "bank",
    reference: "NIC Asia 778899",
    amountPaisa: due,
    seenDuePaisa: due,
  });
  // B's cash job with Q: Q keeps the cash and owes its commission, which Q hands over to the
  // admin (a settlements row)
  const cashJob = await book(
    "otherCustomer",
    qId,
    plant(canaryText("bq-cash-address"), "B's cash booking address", [b.userId, q.userId]),
    plant(canaryText("bq-cash-note"), "B's cash booking note", [b.userId, q.userId]),
    5 * 60_000,
  );
  await qArrives(cashJob);
  const atQsDoor = (await callers.otherCustomer.query(query("bookings:get"), {
    bookingId: cashJob,
  })) as { start: { code: string } };
  await callers.otherProfessional.mutation(mutation("bookings:start"), {
    bookingId: cashJob,
    code: atQsDoor.start.code,
  });
  const cashBill = (await callers.otherProfessional.query(query("bills:get"), {
    bookingId: cashJob,
  })) as { totalPaisa: number };
  await callers.otherProfessional.mutation(mutation("cash:markReceived"), {
    bookingId: cashJob,
    amountPaisa: cashBill.totalPaisa,
  });
  await callers.otherProfessional.mutation(mutation("bookings:complete"), { bookingId: cashJob });
  await callers.otherCustomer.mutation(mutation("cash:confirm"), { bookingId: cashJob });
  await callers.admin.mutation(mutation("settlements:record"), {
    professionalId: qId,
    method: "cash",
    reference: "Cash receipt 5566",
    amountPaisa: 1,
  });
  // B's next job with Q waits at the door: Q has arrived, B's start code is open (a startCodes row)
  const arriving = await book(
    "otherCustomer",
    qId,
    plant(canaryText("bq-next-address"), "B's next booking address", [b.userId, q.userId]),
    plant(canaryText("bq-next-note"), "B's next booking note", [b.userId, q.userId]),
    10 * 60_000,
  );
  await qArrives(arriving);

  // a customer who takes no other part pays P for a job under way; the admin suspends them, which
  // cancels the job: its payment is owed back (a refunds row), and P is free again
  const extra = await signUp("otherCustomer", false);
  const extraCaller = client(extra.token);
  const refunded = (await extraCaller.mutation(mutation("bookings:create"), {
    professionalId: pId,
    serviceIds: [serviceId],
    address: "Ward 4, Baneshwor",
    note: "The drill's refunded job.",
    city: "kathmandu",
    scheduledFor: Date.now() + 5 * 60_000,
  })) as string;
  for (const step of ["accept", "startTrip", "arrive"])
    await callers.professional.mutation(mutation(`bookings:${step}`), { bookingId: refunded });
  const atTheDoor = (await extraCaller.query(query("bookings:get"), {
    bookingId: refunded,
  })) as { start: { code: string } };
  await callers.professional.mutation(mutation("bookings:start"), {
    bookingId: refunded,
    code: atTheDoor.start.code,
  });
  await payWithKhalti(extraCaller, backend.siteUrl, refunded);
  for (const step of ["suspend", "restore"])
    await callers.admin.mutation(mutation(`adminAccounts:${step}`), {
      userId: extra.userId,
      reason: `The access drill's ${step}.`,
    });

  // A asks to move their booking with P to another of P's free times (a reschedules row)
  const { slots } = (await callers.customer.query(query("reschedules:freeSlots"), {
    bookingId: booking,
    now: Date.now(),
  })) as { slots: number[] };
  if (slots.length === 0) throw new Error("P has no free time to move A's booking to");
  await callers.customer.mutation(mutation("reschedules:propose"), {
    bookingId: booking,
    to: slots[0],
  });

  // P's phone gets booking alerts; P's exact position (A, with an active booking, may see it)
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]);
  const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
  await callers.professional.mutation(mutation("push:subscribe"), {
    endpoint: plant(
      `${backend.pushService}/${canaryText("endpoint")}`,
      "P's push endpoint",
      [p.userId],
      false,
    ),
    keys: {
      p256dh: plant(
        base64url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))),
        "P's push key",
        [p.userId],
        false,
      ),
      auth: plant(
        base64url(crypto.getRandomValues(new Uint8Array(16))),
        "P's push secret",
        [p.userId],
        false,
      ),
    },
    label: "Drill phone",
  });
  await callers.professional.mutation(mutation("locations:update"), P_POSITION);
  // P is online (dispatch offers only professionals there to answer) and free now
  await callers.professional.mutation(mutation("presence:heartbeat"), {});
  plant(String(P_POSITION.latitude), "P's exact latitude", [p.userId, a.userId]);
  plant(String(P_POSITION.longitude), "P's exact longitude", [p.userId, a.userId]);
  // A asks for the nearest electrician now, a few hundred metres from P: offered to P (Q is busy at
  // B's door and not online), who sees the job's area, not its address (a dispatchOffers row)
  await callers.customer.mutation(mutation("dispatch:request"), {
    serviceIds: [serviceId],
    city: "kathmandu",
    address: plant(canaryText("a-now-address"), "A's nearest-now address", [a.userId]),
    pin: { lat: P_POSITION.latitude + 0.003, lng: P_POSITION.longitude },
  });
  await eventually(async () => {
    const offers = (await callers.professional.query(query("dispatch:myOffers"), {})) as unknown[];
    return offers.length > 0 ? true : null;
  });

  // a document in each table the app writes to: a message, A online on a device, a wrong
  // password for B's account, an upload URL B never used
  await visitor.mutation(mutation("contact:send"), {
    name: "Drill Sender",
    email: "drill@example.np",
    message: "Hello from the access drill.",
  });
  await callers.customer.mutation(mutation("presence:heartbeat"), {});
  await callers.customer.mutation(mutation("devices:seen"), { userAgent: "Drill browser" });
  await visitor
    .action(action("auth:signIn"), {
      provider: "customer",
      params: { flow: "signIn", email: b.email, password: "wrong guess" },
    })
    .catch(() => undefined);
  await callers.otherCustomer.mutation(mutation("files:generateUploadUrl"), {});
  // B forgot their password: a reset code waits for them
  await visitor.mutation(mutation("passwordReset:request"), { role: "customer", contact: b.email });
  // B reports Q's job
  await callers.otherCustomer.mutation(mutation("reports:create"), {
    bookingId: finished,
    target: "booking",
    category: "poor_work",
    text: "The drill reports this job.",
  });
  // the conversations: A and P talk (no admin may read it: nobody reported that booking); on Q's
  // reported job the admin opens B and Q's
  await callers.customer.mutation(mutation("chat:send"), {
    bookingId: booking,
    text: plant(canaryText("ap-chat"), "A's message to P", [a.userId, p.userId], false),
  });
  await callers.professional.mutation(mutation("chat:typing"), { bookingId: booking });
  await callers.otherCustomer.mutation(mutation("chat:send"), {
    bookingId: finished,
    text: plant(canaryText("bq-chat"), "B's message to Q", [b.userId, q.userId]),
  });
  await callers.admin.mutation(mutation("chat:openAsAdmin"), { bookingId: finished });

  // homes and phones: their own, admins', P's to A (active booking) and A's phone to P
  for (const [role, account, seenBy] of [
    ["customer", a, []],
    ["otherCustomer", b, []],
    ["professional", p, [a.userId]],
    ["otherProfessional", q, []],
  ] as const) {
    plant(account.home.address, `${role}'s home address`, [account.userId, ...seenBy]);
    plant(account.home.zipCode, `${role}'s zip code`, [account.userId, ...seenBy]);
    plant(account.home.phone, `${role}'s phone`, [
      account.userId,
      ...seenBy,
      ...(role === "customer" ? [p.userId] : []),
    ]);
    plant(account.email, `${role}'s email`, [account.userId]);
    for (const id of account.documents)
      plant(id, `${role}'s document (storage id)`, [account.userId]);
  }
  for (const role of Object.keys(tokens) as SignedInRole[]) {
    const [tokenId, sessionId] = tokens[role].refreshToken.split("|");
    plant(sessionId, `${role}'s session id`, [userIds[role]], false);
    plant(tokenId, `${role}'s refresh token id`, [userIds[role]], false);
  }

  return {
    url,
    reader,
    callers,
    tokens,
    userIds,
    roleOfUser,
    canaries,
    booking,
    finished,
    arriving,
    serviceId,
    professionals: { professional: pId, otherProfessional: qId },
    viewerOf: (as: ConvexHttpClient) =>
      viewers.get(as) ?? { role: "visitor" as const, admin: false },
  };
}

/** Until `read` gives a value: a bounded wait for work the backend schedules (an action, a lookup). */
async function eventually<T>(read: () => Promise<T | null>): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const value = await read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the backend never got there");
}

/**
 * The customer pays `bookingId` with Khalti at the local stand-in (paid there through its test
 * control, as a tester's wallet would): a payment attempt, a payment and its ledger entries exist.
 */
async function payWithKhalti(customer: ConvexHttpClient, siteUrl: string, bookingId: string) {
  const { attemptId } = (await customer.mutation(mutation("wallets:start"), {
    bookingId,
    method: "khalti",
  })) as { attemptId: string };
  type View = { paymentUrl: string | null; state: string } | null;
  const view = () => customer.query(query("wallets:attempt"), { attemptId }) as Promise<View>;
  const paymentUrl = await eventually(async () => (await view())?.paymentUrl ?? null);
  const pidx = new URL(paymentUrl).searchParams.get("pidx")!;
  const paid = await fetch(`${siteUrl}/khalti/control/status`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ pidx, status: "Completed" }),
  });
  if (!paid.ok) throw new Error(`the Khalti stand-in refused: ${paid.status}`);
  await customer.mutation(mutation("wallets:khaltiReturned"), { pidx });
  await eventually(async () => ((await view())?.state === "paid" ? true : null));
}
