import { describe, expect, test } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { ACCOUNTS } from "./rules/ledger";
import { PAYOUT_LIMITS } from "./rules/payouts";
import {
  errorCode,
  everyKindOfCaller,
  FIRST_PAGE,
  insertPaidJob,
  insertProfessional,
  proWithPaidJobs,
  type TestConvex,
} from "./test.setup";

/** A professional with Nrs. 1,350 due (a Nrs. 1,500 eSewa job, 10% commission) and an admin. */
const setup = () => proWithPaidJobs([{ rupees: 1500 }]);

const payout = (
  over: Partial<{ amountPaisa: number; reference: string; seenDuePaisa: number }>,
) => ({
  method: "bank" as const,
  reference: "NIC Asia TXN 123456",
  amountPaisa: 100_000,
  seenDuePaisa: 135_000,
  ...over,
});

const entries = (t: TestConvex) => t.run((ctx) => ctx.db.query("ledgerEntries").collect());

/** Every transaction sums to zero; returns the sum of each account. */
async function ledgerInvariants(t: TestConvex) {
  const byTx = new Map<string, number>();
  const byAccount = Object.fromEntries(ACCOUNTS.map((a) => [a, 0])) as Record<string, number>;
  for (const e of await entries(t)) {
    expect(Number.isSafeInteger(e.amountPaisa)).toBe(true);
    byTx.set(e.txId, (byTx.get(e.txId) ?? 0) + e.amountPaisa);
    byAccount[e.account] += e.amountPaisa;
  }
  for (const [txId, sum] of byTx) expect(sum, txId).toBe(0);
  return byAccount;
}

async function dueTo(
  t: TestConvex,
  admin: { as: ReturnType<TestConvex["withIdentity"]> },
  id: Id<"professionals">,
) {
  const { page } = await admin.as.query(api.payouts.balances, FIRST_PAGE);
  return page.find((row) => row.professionalId === id)!.duePaisa;
}

describe("recording a payout", () => {
  test("writes one balanced payout transaction and lowers the balance due by its amount", async () => {
    const { t, pro, admin } = await setup();
    expect(await dueTo(t, admin, pro.professionalId)).toBe(135_000);
    await admin.as.mutation(api.payouts.record, {
      professionalId: pro.professionalId,
      ...payout({}),
    });
    const sums = await ledgerInvariants(t);
    const rows = await entries(t);
    const payoutRows = rows.filter((r) => r.kind === "payout");
    expect(payoutRows.map((r) => [r.account, r.amountPaisa, r.method, r.reference])).toEqual([
      ["professional_earning", 100_000, "bank", "NIC Asia TXN 123456"],
      ["platform_funds", -100_000, "bank", "NIC Asia TXN 123456"],
    ]);
    // the balance shown is the sum of the professional's rows
    expect(await dueTo(t, admin, pro.professionalId)).toBe(35_000);
    expect(-(sums.professional_earning + sums.professional_cash)).toBe(35_000);
    const summary = await pro.as.query(api.earnings.summary, { since: 0 });
    expect(summary).toMatchObject({ dueToThemPaisa: 35_000, paidOutPaisa: 100_000 });
    expect(summary.payouts.map((p) => [p.amountPaisa, p.method])).toEqual([[100_000, "bank"]]);
    const history = await admin.as.query(api.payouts.history, FIRST_PAGE);
    expect(history.page.map((h) => [h.professional, h.admin, h.amountPaisa])).toEqual([
      ["Ram Thapa", "Admin", 100_000],
    ]);
  });

  test("pays the whole balance, and then nothing more", async () => {
    const { t, pro, admin } = await setup();
    const full = payout({ amountPaisa: 135_000 });
    await admin.as.mutation(api.payouts.record, { professionalId: pro.professionalId, ...full });
    expect(await dueTo(t, admin, pro.professionalId)).toBe(0);
    expect(
      await errorCode(
        admin.as.mutation(api.payouts.record, {
          professionalId: pro.professionalId,
          ...payout({ amountPaisa: 1, seenDuePaisa: 0 }),
        }),
      ),
    ).toBe("OVER_BALANCE");
  });

  test("a second click with the balance seen before is refused: one payout only", async () => {
    const { t, pro, admin } = await setup();
    const args = { professionalId: pro.professionalId, ...payout({ amountPaisa: 50_000 }) };
    await admin.as.mutation(api.payouts.record, args);
    expect(await errorCode(admin.as.mutation(api.payouts.record, args))).toBe("BALANCE_CHANGED");
    expect((await entries(t)).filter((r) => r.kind === "payout")).toHaveLength(2);
  });

  test("refuses more than the balance, and a professional who owes the platform", async () => {
    const { t, customer, pro, admin } = await setup();
    expect(
      await errorCode(
        admin.as.mutation(api.payouts.record, {
          professionalId: pro.professionalId,
          ...payout({ amountPaisa: 135_001 }),
        }),
      ),
    ).toBe("OVER_BALANCE");
    const cashPro = await insertProfessional(t, { name: "Cash Only" });
    await insertPaidJob(t, customer.userId, cashPro, { rupees: 1000, method: "cash" });
    expect(await dueTo(t, admin, cashPro.professionalId)).toBe(-10_000);
    expect(
      await errorCode(
        admin.as.mutation(api.payouts.record, {
          professionalId: cashPro.professionalId,
          ...payout({ amountPaisa: 100, seenDuePaisa: -10_000 }),
        }),
      ),
    ).toBe("OVER_BALANCE");
    expect((await entries(t)).filter((r) => r.kind === "payout")).toEqual([]);
  });

  test("refuses negative, zero, fractional and non-number amounts", async () => {
    const { t, pro, admin } = await setup();
    for (const amountPaisa of [-100, 0, 100.5, NaN, Infinity])
      expect(
        await errorCode(
          admin.as.mutation(api.payouts.record, {
            professionalId: pro.professionalId,
            ...payout({ amountPaisa }),
          }),
        ),
      ).toBe("INVALID_AMOUNT");
    expect((await entries(t)).filter((r) => r.kind === "payout")).toEqual([]);
  });

  test("refuses an empty reference and one over 200 bytes, counted in UTF-8", async () => {
    const { t, pro, admin } = await setup();
    const nepali = "क".repeat(Math.floor(PAYOUT_LIMITS.referenceBytes / 3) + 1); // 3 bytes each
    expect(nepali.length).toBeLessThan(PAYOUT_LIMITS.referenceBytes);
    for (const reference of ["   ", "x".repeat(PAYOUT_LIMITS.referenceBytes + 1), nepali])
      expect(
        await errorCode(
          admin.as.mutation(api.payouts.record, {
            professionalId: pro.professionalId,
            ...payout({ reference }),
          }),
        ),
      ).toBe("INVALID_INPUT");
    await admin.as.mutation(api.payouts.record, {
      professionalId: pro.professionalId,
      ...payout({ reference: "क".repeat(66) }),
    });
    expect((await entries(t)).filter((r) => r.kind === "payout")).toHaveLength(2);
  });

  test("an id that is not a professional's is refused and changes nothing", async () => {
    const { t, customer, pro, admin } = await setup();
    await t.run((ctx) => ctx.db.delete("professionals", pro.professionalId));
    expect(
      await errorCode(
        admin.as.mutation(api.payouts.record, {
          professionalId: pro.professionalId,
          ...payout({}),
        }),
      ),
    ).toBe("NOT_FOUND");
    // an id of another table does not pass the validator
    await expect(
      admin.as.mutation(api.payouts.record, {
        professionalId: customer.userId as unknown as Id<"professionals">,
        ...payout({}),
      }),
    ).rejects.toThrow();
    expect(await t.run((ctx) => ctx.db.query("payouts").collect())).toEqual([]);
  });

  test("only admins may record, list balances, see the history or export", async () => {
    const { t, pro } = await setup();
    const callers = await everyKindOfCaller(t);
    for (const [who, as] of Object.entries(callers)) {
      if (who === "admin") continue;
      const expected = who === "visitor" ? "UNAUTHENTICATED" : "FORBIDDEN";
      expect(
        await errorCode(
          as.mutation(api.payouts.record, { professionalId: pro.professionalId, ...payout({}) }),
        ),
      ).toBe(expected);
      expect(await errorCode(as.query(api.payouts.balances, FIRST_PAGE))).toBe(expected);
      expect(await errorCode(as.query(api.payouts.history, FIRST_PAGE))).toBe(expected);
      expect(await errorCode(as.query(api.payouts.ledgerExport, { from: 0, to: 1 }))).toBe(
        expected,
      );
    }
    // the professional cannot pay themselves out either
    expect(
      await errorCode(
        pro.as.mutation(api.payouts.record, { professionalId: pro.professionalId, ...payout({}) }),
      ),
    ).toBe("FORBIDDEN");
    expect(await t.run((ctx) => ctx.db.query("payouts").collect())).toEqual([]);
  });
});

describe("the ledger export", () => {
  test("gives the range's rows oldest first, each transaction whole", async () => {
    const { pro, admin } = await setup();
    await admin.as.mutation(api.payouts.record, {
      professionalId: pro.professionalId,
      ...payout({}),
    });
    const { rows, truncated } = await admin.as.query(api.payouts.ledgerExport, {
      from: Date.now() - 3_600_000,
      to: Date.now() + 1000,
    });
    expect(truncated).toBe(false);
    expect(rows.map((r) => r.kind)).toEqual([
      "payment",
      "payment",
      "job",
      "job",
      "job",
      "payout",
      "payout",
    ]);
    expect(rows.reduce((sum, r) => sum + r.amountPaisa, 0)).toBe(0);
    const none = await admin.as.query(api.payouts.ledgerExport, { from: 0, to: 1 });
    expect(none.rows).toEqual([]);
  });

  test("refuses a backwards range and one over 366 days", async () => {
    const { admin } = await setup();
    for (const [from, to] of [
      [1000, 1000],
      [2000, 1000],
      [0, 367 * 24 * 3_600_000],
      [0.5, 10],
    ])
      expect(await errorCode(admin.as.query(api.payouts.ledgerExport, { from, to }))).toBe(
        "INVALID_INPUT",
      );
  });
});
