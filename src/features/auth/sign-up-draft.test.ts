import { fireEvent, renderHook } from "@testing-library/react";
import { ConvexError } from "convex/values";
import { describe, expect, it, vi } from "vitest";
import { SIGN_UP_WORK, solveStamp, stampIssuedAt, stampWork } from "@convex/rules/signUpWork";
import { signUpDraftSource, useSignUpDraft } from "@/features/auth/sign-up-draft";

vi.mock("convex/react", () => ({ useMutation: () => async () => ({ draft: "d1" }) }));
vi.mock("@convex/rules/signUpWork", async (original) => {
  const work = await original<typeof import("@convex/rules/signUpWork")>();
  return { ...work, solveStamp: vi.fn(work.solveStamp) };
});

describe("signUpDraftSource", () => {
  it("creates one draft with a solved stamp and keeps it for the uploads and the sign-up", async () => {
    const create = vi.fn(async ({ stamp }: { stamp: string }) => {
      expect(await stampWork(stamp)).toBeGreaterThanOrEqual(SIGN_UP_WORK.bits);
      return { draft: "d1" };
    });
    const source = signUpDraftSource(create);
    source.prepare();
    expect(await Promise.all([source.token(), source.token()])).toEqual(["d1", "d1"]);
    expect(await source.token()).toBe("d1");
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("starts a new draft once the server refuses the old one as spent; keeps it on other refusals", async () => {
    let n = 0;
    const source = signUpDraftSource(async () => ({ draft: `d${++n}` }));
    expect(await source.token()).toBe("d1");
    source.refused(new ConvexError({ code: "EMAIL_TAKEN", message: "taken" }));
    expect(await source.token()).toBe("d1");
    source.refused(new ConvexError({ code: "DRAFT_USED_UP", message: "used up" }));
    expect(await source.token()).toBe("d2");
  });

  it("solves again for the server's time when this device's clock is off", async () => {
    const serverTime = Date.now() + 3 * 60 * 60 * 1000;
    const stamps: string[] = [];
    const create = vi.fn(async ({ stamp }: { stamp: string }) => {
      stamps.push(stamp);
      if (Math.abs(stampIssuedAt(stamp)! - serverTime) > SIGN_UP_WORK.maxAgeMs) {
        throw new ConvexError({ code: "STAMP_EXPIRED", message: "out of date", serverTime });
      }
      return { draft: "d1" };
    });
    expect(await signUpDraftSource(create).token()).toBe("d1");
    expect(stamps).toHaveLength(2);
  });

  it("a failed creation is not kept: the next call tries again", async () => {
    const create = vi
      .fn<(args: { stamp: string }) => Promise<{ draft: string }>>()
      .mockRejectedValueOnce(new ConvexError({ code: "RATE_LIMITED", message: "busy" }))
      .mockResolvedValueOnce({ draft: "d1" });
    const source = signUpDraftSource(create);
    await expect(source.token()).rejects.toThrow();
    expect(await source.token()).toBe("d1");
  });
});

describe("useSignUpDraft", () => {
  it("solves the proof of work once the visitor starts on the form, not while the page loads", () => {
    vi.mocked(solveStamp).mockClear();
    const { unmount } = renderHook(() => useSignUpDraft());
    expect(solveStamp).not.toHaveBeenCalled();
    fireEvent.focusIn(document.body);
    fireEvent.keyDown(document.body, { key: "a" });
    fireEvent.pointerDown(document.body);
    expect(solveStamp).toHaveBeenCalledTimes(1);
    unmount();
  });

  it("starts nothing once the form has gone", () => {
    vi.mocked(solveStamp).mockClear();
    renderHook(() => useSignUpDraft()).unmount();
    fireEvent.focusIn(document.body);
    expect(solveStamp).not.toHaveBeenCalled();
  });
});
