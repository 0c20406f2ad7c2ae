import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { noticeText } from "./rules/notificationText";
import {
  type Caller,
  errorCode,
  everyKindOfCaller,
  FIRST_PAGE,
  insertPaidJob,
  insertProfessional,
  ledgerSums,
  noticesOf,
  proWithPaidJobs,
  type TestConvex,
} from "./test.setup";

/** A professional who owes Nrs. 300: three Nrs. 1,000 cash jobs at 10% commission; and an admin. */
const setup = () =>
  proWithPaidJobs(Array.from({ length: 3 }, () => ({ rupees: 1000, method: "cash" as const })));

const settlement = (
  professionalId: Id<"professionals">,
  over: Partial<{ amountPaisa: number; reference: string; method: "cash" | "esewa" }> = {},
) => ({
  professionalId,
  method: "cash" as const,
  reference: "Receipt 0042",
  amountPaisa: 10_000,
  ...over,
});

const settlementRows = (t: TestConvex) =>
  t.run(async (ctx) =>
    (await ctx.db.query("ledgerEntries").collect()).filter((r) => r.kind === "settlement"),
  );

async function dueTo(admin: Caller, id: Id<"professionals">) {
  const { page } = await admin.query(api.payouts.balances, FIRST_PAGE);
  return page.find((row) => row.professionalId === id)!.duePaisa;
}

describe("recording cash commission received from a professional", () => {
  test("posts one balanced settlement, lowers what they owe and tells them in both languages", async () => {
    const { t, pro, admin } = await setup();
    expect(await dueTo(admin.as, pro.professionalId)).toBe(-30_000);
    const before = await pro.as.query(api.earnings.summary, { since: 0 });
    expect(before).toMatchObject({ owedByThemPaisa: 30_000, dueToThemPaisa: 0, settledPaisa: 0 });

    const result = await admin.as.mutation(
      api.settlements.record,
      settlement(pro.professionalId, { amountPaisa: 12_050 }),
    );
    expect(result.duplicate).toBe(false);

    expect(
      (await settlementRows(t)).map((r) => [r.account, r.amountPaisa, r.method, r.reference]),
    ).toEqual([
      ["platform_funds", 12_050, "cash", "Receipt 0042"],
      ["professional_cash", -12_050, "cash", "Receipt 0042"],
    ]);
    const { unbalanced, byAccount } = await ledgerSums(t);
    expect(unbalanced).toEqual([]);
    // what they owe is the sum of their rows: 3 × Nrs. 1,000 held, Nrs. 2,700 earned, 120.50 handed over
    expect(0 - (byAccount.professional_earning + byAccount.professional_cash)).toBe(-17_950);
    expect(await dueTo(admin.as, pro.professionalId)).toBe(-17_950);

    const after = await pro.as.query(api.earnings.summary, { since: 0 });
    expect(after).toMatchObject({ owedByThemPaisa: 17_950, settledPaisa: 12_050 });
    expect(after.settlements.map((s) => [s.amountPaisa, s.method, s.reference])).toEqual([
      [12_050, "cash", "Receipt 0042"],
    ]);
    const history = await admin.as.query(api.settlements.history, FIRST_PAGE);
    expect(history.page.map((h) => [h.professional, h.admin, h.amountPaisa])).toEqual([
      ["Ram Thapa", "Admin", 12_050],
    ]);

    const notice = (await noticesOf(t, pro.userId)).find((n) => n.kind === "settlement.recorded")!;
    expect(noticeText("en", notice)).toEqual({
      title: "Cash commission received",
      body: "GharSewa received Nrs. 120.50 of the commission you owed on cash jobs (cash, reference Receipt 0042).",
    });
    expect(noticeText("ne-NP", notice).title).toBe("नगद कमिसन प्राप्त भयो");
    expect(noticeText("ne-NP", notice).body).toContain("रु. १२०.५०");
  });

  test("settles everything owed, then nothing more", async () => {
    const { t, pro, admin } = await setup();
    await admin.as.mutation(
      api.settlements.record,
      settlement(pro.professionalId, { amountPaisa: 30_000 }),
    );
    expect(await dueTo(admin.as, pro.professionalId)).toBe(0);
    expect(
      await errorCode(
        admin.as.mutation(
          api.settlements.record,
          settlement(pro.professionalId, { amountPaisa: 1, reference: "Receipt 0043" }),
        ),
      ),
    ).toBe("OVER_OWED");
    expect(await settlementRows(t)).toHaveLength(2);
  });

  test("refuses more than is owed, and a professional who owes nothing", async () => {
    const { t, customer, pro, admin } = await setup();
    expect(
      await errorCode(
        admin.as.mutation(
          api.settlements.record,
          settlement(pro.professionalId, { amountPaisa: 30_001 }),
        ),
      ),
    ).toBe("OVER_OWED");
    const walletPro = await insertProfessional(t, { name: "Wallet Only" });
    await insertPaidJob(t, customer.userId, walletPro, { rupees: 1000, method: "esewa" });
    expect(
      await errorCode(
        admin.as.mutation(
          api.settlements.record,
          settlement(walletPro.professionalId, { amountPaisa: 100 }),
        ),
      ),
    ).toBe("OVER_OWED");
    expect(await settlementRows(t)).toEqual([]);
  });

  test("what is due to them is set against what they owe: only the net is settled", async () => {
    const { t, customer, pro, admin } = await setup();
    // a Nrs. 2,000 eSewa job: Nrs. 1,800 due to them against Nrs. 300 owed → Nrs. 1,500 due
    await insertPaidJob(t, customer.userId, pro, { rupees: 2000, method: "esewa" });
    expect(await dueTo(admin.as, pro.professionalId)).toBe(150_000);
    expect(
      await errorCode(admin.as.mutation(api.settlements.record, settlement(pro.professionalId))),
    ).toBe("OVER_OWED");
    expect(await pro.as.query(api.earnings.summary, { since: 0 })).toMatchObject({
      dueToThemPaisa: 150_000,
      owedByThemPaisa: 0,
    });
  });

  test("refuses negative, zero, fractional and non-number amounts", async () => {
    const { t, pro, admin } = await setup();
    for (const amountPaisa of [-100, 0, 100.5, NaN, Infinity])
      expect(
        await errorCode(
          admin.as.mutation(
            api.settlements.record,
            settlement(pro.professionalId, { amountPaisa }),
          ),
        ),
      ).toBe("INVALID_AMOUNT");
    for (const reference of ["  ", "x".repeat(201)])
      expect(
        await errorCode(
          admin.as.mutation(api.settlements.record, settlement(pro.professionalId, { reference })),
        ),
      ).toBe("INVALID_INPUT");
    expect(await settlementRows(t)).toEqual([]);
  });

  test("the same reference again records nothing; for another settlement it is refused", async () => {
    const { t, pro, admin } = await setup();
    const args = settlement(pro.professionalId);
    const first = await admin.as.mutation(api.settlements.record, args);
    const again = await admin.as.mutation(api.settlements.record, {
      ...args,
      reference: ` ${args.reference} `,
    });
    expect(again).toEqual({ settlementId: first.settlementId, duplicate: true });
    expect(await settlementRows(t)).toHaveLength(2);
    expect(await dueTo(admin.as, pro.professionalId)).toBe(-20_000);
    expect(
      await errorCode(admin.as.mutation(api.settlements.record, { ...args, amountPaisa: 5_000 })),
    ).toBe("REFERENCE_USED");
    // the same reference by another method is another transfer
    await admin.as.mutation(api.settlements.record, { ...args, method: "esewa" });
    expect(await settlementRows(t)).toHaveLength(4);
    expect((await ledgerSums(t)).unbalanced).toEqual([]);
  });

  test("an id that is not a professional's is refused and changes nothing", async () => {
    const { t, pro, admin } = await setup();
    await t.run((ctx) => ctx.db.delete("professionals", pro.professionalId));
    expect(
      await errorCode(admin.as.mutation(api.settlements.record, settlement(pro.professionalId))),
    ).toBe("NOT_FOUND");
    expect(await t.run((ctx) => ctx.db.query("settlements").collect())).toEqual([]);
  });

  test("only admins may record or list settlements; the professional cannot settle their own", async () => {
    const { t, pro } = await setup();
    const callers = await everyKindOfCaller(t);
    const refused: [string, Caller | TestConvex][] = [
      ...Object.entries(callers).filter(([who]) => who !== "admin"),
      ["the owing professional", pro.as],
    ];
    for (const [who, as] of refused) {
      const expected = who === "visitor" ? "UNAUTHENTICATED" : "FORBIDDEN";
      expect(
        await errorCode(as.mutation(api.settlements.record, settlement(pro.professionalId))),
        who,
      ).toBe(expected);
      expect(await errorCode(as.query(api.settlements.history, FIRST_PAGE)), who).toBe(expected);
    }
    expect(await t.run((ctx) => ctx.db.query("settlements").collect())).toEqual([]);
    expect(await settlementRows(t)).toEqual([]);
  });
});
