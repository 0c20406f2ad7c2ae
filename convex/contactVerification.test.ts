import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import { RATE_LIMITS } from "./rules/limits";
import {
  codeIn,
  errorCode,
  insertCustomer,
  insertProfessional,
  newTest,
  outbox,
  type TestConvex,
} from "./test.setup";

const lastTo = async (t: TestConvex, to: string) =>
  (await outbox(t)).filter((message) => message.to === to).at(-1);

describe("verifying an email address or phone number", () => {
  test("a code sent by SMS to the account's own mobile verifies it; the viewer shows it", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    expect(await customer.as.query(api.users.viewer, {})).toMatchObject({
      emailVerified: false,
      phoneVerified: false,
    });
    await customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" });
    const sms = await lastTo(t, "9800000001");
    expect(sms?.channel).toBe("sms");
    const code = codeIn(sms)!;
    const wrong = code === "000000" ? "111111" : "000000";
    expect(
      await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code: wrong }),
    ).toBe(false);
    expect(
      await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code }),
    ).toBe(true);
    expect(await customer.as.query(api.users.viewer, {})).toMatchObject({
      emailVerified: false,
      phoneVerified: true,
    });
    // single-use, and nothing more to send
    expect(
      await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code }),
    ).toBe(false);
    expect(
      await errorCode(customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" })),
    ).toBe("CONTACT_VERIFIED");
  });

  test("an email code goes to the account's address, in the language asked for", async () => {
    const t = newTest();
    const customer = await insertCustomer(t, "Gita Rai");
    const email = (await customer.as.query(api.users.viewer, {}))!.email;
    await customer.as.mutation(api.contactVerification.sendCode, {
      kind: "email",
      language: "ne-NP",
    });
    const mail = await lastTo(t, email);
    expect(mail?.channel).toBe("email");
    expect(mail?.text).toContain("घर सेवा");
    expect(
      await customer.as.mutation(api.contactVerification.confirm, {
        kind: "email",
        code: codeIn(mail)!,
      }),
    ).toBe(true);
    expect(await customer.as.query(api.users.viewer, {})).toMatchObject({ emailVerified: true });
  });

  test("a code dies after 5 wrong tries", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    await customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" });
    const code = codeIn(await lastTo(t, "9800000001"))!;
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++)
      expect(
        await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code: wrong }),
      ).toBe(false);
    expect(
      await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code }),
    ).toBe(false);
  });

  test("codes are limited per account", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    for (let i = 0; i < RATE_LIMITS.accountCode.perAccount.max; i++)
      await customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" });
    expect(
      await errorCode(customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" })),
    ).toBe("RATE_LIMITED");
  });

  test("changing the phone number takes its mark and its code away", async () => {
    const t = newTest();
    const customer = await insertCustomer(t);
    await customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" });
    const code = codeIn(await lastTo(t, "9800000001"))!;
    const profile = { name: "Sita Sharma", address: "Ward 4, Baneshwor", zipCode: "44600" };
    await customer.as.mutation(api.users.updateProfile, { ...profile, phone: "9800000002" });
    expect(
      await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code }),
    ).toBe(false);
    await customer.as.mutation(api.contactVerification.sendCode, { kind: "phone" });
    const second = codeIn(await lastTo(t, "9800000002"))!;
    expect(
      await customer.as.mutation(api.contactVerification.confirm, { kind: "phone", code: second }),
    ).toBe(true);
    await customer.as.mutation(api.users.updateProfile, { ...profile, phone: "9800000002" });
    expect(await customer.as.query(api.users.viewer, {})).toMatchObject({ phoneVerified: true });
    await customer.as.mutation(api.users.updateProfile, { ...profile, phone: "9800000003" });
    expect(await customer.as.query(api.users.viewer, {})).toMatchObject({ phoneVerified: false });
  });

  test("a landline cannot get an SMS code; visitors may not ask", async () => {
    const t = newTest();
    const pro = await insertProfessional(t, { phoneVerified: false });
    await t.run((ctx) => ctx.db.patch("users", pro.userId, { phone: "014123456" }));
    expect(
      await errorCode(pro.as.mutation(api.contactVerification.sendCode, { kind: "phone" })),
    ).toBe("NO_CONTACT");
    expect(await errorCode(t.mutation(api.contactVerification.sendCode, { kind: "phone" }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(
      await errorCode(
        t.mutation(api.contactVerification.confirm, { kind: "phone", code: "123456" }),
      ),
    ).toBe("UNAUTHENTICATED");
  });

  test("the admin's technician card says whether the phone is verified", async () => {
    const t = newTest();
    const admin = await import("./test.setup").then((s) => s.insertAdmin(t));
    const pro = await insertProfessional(t, { phoneVerified: false });
    const row = async () =>
      await admin.as.query(api.admin.technician, { professionalId: pro.professionalId });
    expect(await row()).toMatchObject({ phoneVerified: false });
    await t.run((ctx) => ctx.db.patch("users", pro.userId, { phoneVerificationTime: Date.now() }));
    expect(await row()).toMatchObject({ phoneVerified: true });
  });
});
