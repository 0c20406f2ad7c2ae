// A Transition's frames: small ones whole, large ones as TransitionChunks that join back to the same text.
import { describe, expect, it } from "vitest";
import { transitionFrames, transitionPieces, type Modification } from "../sync-transition.ts";

const start = { querySet: 0, identity: 0, ts: 0n };
const end = { querySet: 1, identity: 0, ts: 5n };
const outcome = { ok: true as const, value: { text: "a😀é😀😀" }, logLines: [], journal: null };
const modifications: Modification[] = [
  ...Array.from({ length: 20 }, (_, queryId) => ({ queryId, outcome })),
  { queryId: 99, removed: true },
];

describe("transition frames", () => {
  it("a transition up to the chunk size is one Transition message", () => {
    const pieces = transitionPieces(start, end, modifications);
    const frames = [...transitionFrames(pieces, 1_000_000, "1")];
    expect(frames).toHaveLength(1);
    const transition = JSON.parse(frames[0]);
    expect(transition.type).toBe("Transition");
    expect(transition.endVersion).toEqual({ querySet: 1, identity: 0, ts: "BQAAAAAAAAA=" });
    expect(transition.modifications).toHaveLength(21);
    expect(transition.modifications[3]).toEqual({
      type: "QueryUpdated",
      queryId: 3,
      value: { text: "a😀é😀😀" },
      logLines: [],
      journal: null,
    });
    expect(transition.modifications[20]).toEqual({ type: "QueryRemoved", queryId: 99 });
  });

  it.each([2, 3, 7, 64])(
    "chunks of %i characters join back to the transition and never split a surrogate pair",
    (size) => {
      const pieces = transitionPieces(start, end, modifications);
      const whole = pieces.join("");
      const chunks = [...transitionFrames(pieces, size, "t")].map((f) => JSON.parse(f));
      expect(chunks.every((c) => c.type === "TransitionChunk" && c.transitionId === "t")).toBe(
        true,
      );
      expect(chunks.map((c) => c.partNumber)).toEqual(chunks.map((_, i) => i));
      expect(chunks.every((c) => c.totalParts === chunks.length)).toBe(true);
      expect(chunks.every((c) => c.chunk.length > 0 && c.chunk.length <= size)).toBe(true);
      expect(chunks.some((c) => /[\ud800-\udbff]$/.test(c.chunk))).toBe(false);
      expect(chunks.map((c) => c.chunk).join("")).toBe(whole);
    },
  );
});
