// @vitest-environment edge-runtime
/**
 * Guessing a 6-digit one-time code: an attacker who knows an account's address asks for reset codes
 * as often as the limits allow and spends every try of each code. Over one day the most they get is
 * (codes a day) × (tries a code) guesses at 10^6 equally likely codes; the drill counts the guesses
 * the server actually let through and checks that this chance stays below 1 in 10,000. It also
 * times passwordReset:request for an address with an account and one without (medians printed):
 * the answers are the same, and the work should be too.
 */
import { beforeAll, expect, test } from "vitest";
import { api } from "../convex/_generated/api";
import { ACCOUNT_CODE } from "../convex/rules/accountCodes";
import { customerSignUp, errorCode, newTest, useAuthEnv } from "../convex/test.setup";

beforeAll(useAuthEnv);

const CODE_SPACE = 10 ** ACCOUNT_CODE.digits;

test("a day of guessing a reset code within the limits succeeds with probability < 1/10,000", async () => {
  const t = newTest();
  const email = "target@example.np";
  await t.action(api.auth.signIn, {
    provider: "customer",
    params: { ...(await customerSignUp(t, email)), phone: "9841234567" },
  });
  const contacts = [email, "9841234567"];
  let guesses = 0;
  let codesIssued = 0;
  // ask through both addresses until the server stops issuing codes (it answers the same either way)
  for (let round = 0; round < 20; round++) {
    const contact = contacts[round % 2]!;
    const asked = await t
      .mutation(api.passwordReset.request, { role: "customer", contact })
      .then(() => true)
      .catch(() => false);
    const live = await t.run((ctx) => ctx.db.query("accountCodes").collect());
    if (!asked || live.length === 0) continue;
    codesIssued += 1;
    // spend every try the code allows, guessing distinct codes the way a systematic attacker would
    for (let attempt = 0; attempt < 10; attempt++) {
      if ((await t.run((ctx) => ctx.db.query("accountCodes").collect())).length === 0) break;
      const guess = String(guesses).padStart(ACCOUNT_CODE.digits, "0");
      guesses += 1;
      const outcome = await t
        .action(api.auth.signIn, {
          provider: "customer",
          params: { flow: "reset", contact, code: guess, newPassword: "attacker-password" },
        })
        .then(() => "in")
        .catch(async (error: unknown) => await errorCode(Promise.reject(error)));
      if (outcome === "in") throw new Error("guessed the code (a 1 in 40,000 chance: run again)");
    }
  }
  const probability = guesses / CODE_SPACE;
  console.log(
    `code guessing: ${codesIssued} codes issued, ${guesses} guesses let through in a day → success probability ${probability} (1 in ${Math.round(1 / probability)})`,
  );
  expect(probability).toBeLessThan(1 / 10_000);
});

test("asking for a code answers alike, in similar time, with and without an account", async () => {
  const t = newTest();
  await t.action(api.auth.signIn, {
    provider: "customer",
    params: { ...(await customerSignUp(t, "known0@example.np")), phone: "9841234500" },
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 40; i++) {
    // a fresh address each time: an address may ask 5 times an hour
    const knownEmail = `known${i}@example.np`;
    if (i > 0)
      await t.run(async (ctx) => {
        const user = (await ctx.db.query("users").first())!;
        await ctx.db.patch("users", user._id, { email: knownEmail });
        for (const row of await ctx.db.query("rateLimits").collect())
          await ctx.db.delete("rateLimits", row._id);
      });
    for (const [contact, times] of [
      [knownEmail, known],
      [`unknown${i}@example.np`, unknown],
    ] as const) {
      const start = performance.now();
      const answer = await t.mutation(api.passwordReset.request, { role: "customer", contact });
      times.push(performance.now() - start);
      expect(answer).toBeNull();
    }
  }
  console.log(
    `reset request medians (convex-test, 40 each): known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms`,
  );
});

/** A customer signed up with `phone`, verified (only a verified phone may sign in by code). */
async function verifiedCustomer(t: ReturnType<typeof newTest>, email: string, phone: string) {
  await t.action(api.auth.signIn, {
    provider: "customer",
    params: { ...(await customerSignUp(t, email)), phone },
  });
  await t.run(async (ctx) => {
    const user = (await ctx.db.query("users").first())!;
    await ctx.db.patch("users", user._id, { phoneVerificationTime: Date.now() });
  });
}

test("a day of guessing a sign-in code by SMS within the limits succeeds with probability < 1/10,000", async () => {
  const t = newTest();
  const phone = "9841234567";
  await verifiedCustomer(t, "target@example.np", phone);
  let guesses = 0;
  let codesIssued = 0;
  for (let round = 0; round < 20; round++) {
    const asked = await t
      .mutation(api.signInCodes.request, { role: "customer", phone })
      .then(() => true)
      .catch(() => false);
    const live = await t.run((ctx) => ctx.db.query("accountCodes").collect());
    if (!asked || live.length === 0) continue;
    codesIssued += 1;
    for (let attempt = 0; attempt < 10; attempt++) {
      if ((await t.run((ctx) => ctx.db.query("accountCodes").collect())).length === 0) break;
      const guess = String(guesses).padStart(ACCOUNT_CODE.digits, "0");
      guesses += 1;
      const outcome = await t
        .action(api.auth.signIn, {
          provider: "customer",
          params: { flow: "code", phone, code: guess },
        })
        .then(() => "in")
        .catch(async (error: unknown) => await errorCode(Promise.reject(error)));
      if (outcome === "in") throw new Error("guessed the code (a 1 in 40,000 chance: run again)");
    }
  }
  const probability = guesses / CODE_SPACE;
  console.log(
    `sign-in code guessing: ${codesIssued} codes issued, ${guesses} guesses let through in a day → success probability ${probability} (1 in ${Math.round(1 / probability)})`,
  );
  expect(probability).toBeLessThan(1 / 10_000);
});

test("asking for a sign-in code, and a wrong code, answer alike in similar time with and without an account", async () => {
  const t = newTest();
  await verifiedCustomer(t, "known@example.np", "9841300000");
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const asked = { known: [] as number[], unknown: [] as number[] };
  const wrong = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < 40; i++) {
    // a fresh number each time: a number may ask 5 times an hour, an account 5 times a day
    const knownPhone = `98413${String(i).padStart(5, "0")}`;
    if (i > 0)
      await t.run(async (ctx) => {
        const user = (await ctx.db.query("users").first())!;
        await ctx.db.patch("users", user._id, { phone: knownPhone });
        for (const row of await ctx.db.query("rateLimits").collect())
          await ctx.db.delete("rateLimits", row._id);
      });
    for (const [phone, kind] of [
      [knownPhone, "known"],
      [`98414${String(i).padStart(5, "0")}`, "unknown"],
    ] as const) {
      let start = performance.now();
      const answer = await t.mutation(api.signInCodes.request, { role: "customer", phone });
      asked[kind].push(performance.now() - start);
      expect(answer).toBeNull();
      start = performance.now();
      const refused = await errorCode(
        t.action(api.auth.signIn, {
          provider: "customer",
          params: { flow: "code", phone, code: "000000" },
        }),
      );
      wrong[kind].push(performance.now() - start);
      // a right guess is a 1 in 10^6 chance
      expect(refused).toBe("INVALID_CODE");
    }
  }
  console.log(
    `sign-in code medians (convex-test, 40 each): request known ${median(asked.known).toFixed(2)} ms, unknown ${median(asked.unknown).toFixed(2)} ms; wrong code known ${median(wrong.known).toFixed(2)} ms, unknown ${median(wrong.unknown).toFixed(2)} ms`,
  );
});
