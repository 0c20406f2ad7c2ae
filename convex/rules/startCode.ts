/**
 * The start code: when the professional marks "arrived", the booking gets a random code that only its
 * customer sees; the professional types it to start the job, which shows the right person is at the
 * door. Wrong codes are limited: after `tries` the code is spent and the customer starts the job by
 * tapping a button instead. Server (model/startCodes.ts) and web app read these numbers from here.
 */
export const START_CODE = {
  digits: 4,
  /** Wrong codes the professional may enter before the customer has to confirm the start. */
  tries: 5,
} as const;

const SHAPE = new RegExp(`^\\d{${START_CODE.digits}}$`);

/** Whether `input` looks like a start code at all (4 Latin digits); a malformed one costs no try. */
export function isStartCodeShape(input: string): boolean {
  return SHAPE.test(input);
}

/** Tries left after `wrong` wrong codes. */
export function triesLeft(wrong: number): number {
  return Math.max(0, START_CODE.tries - wrong);
}

/** The code is spent: only the customer's tap starts the job now. */
export function startCodeSpent(wrong: number): boolean {
  return triesLeft(wrong) === 0;
}
