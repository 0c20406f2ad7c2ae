import { anyApi } from "convex/server";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "../../fixtures";
import { E2E } from "../../env";
import { requestKathmanduBooking } from "../../people";
import { m } from "../../i18n";

// Demo accounts no other spec books with (convex/model/demoData.ts).
const PRO = { email: "electrician.kathmandu@demo.np", password: "demo-password-1" };
const CUSTOMER = { email: "customer2@demo.np", password: "demo-password-1" };

// the installed app: its service worker registers (playwright.config.ts blocks it elsewhere)
test.use({ serviceWorkers: "allow" });

/** Waits until the service worker controls the page and has precached the build. */
async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r));
    return registration.active?.state;
  });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const names = await caches.keys();
        const precache = names.find((n) => n.startsWith("workbox-precache"));
        return precache ? (await (await caches.open(precache)).keys()).length : 0;
      }),
    )
    .toBeGreaterThan(20);
}

/** PNG width and height from its IHDR chunk. */
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

test("the app is installable: a valid manifest, its icons, and a service worker in control", async ({
  page,
  request,
}) => {
  const res = await request.get("/manifest.webmanifest");
  expect(res.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: "GharSewa — घर सेवा",
    short_name: "GharSewa",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: "#0f766e",
  });
  expect(manifest.shortcuts.map((s: { url: string }) => s.url)).toEqual([
    "/customer/profile?tab=bookings",
    "/professional-dashboard",
  ]);
  const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
  expect(icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(
    expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]),
  );
  for (const icon of icons) {
    const png = await request.get(icon.src);
    expect(png.headers()["content-type"]).toBe("image/png");
    expect(pngSize(await png.body()).join("x")).toBe(icon.sizes);
  }

  await page.goto("/");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    "href",
    "/manifest.webmanifest",
  );
  await serviceWorkerReady(page);
  const sw = await request.get("/sw.js");
  expect(sw.headers()["cache-control"]).toBe("no-cache");
});

test("a signed-in professional opens the dashboard offline: last seen jobs, read-only; logout forgets them", async ({
  actor,
}) => {
  test.slow(); // two sign-ins, a reload offline and a reconnect
  const pro = await actor();
  await pro.auth.professionalSignIn(PRO.email, PRO.password);
  await requestBooking();
  const request = pro.page.getByRole("listitem", { name: "Booking from Bikash Shrestha" }).first();
  await expect(request.getByRole("button", { name: "Accept" })).toBeVisible();
  await serviceWorkerReady(pro.page);
  await pro.page.context().setOffline(true);
  await pro.page.reload();
  await expect(
    pro.page.getByRole("status").filter({ hasText: "as this phone last saw them" }),
  ).toBeVisible();
  await expect(request).toBeVisible();
  // the session kept on the phone is still theirs: no Login offered
  await expect(pro.page.getByRole("banner").getByRole("link", { name: "Login" })).toHaveCount(0);
  await expect(request).toContainText("Light Fitting");
  await expect(pro.page.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await pro.page.screenshot({ path: "e2e/screenshots/professional-offline.png", fullPage: true });
  await pro.page.context().setOffline(false);
  // still signed in: the live dashboard takes over once the connection is back
  await expect(request.getByRole("button", { name: "Accept" })).toBeVisible({ timeout: 20_000 });
  await expect(pro.page.getByText("as this phone last saw them")).toBeHidden();

  await pro.page.getByRole("button", { name: /^Account menu for/ }).click();
  await pro.page.getByRole("button", { name: "Logout" }).click();
  await pro.page.getByRole("button", { name: "Continue" }).click();
  await expect(pro.page.getByText(/logged out successfully/)).toBeVisible();
  expect(
    await pro.page.evaluate(() => localStorage.getItem("gharsewa:last-known-jobs:v1")),
  ).toBeNull();
  await pro.page.context().setOffline(true);
  await pro.page.goto("/professional-dashboard");
  await expect(pro.page).toHaveURL("/professional-signin");
  await expect(request).toHaveCount(0);
  await pro.page.context().setOffline(false);
});

test("without a network the app still opens, and says it is offline", async ({ page, context }) => {
  await page.goto("/");
  await serviceWorkerReady(page);
  await context.setOffline(true);
  for (const path of ["/", "/professional-dashboard", "/services"]) {
    await page.goto(path);
    await expect(page.getByRole("status").filter({ hasText: "You are offline" })).toBeVisible();
    await expect(page.getByRole("banner")).toBeVisible(); // the header: the shell rendered
  }
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByText("You are offline")).toBeHidden();
});

/** A request from the demo customer to the demo professional, as the booking dialog sends it. */
const requestBooking = () =>
  requestKathmanduBooking(
    CUSTOMER,
    PRO,
    { category: "Electrician", serviceName: "Light Fitting" },
    3,
  );

/** Delivers `data` to the page's service worker as the push service would (DevTools protocol). */
async function deliverPush(context: BrowserContext, page: Page, data: object) {
  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted && r.scopeURL === `${E2E.webUrl}/`);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin: E2E.webUrl,
    registrationId: await registered,
    data: JSON.stringify(data),
  });
}

const notifications = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as { url: string },
      actions: (n as Notification & { actions: { action: string; title: string }[] }).actions.map(
        (a) => a.title,
      ),
    })),
  );

/**
 * What a tap on the notification runs: the service worker's notificationclick handler. Browsers
 * have no automation for tapping a system notification, so the event is dispatched in the worker;
 * the handler's window navigation is the browser's own.
 */
async function tapNotification(context: BrowserContext, action = "", tag?: string) {
  const [worker] = context.serviceWorkers();
  await worker.evaluate(
    async ({ action, tag }) => {
      // the worker's globals (this file is type-checked without the WebWorker lib)
      const sw = self as unknown as {
        registration: ServiceWorkerRegistration;
        NotificationEvent: new (
          type: string,
          init: { notification: Notification; action: string },
        ) => Event;
      };
      const [notification] = await sw.registration.getNotifications(tag ? { tag } : undefined);
      self.dispatchEvent(new sw.NotificationEvent("notificationclick", { notification, action }));
    },
    { action, tag },
  );
}

test("a pushed request shows a notification whose tap opens that booking; a cancelled one says so", async ({
  actor,
}) => {
  const pro = await actor({ permissions: ["notifications"] });
  await pro.auth.professionalSignIn(PRO.email, PRO.password);
  await serviceWorkerReady(pro.page);
  await pro.dashboard.openSection(m.dash_tab_alerts);
  await expect(pro.page.getByText("Alerts are off for this phone.")).toBeVisible();
  await expect(
    pro.page.getByRole("button", { name: "Get request alerts on this phone" }),
  ).toBeVisible();
  await pro.page.screenshot({ path: "e2e/screenshots/professional-alerts.png" });

  const { bookingId, customer } = await requestBooking();
  const url = `/professional-dashboard?booking=${encodeURIComponent(bookingId)}`;
  // the message convex/model/push.ts sends for a new request
  await deliverPush(pro.page.context(), pro.page, {
    kind: "booking.requested",
    title: "New booking request",
    body: "Bikash Shrestha requested Light Fitting in Kathmandu.",
    url,
    bookingId,
  });
  await expect
    .poll(() => notifications(pro.page))
    .toEqual([
      {
        title: "New booking request",
        body: "Bikash Shrestha requested Light Fitting in Kathmandu.",
        tag: `booking-${bookingId}`,
        data: expect.objectContaining({ url }),
        actions: ["Accept", "View"],
      },
    ]);

  await pro.page.goto("/");
  await tapNotification(pro.page.context(), "accept");
  await expect(pro.page).toHaveURL(`${url}&intent=accept`);
  await expect(pro.page.getByText("Check the details below, then tap Accept.")).toBeVisible();
  const card = pro.page
    .getByRole("listitem", { name: "Booking from Bikash Shrestha" })
    .and(pro.page.locator('[aria-current="true"]'));
  await expect(card).toBeInViewport();
  await expect(card.getByRole("button", { name: "Accept" })).toBeVisible();
  await expect(pro.page).toHaveTitle(/^\(\d+\) /); // waiting requests counted in the title

  await customer.mutation(anyApi.bookings.cancel, { bookingId, reason: "Found someone nearer" });
  await pro.page.goto(url);
  await expect(pro.page.getByText("The customer cancelled this request.")).toBeVisible();
});

test("a chat message rings beside the request, not over it; its tap opens the conversation", async ({
  actor,
}) => {
  const pro = await actor({ permissions: ["notifications"] });
  await pro.auth.professionalSignIn(PRO.email, PRO.password);
  await serviceWorkerReady(pro.page);
  const { bookingId, customer } = await requestBooking();
  const text = "Which gate? The blue one.";
  await customer.mutation(anyApi.chat.send, { bookingId, text });
  const context = pro.page.context();
  // the messages convex/model/push.ts and model/chat.ts send: the request, then the chat message
  await deliverPush(context, pro.page, {
    kind: "booking.requested",
    title: "New booking request",
    body: "Bikash Shrestha requested Light Fitting in Kathmandu.",
    url: `/professional-dashboard?booking=${encodeURIComponent(bookingId)}`,
    bookingId,
  });
  await deliverPush(context, pro.page, {
    kind: "chat.message",
    title: "Bikash Shrestha",
    body: text,
    url: `/bookings/${encodeURIComponent(bookingId)}/chat`,
    bookingId,
  });
  await expect
    .poll(async () => (await notifications(pro.page)).map((n) => `${n.tag}: ${n.body}`).sort())
    .toEqual([
      `booking-${bookingId}: Bikash Shrestha requested Light Fitting in Kathmandu.`,
      `chat-${bookingId}: ${text}`,
    ]);

  // the app is elsewhere; the tap on the chat notification opens the conversation
  await pro.page.goto("/");
  await tapNotification(context, "", `chat-${bookingId}`);
  await expect(pro.page).toHaveURL(new RegExp(`/bookings/${encodeURIComponent(bookingId)}/chat$`));
  await expect(pro.page.getByRole("log").getByText(text)).toBeVisible();
  await customer.mutation(anyApi.bookings.cancel, { bookingId, reason: "Only testing the chat." });
});
