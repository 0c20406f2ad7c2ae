import { expect } from "@playwright/test";
import { ConvexHttpClient } from "convex/browser";
import { anyApi } from "convex/server";
import { DOCUMENT_KINDS } from "../convex/rules/documents";
import { solveStamp } from "../convex/rules/signUpWork";
import { smsTo } from "../local-backend/stand-ins/outbox-reader.ts";
import { E2E, PNG, unique, uniquePhone } from "./env";
import type { Actor } from "./fixtures";
import { m, say } from "./i18n";
import type { NewProfessional, NewUser } from "./pages/auth-pages";
import { codeIn } from "./pages/outbox-page";
import { typeStreetIfNoneProposed } from "./pages/search-page";
import { nextCode } from "./two-factor";

/** A new customer's details (not yet signed up). */
export function newCustomer(address = "Ward 4, Tribhuvan Chowk, Nepalgunj"): NewUser {
  const id = unique();
  return {
    name: `Customer ${id}`,
    email: `customer-${id}@example.np`,
    phone: uniquePhone(),
    password: "customer-password-1",
    address,
    zipCode: "21900",
  };
}

/** A new professional's details (not yet signed up). */
export function newProfessional(
  specialty: string,
  city: string,
  name = `Pro ${unique()}`,
): NewProfessional {
  const id = unique();
  return {
    name,
    email: `pro-${id}@example.np`,
    phone: uniquePhone(),
    password: "pro-password-1",
    address: `Ward 3, ${city}`,
    zipCode: "21900",
    city,
    state: "Lumbini",
    specialty,
  };
}

/**
 * Signs `pro` up in `person`'s browser; with `admin`, the professional verifies their phone by the
 * SMS code and the admin verifies them too.
 */
export async function signUpProfessional(person: Actor, pro: NewProfessional, admin?: Actor) {
  await person.auth.signUpProfessional(pro);
  if (!admin) return;
  await person.auth.verifyPhone(pro.phone);
  await admin.page.goto("/admin-panel");
  const documents = await admin.admin.openTechnician(pro.name);
  await documents.getByRole("button", { name: "Verify" }).click();
  await expect(documents).toBeHidden();
}

/**
 * `person` signed up as a `role` through the functions the sign-up form calls (a draft, for a
 * professional the documents uploaded to it, the sign-up): their signed-in client. For specs whose
 * subject comes after the sign-up, at the cost of a few calls instead of the form in a browser.
 */
async function signedUp(role: "customer" | "professional", person: NewUser) {
  const client = new ConvexHttpClient(E2E.convexUrl, { logger: false });
  const { draft } = (await client.mutation(anyApi.signUpDrafts.create, {
    stamp: await solveStamp(),
  })) as { draft: string };
  const documents: Record<string, string> = {};
  for (const { key } of role === "professional" ? DOCUMENT_KINDS : []) {
    const url = (await client.mutation(anyApi.files.generateUploadUrl, { draft })) as string;
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "image/png" },
      body: PNG,
    });
    if (!res.ok) throw new Error(`the ${key} upload was refused: ${res.status}`);
    documents[key] = ((await res.json()) as { storageId: string }).storageId;
  }
  const { tokens } = (await client.action(anyApi.auth.signIn, {
    provider: role,
    params: { flow: "signUp", draft, ...person, ...documents },
  })) as { tokens: { token: string } };
  client.setAuth(tokens.token);
  return client;
}

/** `user` signed up as a customer (see signedUp): their signed-in client. */
export async function customerAccount(user: NewUser) {
  return await signedUp("customer", user);
}

/** `pro` signed up with documents (see signedUp), phone not yet verified: their signed-in client. */
export async function professionalAccount(pro: NewProfessional) {
  return await signedUp("professional", pro);
}

/** The signed-in `client` verifies `phone` by the SMS code, through the security tab's functions. */
export async function verifyPhoneOf(client: ConvexHttpClient, phone: string) {
  await client.mutation(anyApi.contactVerification.sendCode, { kind: "phone" });
  const code = codeIn(await smsTo(E2E.siteUrl, phone));
  if (!(await client.mutation(anyApi.contactVerification.confirm, { kind: "phone", code })))
    throw new Error(`the SMS code to ${phone} was refused`);
}

/**
 * `pro` signed up, their phone verified by the SMS code and the professional verified by `admin`
 * (an admin's client, adminClient), through the functions the sign-up form, the security tab and
 * the admin panel call: for specs whose subject comes after all that, at the cost of a few calls
 * instead of three screens in two browsers.
 */
export async function verifiedProfessionalAccount(pro: NewProfessional, admin: ConvexHttpClient) {
  const asPro = await professionalAccount(pro);
  await verifyPhoneOf(asPro, pro.phone);
  const { _id: professionalId } = (await asPro.query(anyApi.professionals.me, {})) as {
    _id: string;
  };
  await admin.mutation(anyApi.admin.verify, { professionalId, decision: "verified" });
}

/** The e2e admin's client, signed in with the password and the authenticator's next code. */
export async function adminClient() {
  return await signedInClient("admin", {
    ...E2E.admin,
    code: await nextCode(E2E.admin.username),
  });
}

/**
 * A new Nepalgunj electrician, signed up, verified by the e2e admin and signed in to their
 * dashboard in a browser of their own.
 */
export async function verifiedElectrician(
  actor: (o?: object) => Promise<Actor>,
  viewport: { width: number; height: number },
) {
  const admin = await signedInAdmin(actor);
  const pro = newProfessional("Electrician", "Nepalgunj");
  const professional = await actor({ viewport });
  await signUpProfessional(professional, pro, admin);
  await professional.auth.professionalSignIn(pro.email, pro.password);
  return { pro, professional };
}

const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

/** A Kathmandu wall-clock instant `minutes` from now, as a datetime-local value "YYYY-MM-DDTHH:MM". */
export function kathmanduInput(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000 + KATHMANDU_OFFSET_MS).toISOString().slice(0, 16);
}

/** A Kathmandu calendar day `days` from today: its "YYYY-MM-DD" and weekday (0 = Sunday). */
export function kathmanduDay(days: number) {
  const d = new Date(Date.now() + days * 24 * 3_600_000 + KATHMANDU_OFFSET_MS);
  return { date: d.toISOString().slice(0, 10), weekday: d.getUTCDay() };
}

/** The customer books a Nepalgunj electrician's first service at `when` (datetime-local), with `note`. */
export async function bookAt(customer: Actor, proName: string, when: string, note: string) {
  const p = customer.page;
  await customer.search.open("Electrician", "Nepalgunj");
  await p.getByRole("button", { name: `Book ${proName}` }).click();
  const dialog = p.getByRole("dialog", { name: `Book ${proName}` });
  await dialog.getByRole("checkbox").first().check();
  await dialog.getByLabel("Date and time (Nepal time)").fill(when);
  await typeStreetIfNoneProposed(dialog);
  await dialog.getByLabel("Note for the professional (optional)").fill(note);
  await dialog.getByRole("button", { name: "Confirm booking" }).click();
  await expect(dialog).toBeHidden();
}

/** The e2e admin, signed in, in a browser of their own. */
export async function signedInAdmin(actor: (o?: object) => Promise<Actor>) {
  const admin = await actor({ viewport: { width: 1280, height: 800 } });
  await admin.auth.adminLogin(E2E.admin.username, E2E.admin.password);
  return admin;
}

/** No sideways scroll: the document is exactly as wide as the viewport. */
export async function expectNoSidewaysScroll(person: Actor) {
  const { scrollWidth, clientWidth, wide } = await person.page.evaluate(() => {
    const el = document.scrollingElement!;
    const vw = el.clientWidth;
    // what sticks out, leaving out what scrolls inside its own box (a sideways menu, a table)
    const scrolls = (e: Element): boolean => {
      for (let a = e.parentElement; a !== null && a !== document.body; a = a.parentElement)
        if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(a).overflowX))
          return true;
      return false;
    };
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((e) => e.getBoundingClientRect().right > vw + 0.5 && !scrolls(e))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 60)}`);
    return { scrollWidth: el.scrollWidth, clientWidth: vw, wide };
  });
  expect(scrollWidth, `wider than the viewport: ${wide.join(" | ")}`).toBe(clientWidth);
}

export type Account = { email: string; password: string };
/** An admin signs in by username, password and authenticator code. */
type AdminAccount = { username: string; password: string; code: string };

/** A Convex client signed in as `account` through `provider`, as a script or mobile app signs in. */
export async function signedInClient(provider: string, account: Account | AdminAccount) {
  const client = new ConvexHttpClient(E2E.convexUrl, { logger: false });
  const { tokens } = (await client.action(anyApi.auth.signIn, {
    provider,
    params: { flow: "signIn", ...account },
  })) as { tokens: { token: string } };
  client.setAuth(tokens.token);
  return client;
}

/**
 * A Kathmandu booking request from `customer` to `professional` for the category's service, made
 * as the booking dialog makes it; returns the booking and both sides' signed-in clients.
 */
export async function requestKathmanduBooking(
  customer: Account,
  professional: Account,
  service: { category: string; serviceName: string },
  inHours: number,
) {
  const [asCustomer, asPro] = await Promise.all([
    signedInClient("customer", customer),
    signedInClient("professional", professional),
  ]);
  const { _id: professionalId } = (await asPro.query(anyApi.professionals.me, {})) as {
    _id: string;
  };
  const { _id: serviceId } = (await asCustomer.query(anyApi.catalog.serviceDetails, {
    ...service,
    location: "Kathmandu",
  })) as { _id: string };
  const bookingId = (await asCustomer.mutation(anyApi.bookings.create, {
    professionalId,
    serviceIds: [serviceId],
    city: "kathmandu",
    address: "Ward 10, New Baneshwor",
    scheduledFor: Date.now() + inHours * 3_600_000,
  })) as string;
  return { bookingId, customer: asCustomer, professional: asPro };
}

/** The demo electrician in Kathmandu (convex/model/demoData.ts), whom the money specs book. */
export const KATHMANDU_ELECTRICIAN: Account = {
  email: "electrician.kathmandu@demo.np",
  password: "demo-password-1",
};

/**
 * A Kathmandu electrician's booking for `customer`, taken by the demo electrician there to "in
 * progress": a job whose bill the customer may pay. Returns its id.
 */
export async function kathmanduJobUnderWay(customer: Account) {
  return await kathmanduJob(customer, "in_progress");
}

/** The same booking with the demo electrician only on the way (a customer's cancel costs the fee). */
export async function kathmanduJobOnTheWay(customer: Account) {
  return await kathmanduJob(customer, "en_route");
}

async function kathmanduJob(customer: Account, until: "en_route" | "in_progress") {
  const professional = KATHMANDU_ELECTRICIAN;
  const asPro = await signedInClient("professional", professional);
  await finishOpenJobs(asPro);
  const { bookingId, customer: asCustomer } = await requestKathmanduBooking(
    customer,
    professional,
    { category: "Electrician", serviceName: "Light Fitting" },
    // within the hour: the professional may start the job from an hour before
    0.3 + Math.random() * 0.6,
  );
  await asPro.mutation(anyApi.bookings.accept, { bookingId, confirmClash: true });
  await asPro.mutation(anyApi.bookings.startTrip, { bookingId });
  if (until === "en_route") return bookingId;
  await asPro.mutation(anyApi.bookings.arrive, { bookingId });
  await startWithCustomersCode(asCustomer, asPro, bookingId);
  return bookingId;
}

/**
 * The demo professional's jobs left open by earlier specs end here: an open job holds its time, so
 * the next spec's booking within the hour would find it taken.
 */
async function finishOpenJobs(asPro: ConvexHttpClient) {
  const { page } = (await asPro.query(anyApi.bookings.forProfessional, {
    paginationOpts: { numItems: 50, cursor: null },
  })) as { page: { _id: string; status: string }[] };
  for (const { _id: bookingId, status } of page) {
    if (status === "in_progress") await asPro.mutation(anyApi.bookings.complete, { bookingId });
    if (status === "accepted" || status === "en_route" || status === "arrived")
      await asPro.mutation(anyApi.bookings.cancel, { bookingId, reason: "Test job ended." });
    if (status === "requested") await asPro.mutation(anyApi.bookings.reject, { bookingId });
  }
}

/**
 * At the door, in two browsers: the customer's booking shows the start code, the arrived professional
 * types it on their job card, and the job is in progress.
 */
export async function startAtTheDoor(customer: Actor, professional: Actor, note: string) {
  await customer.account.openBookings();
  const code = customer.account.booking(note).getByTestId("start-code");
  await expect(code).toHaveText(/^[0-9०-९]{4}$/);
  const shown = await code.innerText();
  const job = professional.dashboard.booking(note);
  const l = professional.locale;
  await job.getByLabel(say(l, m.start_code_label)).fill(shown);
  await job.getByRole("button", { name: say(l, m.start_code_submit) }).click();
  await expect(job).toContainText(say(l, m.status_in_progress));
}

/**
 * The arrived professional types the start code its customer's booking shows (as they would read it
 * out at the door): the job is then in progress.
 */
export async function startWithCustomersCode(
  asCustomer: ConvexHttpClient,
  asPro: ConvexHttpClient,
  bookingId: string,
) {
  const booking = (await asCustomer.query(anyApi.bookings.get, { bookingId })) as {
    start: { code: string | null } | null;
  } | null;
  const code = booking?.start?.code;
  if (!code) throw new Error(`Booking ${bookingId} shows its customer no start code.`);
  await asPro.mutation(anyApi.bookings.start, { bookingId, code });
}
