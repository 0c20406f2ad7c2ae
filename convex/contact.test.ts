import { expect, test } from "vitest";
import { api } from "./_generated/api";
import { errorCode, errorMessage, insertAdmin, insertCustomer, newTest } from "./test.setup";

const message = { name: "Maya Rai", email: "Maya@Example.np", message: "Do you serve Butwal?" };

test("contact:send from visitors and signed-in users; admins read them", async () => {
  const t = newTest();
  const customer = await insertCustomer(t);
  await t.mutation(api.contact.send, message);
  await customer.as.mutation(api.contact.send, { ...message, phone: "9800000000" });
  const admin = await insertAdmin(t);
  const inbox = await admin.as.query(api.admin.messages, {});
  expect(inbox).toMatchObject([
    { email: "maya@example.np", phone: "9800000000", userId: customer.userId },
    { email: "maya@example.np", phone: null, userId: null },
  ]);
});

test("contact:send validates its input", async () => {
  const t = newTest();
  expect(await errorMessage(t.mutation(api.contact.send, { ...message, email: "maya" }))).toBe(
    "Enter a valid email address.",
  );
  expect(await errorMessage(t.mutation(api.contact.send, { ...message, message: "hi" }))).toBe(
    "Please write a message.",
  );
  expect(
    await errorMessage(t.mutation(api.contact.send, { ...message, message: "x".repeat(2001) })),
  ).toBe("The message may be at most 2000 characters.");
});

test("contact:send takes the form's phone rule: empty or a Nepali number", async () => {
  const t = newTest();
  await t.mutation(api.contact.send, { ...message, phone: "" });
  await t.mutation(api.contact.send, { ...message, phone: "01-4123456" });
  expect(
    await errorMessage(t.mutation(api.contact.send, { ...message, phone: "+1 555 0100" })),
  ).toMatch(/Nepali mobile/);
});

test("admin inbox: unread count, mark handled; other roles are refused", async () => {
  const t = newTest();
  const admin = await insertAdmin(t);
  const customer = await insertCustomer(t);
  await t.mutation(api.contact.send, message);
  await t.mutation(api.contact.send, { ...message, message: "A second question" });
  expect(await admin.as.query(api.admin.unreadMessages, {})).toBe(2);
  const inbox = await admin.as.query(api.admin.messages, { unhandledOnly: true });
  await admin.as.mutation(api.admin.setMessageHandled, {
    messageId: inbox[0]._id,
    handled: true,
  });
  expect(await admin.as.query(api.admin.unreadMessages, {})).toBe(1);
  expect((await admin.as.query(api.admin.messages, {})).length).toBe(2);
  expect(await errorCode(customer.as.query(api.admin.unreadMessages, {}))).toBe("FORBIDDEN");
  expect(
    await errorCode(
      customer.as.mutation(api.admin.setMessageHandled, { messageId: inbox[1]._id, handled: true }),
    ),
  ).toBe("FORBIDDEN");
  expect(await errorCode(t.query(api.admin.messages, {}))).toBe("UNAUTHENTICATED");
});
