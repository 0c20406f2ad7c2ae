import { describe, expect, it } from "vitest";
import { clickTarget, notificationFor, readPushMessage } from "@/app/pwa/push-message";

const request = {
  kind: "booking.requested",
  title: "New booking request",
  body: "Sita Sharma requested House Wiring in Kathmandu.",
  url: "/professional-dashboard?booking=b1",
  bookingId: "b1",
};

describe("push messages in the service worker", () => {
  it("a new request rings until answered, one notification per booking, with Accept and View", () => {
    const { title, options } = notificationFor(readPushMessage(request));
    expect(title).toBe("New booking request");
    expect(options).toMatchObject({
      body: request.body,
      tag: "booking-b1",
      requireInteraction: true,
      data: request,
      actions: [
        { action: "accept", title: "Accept" },
        { action: "view", title: "View" },
      ],
    });
  });

  it("shows the message in the recipient's language, with Accept and View in it too", () => {
    const nepali = { ...request, title: "नयाँ बुकिङ अनुरोध", lang: "ne-NP" };
    const { title, options } = notificationFor(readPushMessage(nepali));
    expect(title).toBe("नयाँ बुकिङ अनुरोध");
    expect(options).toMatchObject({
      lang: "ne-NP",
      actions: [
        { action: "accept", title: "स्वीकार गर्नुहोस्" },
        { action: "view", title: "हेर्नुहोस्" },
      ],
    });
    expect(readPushMessage({ ...request, lang: "fr" }).lang).toBe("en");
  });

  it("status changes have no actions and do not stay on screen", () => {
    const { options } = notificationFor(readPushMessage({ ...request, kind: "booking.accepted" }));
    expect(options).toMatchObject({ requireInteraction: false, tag: "booking-b1" });
    expect(options).not.toHaveProperty("actions");
  });

  it("a chat message has one notification per conversation, apart from the booking's request", () => {
    const chat = {
      kind: "chat.message",
      title: "Sita Sharma",
      body: "Which gate?",
      url: "/bookings/b1/chat",
      bookingId: "b1",
    };
    const { title, options } = notificationFor(readPushMessage(chat));
    expect(title).toBe("Sita Sharma");
    expect(options).toMatchObject({ tag: "chat-b1", renotify: true, requireInteraction: false });
    expect(options).not.toHaveProperty("actions");
    expect(options.tag).not.toBe(notificationFor(readPushMessage(request)).options.tag);
    expect(clickTarget(chat, "")).toBe("/bookings/b1/chat");
  });

  it("money notices collapse apart from the request: one per booking's cash, one for payouts", () => {
    const cash = { kind: "cash.recorded", title: "Confirm", body: "…", url: "/x", bookingId: "b1" };
    const settled = { ...cash, kind: "cash.settled" };
    const payout = {
      ...cash,
      kind: "payout.recorded",
      url: "/professional/earnings",
      bookingId: "",
    };
    const tag = (m: typeof cash) => notificationFor(readPushMessage(m)).options.tag;
    expect(tag(cash)).toBe("cash-b1");
    expect(tag(settled)).toBe("cash-b1");
    expect(tag(cash)).not.toBe(tag(request));
    expect(notificationFor(readPushMessage(payout)).options).toMatchObject({
      tag: "payout",
      renotify: true,
    });
  });

  it("a tap opens the booking; Accept opens it ready to accept", () => {
    expect(clickTarget(request, "")).toBe("/professional-dashboard?booking=b1");
    expect(clickTarget(request, "view")).toBe("/professional-dashboard?booking=b1");
    expect(clickTarget(request, "accept")).toBe("/professional-dashboard?booking=b1&intent=accept");
  });

  it("never leads off the app, and still shows something for an unreadable message", () => {
    for (const url of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:x",
    ])
      expect(clickTarget({ ...request, url }, "")).toBe("/");
    expect(readPushMessage(null)).toMatchObject({ title: "GharSewa", url: "/" });
    expect(readPushMessage({ title: 3, body: "" })).toMatchObject({
      title: "GharSewa",
      body: "Something changed in your bookings.",
    });
  });
});
