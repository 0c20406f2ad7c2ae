/**
 * Hostile clients (short version; `npm run drills` sends 5,000 inputs and reads slowly for 60 s):
 * the backend runs as `npm start` runs it, in a child process on loopback, and is attacked on its
 * real ports (drills/lib/hostile.ts).
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  HostileSession,
  SHORT_SIZE,
  floodPart,
  fuzzPart,
  idsPart,
  pushPart,
  reviewsPart,
  salvagePart,
  signInPart,
  slowReaderPart,
  uploadPart,
  type PartResult,
} from "./lib/hostile.ts";

const chromiumPath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
let session: HostileSession;

beforeAll(async () => {
  session = await HostileSession.start();
}, 120_000);

afterAll(async () => {
  await session?.close();
});

function check(result: PartResult) {
  console.log(`hostile ${result.name}: ${result.line}`);
  expect(result.failures).toEqual([]);
  expect(result.ok).toBe(true);
}

test("hostile ids: neighbours of fresh ids and refresh tokens are never hits", async () => {
  check(await idsPart(session, SHORT_SIZE));
}, 120_000);

test.skipIf(!existsSync(chromiumPath))(
  "hostile upload: a script sent as image/gif;x=y, text/html does not run in Chromium",
  async () => check(await uploadPart(session)),
  60_000,
);

test("hostile fuzz: no frame, request or upgrade stops the backend", async () => {
  check(await fuzzPart(session, SHORT_SIZE));
}, 120_000);

test("hostile flood: subscription floods do not stall another client", async () => {
  check(await floodPart(session, SHORT_SIZE));
}, 120_000);

test("hostile slow reader: sockets that never read are closed, memory stays bounded", async () => {
  check(await slowReaderPart(session, SHORT_SIZE));
}, 120_000);

test("hostile sign-in: sign-ins with made-up emails do not stall another client", async () => {
  check(await signInPart(session, SHORT_SIZE));
}, 120_000);

test("hostile reviews: a professional's five stars through their own customer account count for nothing", async () => {
  check(await reviewsPart(session, SHORT_SIZE));
}, 120_000);

test("hostile push: endpoints pointing inside and redirects reach nothing internal", async () => {
  check(await pushPart());
}, 180_000);

test("hostile salvage: a flipped byte mid-log refuses to start; --salvage loses that record only", async () => {
  check(await salvagePart(SHORT_SIZE));
}, 120_000);
