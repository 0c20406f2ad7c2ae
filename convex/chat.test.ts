import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import type { Id } from "./_generated/dataModel";
import { CHAT_LIMITS } from "./rules/chat";
import { RATE_LIMITS } from "./rules/limits";
import {
  bookingRow,
  errorCode,
  errorMessage,
  insertAdmin,
  insertCustomer,
  insertProfessional,
  newTest,
  storeUpload,
  useAuthEnv,
  type TestConvex,
} from "./test.setup";

beforeAll(useAuthEnv);
afterEach(() => vi.useRealTimers());

const page = { numItems: 30, cursor: null };

async function setup(status: "requested" | "accepted" | "completed" = "accepted") {
  const t = newTest();
  const sita = await insertCustomer(t);
  const ram = await insertProfessional(t);
  const gita = await insertCustomer(t, "Gita Rai");
  const hari = await insertProfessional(t, { name: "Hari KC" });
  const admin = await insertAdmin(t);
  const bookingId = await t.run((ctx) =>
    ctx.db.insert("bookings", bookingRow(sita.userId, ram, status)),
  );
  return { t, sita, ram, gita, hari, admin, bookingId };
}

async function texts(
  t: TestConvex,
  as: ReturnType<TestConvex["withIdentity"]>,
  id: Id<"bookings">,
) {
  const result = await as.query(api.chat.messages, { bookingId: id, paginationOpts: page });
  return result.page.map((m) => m.text ?? m.quickReply);
}

describe("who may talk in a booking's conversation", () => {
  test("its customer and professional write and read; others see nothing and cannot write", async () => {
    const { t, sita, ram, gita, hari, admin, bookingId } = await setup();
    await sita.as.mutation(api.chat.send, { bookingId, text: "Which gate?" });
    await ram.as.mutation(api.chat.send, { bookingId, quickReply: "on_my_way" });
    expect(await texts(t, sita.as, bookingId)).toEqual(["on_my_way", "Which gate?"]);
    expect(await texts(t, ram.as, bookingId)).toEqual(["on_my_way", "Which gate?"]);

    for (const stranger of [gita.as, hari.as, admin.as]) {
      expect(await texts(t, stranger, bookingId)).toEqual([]);
      expect(await stranger.query(api.chat.state, { bookingId })).toBeNull();
      expect(await errorCode(stranger.mutation(api.chat.send, { bookingId, text: "hi" }))).toBe(
        "NOT_FOUND",
      );
    }
    expect(await errorCode(t.query(api.chat.messages, { bookingId, paginationOpts: page }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(await errorCode(t.mutation(api.chat.send, { bookingId, text: "hi" }))).toBe(
      "UNAUTHENTICATED",
    );
  });

  test("an admin reads only a reported booking's conversation, and both parties see each reading", async () => {
    const { t, sita, ram, admin, bookingId } = await setup();
    await ram.as.mutation(api.chat.send, { bookingId, text: "Pay me outside the app" });
    expect(await errorCode(admin.as.mutation(api.chat.openAsAdmin, { bookingId }))).toBe(
      "FORBIDDEN",
    );
    const gone = await t.run(async (ctx) => {
      const id = await ctx.db.insert("bookings", bookingRow(sita.userId, ram, "accepted"));
      await ctx.db.delete("bookings", id);
      return id;
    });
    expect(await errorMessage(admin.as.mutation(api.chat.openAsAdmin, { bookingId: gone }))).toBe(
      await errorMessage(admin.as.mutation(api.chat.openAsAdmin, { bookingId })),
    );
    await sita.as.mutation(api.reports.create, {
      bookingId,
      target: "booking",
      category: "other",
      text: "He asked me to pay him outside the app.",
    });
    expect(await texts(t, admin.as, bookingId)).toEqual([]);
    await admin.as.mutation(api.chat.openAsAdmin, { bookingId });
    expect(await texts(t, admin.as, bookingId)).toEqual(["Pay me outside the app"]);
    expect(await errorCode(admin.as.mutation(api.chat.send, { bookingId, text: "hi" }))).toBe(
      "NOT_FOUND",
    );
    for (const party of [sita.as, ram.as]) {
      expect((await party.query(api.chat.state, { bookingId }))?.adminReads).toHaveLength(1);
    }
    expect(await errorCode(sita.as.mutation(api.chat.openAsAdmin, { bookingId }))).toBe(
      "FORBIDDEN",
    );
  });
});

describe("what a message may be", () => {
  test("text up to 2,000 characters, one quick reply or up to 4 photos; anything else changes nothing", async () => {
    const { t, sita, bookingId } = await setup();
    const send = (m: object) => sita.as.mutation(api.chat.send, { bookingId, ...m });
    expect(await errorCode(send({ text: "x".repeat(CHAT_LIMITS.textMaxLength + 1) }))).toBe(
      "MESSAGE_TOO_LONG",
    );
    expect(await errorCode(send({ text: "   " }))).toBe("INVALID_INPUT");
    expect(await errorCode(send({ text: "hi", quickReply: "ok" }))).toBe("INVALID_INPUT");
    const photos = await Promise.all(
      [1, 2, 3, 4, 5].map(() => storeUpload(t, { userId: sita.userId })),
    );
    expect(await errorCode(send({ photos }))).toBe("TOO_MANY_PHOTOS");
    expect(await texts(t, sita.as, bookingId)).toEqual([]);

    await send({ text: "x".repeat(CHAT_LIMITS.textMaxLength) });
    await send({ text: "<script>alert(1)</script> https://evil.example" });
    const sent = await sita.as.mutation(api.chat.send, { bookingId, photos: photos.slice(0, 2) });
    const result = await sita.as.query(api.chat.messages, { bookingId, paginationOpts: page });
    expect(result.page[0]._id).toBe(sent);
    expect(result.page[0].photos).toHaveLength(2);
    expect(result.page[1].text).toBe("<script>alert(1)</script> https://evil.example");
  });

  test("photos must be the sender's own unattached uploads", async () => {
    const { t, sita, ram, bookingId } = await setup();
    const ramsPhoto = await storeUpload(t, { userId: ram.userId });
    expect(
      await errorCode(sita.as.mutation(api.chat.send, { bookingId, photos: [ramsPhoto] })),
    ).toBe("FILE_NOT_YOURS");
    const mine = await storeUpload(t, { userId: sita.userId });
    await sita.as.mutation(api.chat.send, { bookingId, photos: [mine] });
    expect(await errorCode(sita.as.mutation(api.chat.send, { bookingId, photos: [mine] }))).toBe(
      "FILE_IN_USE",
    );
    expect(
      await errorCode(sita.as.mutation(api.chat.send, { bookingId, photos: ["not-an-id"] })),
    ).toBe("FILE_NOT_FOUND");
  });

  test("a photo whose bytes are not an image is removed from its message", async () => {
    vi.useFakeTimers();
    const { t, sita, bookingId } = await setup();
    const fake = await storeUpload(t, { userId: sita.userId }, new TextEncoder().encode("<html>"));
    await sita.as.mutation(api.chat.send, { bookingId, text: "look", photos: [fake] });
    await t.finishAllScheduledFunctions(vi.runAllTimers);
    const result = await sita.as.query(api.chat.messages, { bookingId, paginationOpts: page });
    expect(result.page[0].photos).toEqual([]);
    expect(await t.run((ctx) => ctx.db.system.get("_storage", fake))).toBeNull();
  });

  test("more than 30 messages a minute are refused with a wait", async () => {
    const { sita, bookingId } = await setup();
    for (let i = 0; i < RATE_LIMITS.chatMessage.perUser.max; i++)
      await sita.as.mutation(api.chat.send, { bookingId, text: `m${i}` });
    expect(await errorCode(sita.as.mutation(api.chat.send, { bookingId, text: "one more" }))).toBe(
      "RATE_LIMITED",
    );
  });
});

describe("when a conversation is open", () => {
  test("from the request, until 7 days after the booking ended; then read-only", async () => {
    vi.useFakeTimers();
    const { t, sita, ram, bookingId } = await setup("requested");
    await sita.as.mutation(api.chat.send, { bookingId, text: "Can you come today?" });
    await t.run((ctx) =>
      ctx.db.patch("bookings", bookingId, { status: "completed", updatedAt: Date.now() }),
    );
    vi.advanceTimersByTime(CHAT_LIMITS.openAfterEndMs - 1000);
    await ram.as.mutation(api.chat.send, { bookingId, text: "Thanks!" });
    vi.advanceTimersByTime(2000);
    expect(await errorCode(sita.as.mutation(api.chat.send, { bookingId, text: "late" }))).toBe(
      "CHAT_CLOSED",
    );
    expect(await texts(t, sita.as, bookingId)).toEqual(["Thanks!", "Can you come today?"]);
    const state = await sita.as.query(api.chat.state, { bookingId });
    expect(state?.closesAt).toBeLessThan(Date.now());
  });
});

describe("unread, read and typing", () => {
  test("a message counts as unread for the reader until they read it; the sender then sees it read", async () => {
    const { sita, ram, bookingId } = await setup();
    await sita.as.mutation(api.chat.send, { bookingId, text: "Hello" });
    await sita.as.mutation(api.chat.send, { bookingId, text: "Are you there?" });
    expect(await ram.as.query(api.chat.unread, {})).toEqual([{ bookingId, unread: 2 }]);
    expect(await sita.as.query(api.chat.unread, {})).toEqual([]);
    expect((await sita.as.query(api.chat.state, { bookingId }))!.otherReadUpTo).toBe(0);

    await ram.as.mutation(api.chat.markRead, { bookingId });
    expect(await ram.as.query(api.chat.unread, {})).toEqual([]);
    const after = await sita.as.query(api.chat.state, { bookingId });
    const newest = await sita.as.query(api.chat.messages, { bookingId, paginationOpts: page });
    expect(after!.otherReadUpTo).toBe(newest!.page[0]._creationTime);
  });

  test("typing reaches the other side only, renewed at most every couple of seconds, and ends at send", async () => {
    vi.useFakeTimers();
    const { sita, ram, bookingId } = await setup();
    const typingAt = async () => (await ram.as.query(api.chat.state, { bookingId }))!.otherTypingAt;
    await sita.as.mutation(api.chat.typing, { bookingId });
    const first = await typingAt();
    expect(first).not.toBeNull();
    expect((await sita.as.query(api.chat.state, { bookingId }))!.otherTypingAt).toBeNull();
    await sita.as.mutation(api.chat.typing, { bookingId });
    expect(await typingAt()).toBe(first);
    vi.advanceTimersByTime(CHAT_LIMITS.typingEveryMs);
    await sita.as.mutation(api.chat.typing, { bookingId });
    expect(await typingAt()).toBeGreaterThan(first!);

    await sita.as.mutation(api.chat.send, { bookingId, text: "done" });
    expect(await typingAt()).toBeNull();
  });
});

describe("reporting a message", () => {
  test("only the other side's message can be reported; an upheld report stops its sender writing", async () => {
    const { t, sita, ram, admin, bookingId } = await setup();
    const rude = await ram.as.mutation(api.chat.send, { bookingId, text: "You are an idiot" });
    const own = await sita.as.mutation(api.chat.send, { bookingId, text: "Please be polite" });
    const report = (messageId: Id<"chatMessages">) =>
      sita.as.mutation(api.reports.create, {
        bookingId,
        target: "message",
        messageId,
        category: "rude",
        text: "He insulted me in the chat.",
      });
    expect(await errorCode(report(own))).toBe("NOT_FOUND");
    const reportId = await report(rude);
    const detail = await admin.as.query(api.adminReports.get, { reportId });
    expect(detail?.target).toBe("message");
    expect(detail?.messages?.map((m) => [m.text, m.reported])).toEqual([
      ["You are an idiot", true],
      ["Please be polite", false],
    ]);

    await admin.as.mutation(api.adminReports.resolve, {
      reportId,
      note: "Insults are not allowed.",
      uphold: true,
    });
    expect(await errorCode(ram.as.mutation(api.chat.send, { bookingId, text: "sorry" }))).toBe(
      "CHAT_BLOCKED",
    );
    expect((await ram.as.query(api.chat.state, { bookingId }))!.blocked).toBe(true);
    await sita.as.mutation(api.chat.send, { bookingId, text: "Thank you" });
    expect(await t.run((ctx) => ctx.db.get("reports", reportId))).toMatchObject({ upheld: true });
  });
});
