/**
 * A professional guessing the customer's start code (rules/startCode.ts), against the backend started
 * as `npm start` starts it, on its real ports, with the access drill's cast (lib/cast-backend.ts): Q
 * has arrived at B's door. Q never sees the code; others' calls on the booking answer as for a missing
 * one and cost no try; Q's parallel wrong guesses get exactly START_CODE.tries answers, then
 * START_CODE_SPENT, even for the right code, and nothing Q does brings a fresh code; only B's tap
 * starts the job. P, whose booking with A is only accepted, cannot start it with any code.
 */
import { makeFunctionReference } from "convex/server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { START_CODE } from "../convex/rules/startCode";
import { refusal, startCastBackend, type CastBackend } from "./lib/cast-backend.ts";

type StartView = { code: string | null; triesLeft: number; spent: boolean } | null;
type BookingView = { status: string; start: StartView } | null;
const getBooking = makeFunctionReference<"query", { bookingId: string }, BookingView>(
  "bookings:get",
);
const start = makeFunctionReference<
  "mutation",
  { bookingId: string; code: string },
  { started: boolean; triesLeft?: number }
>("bookings:start");
const confirmStart = makeFunctionReference<"mutation", { bookingId: string }, null>(
  "bookings:confirmStart",
);
const step = (name: string) =>
  makeFunctionReference<"mutation", { bookingId: string }, null>(`bookings:${name}`);

let run: CastBackend;

beforeAll(async () => {
  run = await startCastBackend("gharsewa-start-code-");
}, 600_000);

afterAll(async () => {
  await run?.stop();
});

test("start codes: guessing stops at the tries allowed, others' bookings answer as missing", async () => {
  const { callers, arriving, booking } = run.cast;
  const b = callers.otherCustomer;
  const q = callers.otherProfessional;
  const failures: string[] = [];
  const view = async () => (await b.query(getBooking, { bookingId: arriving }))!;

  const before = await view();
  const code = before.start?.code;
  if (before.status !== "arrived" || !code)
    throw new Error("B's booking is not waiting at the door");
  const seenByQ = await q.query(getBooking, { bookingId: arriving });
  if (seenByQ?.start?.code !== null) failures.push("the professional's view shows the start code");

  // someone else's booking, or the wrong side of it: refused as a missing one, no try spent
  const foreign = {
    "P guesses on Q's booking": refusal(
      callers.professional.mutation(start, { bookingId: arriving, code }),
    ),
    "A taps start on B's booking": refusal(
      callers.customer.mutation(confirmStart, { bookingId: arriving }),
    ),
    "Q taps the customer's start": refusal(q.mutation(confirmStart, { bookingId: arriving })),
    "B enters a code as a professional": refusal(
      b.mutation(start, { bookingId: arriving, code: "0000" }),
    ),
    "the admin enters the code": refusal(
      callers.admin.mutation(start, { bookingId: arriving, code }),
    ),
  };
  const foreignAnswers: Record<string, string> = {};
  for (const [what, answer] of Object.entries(foreign)) {
    foreignAnswers[what] = await answer;
    if (foreignAnswers[what] === "accepted") failures.push(`${what}: accepted`);
  }
  for (const what of ["P guesses on Q's booking", "A taps start on B's booking"])
    if (foreignAnswers[what] !== "NOT_FOUND")
      failures.push(`${what}: ${foreignAnswers[what]}, not NOT_FOUND`);
  const afterForeign = await view();
  if (afterForeign.status !== "arrived" || afterForeign.start?.triesLeft !== START_CODE.tries)
    failures.push(`others' calls changed the booking: ${JSON.stringify(afterForeign.start)}`);

  // Q guesses 40 wrong codes at once
  const wrong = Array.from({ length: 40 }, (_, i) => String(i).padStart(4, "0")).filter(
    (guess) => guess !== code,
  );
  const answers = await Promise.all(
    wrong.map((guess) =>
      q.mutation(start, { bookingId: arriving, code: guess }).then(
        (answer) => (answer.started ? "started" : "wrong"),
        (error: unknown) => refusalCode(error),
      ),
    ),
  );
  const counted = answers.filter((a) => a === "wrong").length;
  const spentAnswers = answers.filter((a) => a === "START_CODE_SPENT").length;
  if (answers.includes("started")) failures.push("a wrong code started the job");
  if (counted !== START_CODE.tries)
    failures.push(`${counted} wrong codes were answered, not ${START_CODE.tries}`);
  if (counted + spentAnswers !== answers.length)
    failures.push(
      `other answers: ${answers.filter((a) => a !== "wrong" && a !== "START_CODE_SPENT")}`,
    );

  // the right code is too late now; nothing Q may do brings a fresh code
  const rightCode = await refusal(q.mutation(start, { bookingId: arriving, code }));
  if (rightCode !== "START_CODE_SPENT")
    failures.push(`the right code after the tries: ${rightCode}`);
  // (arriving again is a no-op; none of these may issue a fresh code, checked below)
  const stepsAgain: string[] = [];
  for (const name of ["startTrip", "arrive", "accept"])
    stepsAgain.push(`${name} ${await refusal(q.mutation(step(name), { bookingId: arriving }))}`);
  const spent = await view();
  if (spent.status !== "arrived" || spent.start?.spent !== true || spent.start.code !== null)
    failures.push(`after the guesses: ${spent.status} ${JSON.stringify(spent.start)}`);

  // P cannot start A's accepted booking (no arrival, no code) with any code
  const early = await refusal(callers.professional.mutation(start, { bookingId: booking, code }));
  const aBooking = await callers.customer.query(getBooking, { bookingId: booking });
  if (early === "accepted" || aBooking?.status !== "accepted")
    failures.push(`P started A's accepted booking: ${early}, ${aBooking?.status}`);

  // only B's tap starts the job
  await b.mutation(confirmStart, { bookingId: arriving });
  const started = await view();
  if (started.status !== "in_progress") failures.push(`B's tap left it ${started.status}`);

  console.log(
    `start codes: ${wrong.length} parallel wrong guesses → ${counted} answered, ${spentAnswers} ` +
      `START_CODE_SPENT; the right code after them: ${rightCode}; others: ` +
      Object.entries(foreignAnswers)
        .map(([what, answer]) => `${what} ${answer}`)
        .join(", ") +
      `; Q's steps again: ${stepsAgain.join(", ")}; P's start before arriving: ${early}; ` +
      `B's tap: ${started.status}`,
  );
  expect(failures).toEqual([]);
}, 300_000);

function refusalCode(error: unknown): string {
  const data = (error as { data?: { code?: string } }).data;
  return data?.code ?? String(error);
}
