import { anyApi } from "convex/server";
import { expect, test, type Actor } from "../../fixtures";
import { png } from "../../env";
import { m, say } from "../../i18n";
import { requestKathmanduBooking, signedInAdmin } from "../../people";

// Demo accounts (convex/model/demoData.ts): each test books and, at its end, cancels. The
// professional's account speaks Nepali, the customer's English.
const PRO = { email: "plumber.kathmandu@demo.np", password: "demo-password-1" };
const CUSTOMER = { email: "customer3@demo.np", password: "demo-password-1" };
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** The demo customer's request to the demo plumber, cancelled by `cancel` when the test is done. */
async function booking() {
  const { bookingId, customer } = await requestKathmanduBooking(
    CUSTOMER,
    PRO,
    { category: "Plumber", serviceName: "Tap & Mixer Repair" },
    5,
  );
  const cancel = () =>
    customer.mutation(anyApi.bookings.cancel, { bookingId, reason: "Only testing the chat." });
  return { bookingId, cancel };
}

/** The two sides, signed in: the customer on a phone in English, the professional at a desk in Nepali. */
async function twoSides(actor: (o?: object) => Promise<Actor>) {
  const customer = await actor({ viewport: PHONE });
  const pro = await actor({ viewport: DESKTOP, locale: "ne-NP" });
  await customer.auth.login(CUSTOMER.email, CUSTOMER.password, "Customer");
  await pro.auth.professionalSignIn(PRO.email, PRO.password);
  return { customer, pro };
}

async function openChat(person: Actor, bookingId: string) {
  await person.page.goto(`/bookings/${bookingId}/chat`);
  await expect(composer(person)).toBeVisible();
}

const composer = (p: Actor) =>
  p.page.getByRole("textbox", { name: say(p.locale, m.chat_message_label) });
const log = (p: Actor) => p.page.getByRole("log", { name: say(p.locale, m.chat_messages_label) });

async function send(person: Actor, text: string) {
  await composer(person).fill(text);
  await person.page.getByRole("button", { name: say(person.locale, m.chat_send) }).click();
}

test.describe("a customer and a professional talk inside their booking", () => {
  test("words, a quick reply in the reader's language, typing, seen and unread counts, live", async ({
    actor,
  }) => {
    const { bookingId, cancel } = await booking();
    const { customer, pro } = await twoSides(actor);
    await openChat(customer, bookingId);

    await composer(customer).pressSequentially("Which gate");
    // the professional is not in the conversation yet: the header counts what waits for them
    await send(customer, "Which gate? <b>Blue</b> one, see https://maps.example/x");
    const unread = pro.page.getByRole("link", {
      name: say("ne-NP", m.chat_header_unread, { count: "१" }),
    });
    await expect(unread).toBeVisible();
    // …and so does the dashboard's tab holding the request
    await expect(
      pro.page
        .getByRole("link", { name: new RegExp(say("ne-NP", m.dash_tab_requests)) })
        .getByText(say("ne-NP", m.dash_tab_unread, { count: "१" })),
    ).toBeVisible();
    await unread.click();
    await expect(
      log(pro).getByText("Which gate? <b>Blue</b> one, see https://maps.example/x"),
    ).toBeVisible();
    await expect(log(pro).getByRole("link")).toHaveCount(0); // a link stays text
    await expect(log(customer).getByText(say("en", m.chat_seen))).toBeVisible();

    await composer(pro).pressSequentially("ठिक");
    await expect(customer.page.getByText(/is typing…/)).toBeVisible();
    await pro.page.getByRole("button", { name: "म आउँदै छु" }).click();
    await expect(log(customer).getByText("On my way")).toBeVisible();
    await expect(log(pro).getByText("म आउँदै छु")).toBeVisible();
    await expect(customer.page.getByText(/is typing…/)).toBeHidden();
    await cancel();
  });

  test("a message written offline waits as 'sending…' and arrives once when the connection returns", async ({
    actor,
  }) => {
    const { bookingId, cancel } = await booking();
    const { customer, pro } = await twoSides(actor);
    await Promise.all([openChat(customer, bookingId), openChat(pro, bookingId)]);

    await customer.page.context().setOffline(true);
    await expect(customer.page.getByText(say("en", m.chat_offline))).toBeVisible();
    await send(customer, "Written in the basement");
    await expect(log(customer).getByText(say("en", m.state_sending))).toBeVisible();
    await expect(log(pro).getByText("Written in the basement")).toHaveCount(0);

    await customer.page.context().setOffline(false);
    await expect(log(pro).getByText("Written in the basement")).toHaveCount(1);
    await expect(log(customer).getByText(say("en", m.state_sending))).toHaveCount(0);
    await expect(log(customer).getByText("Written in the basement")).toHaveCount(1);
    await customer.page.reload();
    await expect(log(customer).getByText("Written in the basement")).toHaveCount(1);
    await cancel();
  });

  test("a photo reaches the other side; a reported message reaches the admin, whose reading both see", async ({
    actor,
  }) => {
    const { bookingId, cancel } = await booking();
    const { customer, pro } = await twoSides(actor);
    await Promise.all([openChat(customer, bookingId), openChat(pro, bookingId)]);

    await customer.page.locator('input[type="file"]').setInputFiles(png("switch.png"));
    await composer(customer).fill("The broken switch");
    await customer.page.getByRole("button", { name: "Send" }).click();
    await expect(
      log(pro).getByRole("img", { name: say("ne-NP", m.chat_photo_alt, { n: "१" }) }),
    ).toBeVisible();

    await send(customer, "Pay me outside the app or I leave a bad review");
    await log(pro)
      .getByRole("listitem")
      .filter({ hasText: "Pay me outside the app" })
      .getByRole("button", { name: say("ne-NP", m.chat_report) })
      .click();
    const dialog = pro.page.getByRole("dialog", { name: say("ne-NP", m.chat_report_title) });
    await dialog.getByLabel(say("ne-NP", m.report_category)).selectOption("rude");
    await dialog
      .getByLabel(say("ne-NP", m.report_details))
      .fill("The customer threatens a bad review unless paid in cash.");
    await dialog.getByRole("button", { name: say("ne-NP", m.report_send) }).click();
    await expect(dialog).toBeHidden();

    const admin = await signedInAdmin(actor);
    await admin.page.goto("/admin/reports");
    await admin.page
      .getByRole("listitem")
      .filter({ hasText: "threatens a bad review" })
      .getByRole("link")
      .click();
    await expect(
      admin.page.getByText("Pay me outside the app or I leave a bad review"),
    ).toBeVisible();
    await admin.page.getByRole("button", { name: "Read the conversation" }).click();
    await expect(log(admin).getByText("The broken switch")).toBeVisible();
    await expect(admin.page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
    await expect(
      customer.page.getByText(/An administrator read this conversation on/),
    ).toBeVisible();
    await cancel();
  });
});
