/**
 * The conversation of a booking: its customer and its professional write to each other from the
 * request until a week after the booking ends (rules/chat.ts); an admin may read it only while a report
 * is filed on the booking, and each such reading is recorded and shown to both parties.
 *
 * Messages are text, a quick reply (a key the reader's app words in their language) or photos the
 * sender uploaded (attached like profile photos, checked, served only through these queries). Unread
 * counts and how far each side read live in `chatMembers`; "typing…" in `chatTyping`, apart, so
 * keystrokes re-run only the queries that show them.
 */
import type { PaginationOptions } from "convex/server";
import { internal } from "../_generated/api";
import type { Doc, Id } from "../_generated/dataModel";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { Locale } from "../constants";
import { CHAT_LIMITS, chatClosesAt, QUICK_REPLY_TEXT, type QuickReply } from "../rules/chat";
import { RATE_LIMITS } from "../rules/limits";
import { noticeWords } from "../rules/notificationText";
import { fail } from "./errors";
import { attachOwnFile, urlOf } from "./files";
import { pushToUser } from "./push";
import { consume } from "./rateLimit";

export type Side = "customer" | "professional";

/** How the viewer takes part in a booking's conversation. */
type Seat = { booking: Doc<"bookings">; side: Side | "admin" };

function sideOf(viewer: Doc<"users">, booking: Doc<"bookings">): Side | null {
  if (viewer._id === booking.customerId) return "customer";
  if (viewer._id === booking.professionalUserId) return "professional";
  return null;
}

function otherUserId(booking: Doc<"bookings">, side: Side): Id<"users"> {
  return side === "customer" ? booking.professionalUserId : booking.customerId;
}

async function hasReport(ctx: QueryCtx, bookingId: Id<"bookings">): Promise<boolean> {
  const report = await ctx.db
    .query("reports")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .first();
  return report !== null;
}

async function adminHasOpened(ctx: QueryCtx, bookingId: Id<"bookings">, adminId: Id<"users">) {
  const read = await ctx.db
    .query("chatAdminReads")
    .withIndex("by_bookingId_and_adminId", (q) =>
      q.eq("bookingId", bookingId).eq("adminId", adminId),
    )
    .first();
  return read !== null;
}

/**
 * The viewer's seat at a booking's conversation, or null: a party to it, or an admin who opened it
 * (recorded by `openAsAdmin`) while it has a report. Anyone else's booking reads as missing.
 */
async function seatAt(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<Seat | null> {
  const booking = await ctx.db.get("bookings", bookingId);
  if (booking === null) return null;
  const side = sideOf(viewer, booking);
  if (side !== null) return { booking, side };
  if (
    viewer.role === "admin" &&
    (await hasReport(ctx, bookingId)) &&
    (await adminHasOpened(ctx, bookingId, viewer._id))
  ) {
    return { booking, side: "admin" };
  }
  return null;
}

async function requireParty(ctx: QueryCtx, viewer: Doc<"users">, bookingId: Id<"bookings">) {
  const booking = await ctx.db.get("bookings", bookingId);
  const side = booking === null ? null : sideOf(viewer, booking);
  if (booking === null || side === null) fail("NOT_FOUND", "This booking was not found.");
  return { booking, side };
}

async function memberOf(ctx: QueryCtx, bookingId: Id<"bookings">, userId: Id<"users">) {
  return await ctx.db
    .query("chatMembers")
    .withIndex("by_bookingId_and_userId", (q) => q.eq("bookingId", bookingId).eq("userId", userId))
    .unique();
}

async function upsertMember(
  ctx: MutationCtx,
  bookingId: Id<"bookings">,
  userId: Id<"users">,
  change: (row: Doc<"chatMembers"> | null) => Partial<Doc<"chatMembers">>,
): Promise<void> {
  const row = await memberOf(ctx, bookingId, userId);
  if (row === null) {
    await ctx.db.insert("chatMembers", {
      bookingId,
      userId,
      unread: 0,
      readUpTo: 0,
      ...change(null),
    });
  } else {
    await ctx.db.patch("chatMembers", row._id, change(row));
  }
}

export type NewMessage = { text?: string; quickReply?: QuickReply; photos?: string[] };

/** Refuses what a message may not be, before anything is written. */
function checkContent(m: NewMessage): { text?: string; quickReply?: QuickReply; photos: string[] } {
  const text = m.text?.trim() || undefined;
  const photos = m.photos ?? [];
  if (text !== undefined && m.quickReply !== undefined)
    fail("INVALID_INPUT", "A message is either your own words or a quick reply.");
  if (text === undefined && m.quickReply === undefined && photos.length === 0)
    fail("INVALID_INPUT", "Write a message, pick a quick reply or add a photo.");
  if (text !== undefined && text.length > CHAT_LIMITS.textMaxLength)
    fail(
      "MESSAGE_TOO_LONG",
      `A message may be at most ${CHAT_LIMITS.textMaxLength.toLocaleString("en")} characters.`,
    );
  if (photos.length > CHAT_LIMITS.photosPerMessage)
    fail("TOO_MANY_PHOTOS", `A message may carry at most ${CHAT_LIMITS.photosPerMessage} photos.`);
  if (new Set(photos).size !== photos.length)
    fail("INVALID_INPUT", "The same photo is attached twice.");
  return { text, quickReply: m.quickReply, photos };
}

/** Sends a message from a party to the booking; the other side's unread count and phone follow. */
export async function send(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
  message: NewMessage,
): Promise<Id<"chatMessages">> {
  const { booking, side } = await requireParty(ctx, viewer, bookingId);
  const content = checkContent(message);
  const closesAt = chatClosesAt(booking);
  if (closesAt !== null && closesAt <= Date.now())
    fail("CHAT_CLOSED", "This conversation has ended: it can be read but not written.");
  if ((await memberOf(ctx, bookingId, viewer._id))?.blocked)
    fail("CHAT_BLOCKED", "You can no longer write in this conversation: a report was upheld.");
  await consume(
    ctx,
    {
      action: "chatMessage",
      scope: "perUser",
      actor: viewer._id,
      allowance: RATE_LIMITS.chatMessage.perUser,
    },
    "Too many messages",
  );
  for (const _ of content.photos) {
    await consume(
      ctx,
      {
        action: "chatPhoto",
        scope: "perUser",
        actor: viewer._id,
        allowance: RATE_LIMITS.chatPhoto.perUser,
      },
      "Too many photos",
    );
  }
  const photos: Id<"_storage">[] = [];
  for (const raw of content.photos) {
    const storageId = ctx.db.system.normalizeId("_storage", raw);
    if (storageId === null) fail("FILE_NOT_FOUND", "A photo was not found; please add it again.");
    await attachOwnFile(ctx, storageId, "A photo", { userId: viewer._id }, viewer._id);
    photos.push(storageId);
  }
  const messageId = await ctx.db.insert("chatMessages", {
    bookingId,
    senderId: viewer._id,
    ...(content.text !== undefined ? { text: content.text } : {}),
    ...(content.quickReply !== undefined ? { quickReply: content.quickReply } : {}),
    ...(photos.length > 0 ? { photos } : {}),
  });
  if (photos.length > 0) await ctx.scheduler.runAfter(0, internal.chat.checkPhotos, { messageId });
  const sentAt = (await ctx.db.get("chatMessages", messageId))!._creationTime;
  const readerId = otherUserId(booking, side);
  await upsertMember(ctx, bookingId, viewer._id, () => ({ readUpTo: sentAt }));
  await clearTyping(ctx, bookingId, viewer._id);
  const reader = await memberOf(ctx, bookingId, readerId);
  const alert = (reader?.lastPushAt ?? 0) + CHAT_LIMITS.pushEveryMs <= Date.now();
  await upsertMember(ctx, bookingId, readerId, (row) => ({
    unread: (row?.unread ?? 0) + 1,
    ...(alert ? { lastPushAt: Date.now() } : {}),
  }));
  if (alert) {
    await ctx.scheduler.runAfter(0, internal.chat.alertReader, { messageId, readerId });
  }
  return messageId;
}

/** The words of a message for a phone alert, in the reader's language. */
function alertText(message: Doc<"chatMessages">, lang: Locale): string {
  if (message.quickReply !== undefined)
    return QUICK_REPLY_TEXT[message.quickReply][lang === "ne-NP" ? "ne" : "en"];
  if (message.text !== undefined)
    return message.text.length > 120 ? `${message.text.slice(0, 119)}…` : message.text;
  return noticeWords(lang).chat_photo;
}

/** A phone alert for a new message (at most one per conversation and reader a minute: see send). */
export async function alertReader(
  ctx: MutationCtx,
  messageId: Id<"chatMessages">,
  readerId: Id<"users">,
): Promise<void> {
  const message = await ctx.db.get("chatMessages", messageId);
  if (message === null) return;
  const sender = await ctx.db.get("users", message.senderId);
  await pushToUser(
    ctx,
    readerId,
    (lang) => ({
      kind: "chat.message",
      title: sender?.name || noticeWords(lang).chat_title,
      body: alertText(message, lang),
      url: `/bookings/${encodeURIComponent(message.bookingId)}/chat`,
      bookingId: message.bookingId,
    }),
    CHAT_LIMITS.pushEveryMs * 10,
  );
}

/** One page of a conversation, newest first, as the viewer sees it; none when it is not theirs to read. */
export async function page(
  ctx: QueryCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
  paginationOpts: PaginationOptions,
) {
  const seat = await seatAt(ctx, viewer, bookingId);
  if (seat === null) return { page: [], isDone: true, continueCursor: "" };
  const result = await ctx.db
    .query("chatMessages")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .order("desc")
    .paginate(paginationOpts);
  return {
    ...result,
    page: await Promise.all(
      result.page.map(async (message) => ({
        _id: message._id,
        _creationTime: message._creationTime,
        from: (message.senderId === seat.booking.customerId ? "customer" : "professional") as Side,
        mine: message.senderId === viewer._id,
        text: message.text ?? null,
        quickReply: message.quickReply ?? null,
        photos: await Promise.all((message.photos ?? []).map((id) => urlOf(ctx, id))),
      })),
    ),
  };
}

/**
 * What the conversation's header shows: who is on the other side, whether the viewer may write (and
 * until when), the other side's "typing…" and how far they read, and every admin reading.
 */
export async function state(ctx: QueryCtx, viewer: Doc<"users">, bookingId: Id<"bookings">) {
  const seat = await seatAt(ctx, viewer, bookingId);
  if (seat === null) return null;
  const { booking, side } = seat;
  const [customer, professional, reads] = await Promise.all([
    ctx.db.get("users", booking.customerId),
    ctx.db.get("users", booking.professionalUserId),
    ctx.db
      .query("chatAdminReads")
      .withIndex("by_bookingId_and_adminId", (q) => q.eq("bookingId", bookingId))
      .take(50),
  ]);
  const otherId = side === "admin" ? null : otherUserId(booking, side);
  const [mine, theirs, typing] =
    otherId === null
      ? [null, null, null]
      : await Promise.all([
          memberOf(ctx, bookingId, viewer._id),
          memberOf(ctx, bookingId, otherId),
          ctx.db
            .query("chatTyping")
            .withIndex("by_bookingId_and_userId", (q) =>
              q.eq("bookingId", bookingId).eq("userId", otherId),
            )
            .unique(),
        ]);
  return {
    bookingId,
    status: booking.status,
    services: booking.services.map((s) => s.name),
    side,
    customerName: customer?.name ?? "",
    professionalName: professional?.name ?? "",
    closesAt: chatClosesAt(booking),
    blocked: mine?.blocked === true,
    otherTypingAt: typing?.at ?? null,
    otherReadUpTo: theirs?.readUpTo ?? 0,
    adminReads: reads.map((r) => r._creationTime).sort((a, b) => a - b),
  };
}

/** The viewer has seen the conversation up to its newest message. */
export async function markRead(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  await requireParty(ctx, viewer, bookingId);
  const newest = await ctx.db
    .query("chatMessages")
    .withIndex("by_bookingId", (q) => q.eq("bookingId", bookingId))
    .order("desc")
    .first();
  const member = await memberOf(ctx, bookingId, viewer._id);
  const readUpTo = newest?._creationTime ?? 0;
  if (member !== null && member.unread === 0 && member.readUpTo >= readUpTo) return;
  await upsertMember(ctx, bookingId, viewer._id, (row) => ({
    unread: 0,
    readUpTo: Math.max(row?.readUpTo ?? 0, readUpTo),
  }));
}

/**
 * The viewer is typing. The other side's app shows it for a few seconds after each change of
 * `otherTypingAt` (rules/chat.ts typingShownMs, by its own clock, which need not agree with ours);
 * sending a message ends it at once.
 */
export async function typing(
  ctx: MutationCtx,
  viewer: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  const { booking } = await requireParty(ctx, viewer, bookingId);
  const closesAt = chatClosesAt(booking);
  if (closesAt !== null && closesAt <= Date.now()) return;
  const row = await ctx.db
    .query("chatTyping")
    .withIndex("by_bookingId_and_userId", (q) =>
      q.eq("bookingId", bookingId).eq("userId", viewer._id),
    )
    .unique();
  const at = Date.now();
  if (row !== null && at - row.at < CHAT_LIMITS.typingEveryMs / 2) return; // a burst of reports
  if (row === null) await ctx.db.insert("chatTyping", { bookingId, userId: viewer._id, at });
  else await ctx.db.patch("chatTyping", row._id, { at });
}

/** The sender's "typing…" ends with their message. */
async function clearTyping(ctx: MutationCtx, bookingId: Id<"bookings">, userId: Id<"users">) {
  const row = await ctx.db
    .query("chatTyping")
    .withIndex("by_bookingId_and_userId", (q) => q.eq("bookingId", bookingId).eq("userId", userId))
    .unique();
  if (row !== null) await ctx.db.delete("chatTyping", row._id);
}

/** Conversations with messages the viewer has not read, and how many (the header sums them). */
export async function unreadCounts(ctx: QueryCtx, viewer: Doc<"users">) {
  const rows = await ctx.db
    .query("chatMembers")
    .withIndex("by_userId_and_unread", (q) => q.eq("userId", viewer._id).gt("unread", 0))
    .take(100);
  return rows.map((r) => ({ bookingId: r.bookingId, unread: r.unread }));
}

/**
 * An admin opens a booking's conversation: allowed only while the booking has a report, and recorded,
 * which both parties then see in their conversation.
 */
export async function openAsAdmin(
  ctx: MutationCtx,
  admin: Doc<"users">,
  bookingId: Id<"bookings">,
): Promise<void> {
  // a missing booking has no report either: the same answer
  if (!(await hasReport(ctx, bookingId)))
    fail("FORBIDDEN", "A conversation can be read only while its booking is reported or disputed.");
  await ctx.db.insert("chatAdminReads", { bookingId, adminId: admin._id });
}

/** The messages around a reported one, for the admin's report page (oldest first). */
export async function context(ctx: QueryCtx, messageId: Id<"chatMessages">) {
  const message = await ctx.db.get("chatMessages", messageId);
  if (message === null) return null;
  const around = (order: "asc" | "desc") =>
    ctx.db
      .query("chatMessages")
      .withIndex("by_bookingId", (q) =>
        order === "desc"
          ? q.eq("bookingId", message.bookingId).lt("_creationTime", message._creationTime)
          : q.eq("bookingId", message.bookingId).gt("_creationTime", message._creationTime),
      )
      .order(order)
      .take(3);
  const [before, after] = await Promise.all([around("desc"), around("asc")]);
  const shown = (m: Doc<"chatMessages">) => ({
    _id: m._id,
    _creationTime: m._creationTime,
    senderId: m.senderId,
    reported: m._id === messageId,
    text: m.text ?? null,
    quickReply: m.quickReply ?? null,
    photoCount: m.photos?.length ?? 0,
  });
  return [...before.reverse(), message, ...after].map(shown);
}

/** A report on a message was upheld: its sender may no longer write in that conversation. */
export async function blockSender(ctx: MutationCtx, messageId: Id<"chatMessages">): Promise<void> {
  const message = await ctx.db.get("chatMessages", messageId);
  if (message === null) return;
  await upsertMember(ctx, message.bookingId, message.senderId, () => ({ blocked: true }));
}

/** Removes a photo that turned out not to be an image from its message. */
export async function dropPhoto(
  ctx: MutationCtx,
  messageId: Id<"chatMessages">,
  storageId: Id<"_storage">,
): Promise<void> {
  const message = await ctx.db.get("chatMessages", messageId);
  if (message === null) return;
  const photos = (message.photos ?? []).filter((id) => id !== storageId);
  await ctx.db.patch("chatMessages", messageId, { photos: photos.length > 0 ? photos : undefined });
}
