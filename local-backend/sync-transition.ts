// A Transition as the frames that carry it: one "Transition" message, or "TransitionChunk" messages
// when it is large (protocol.d.ts of `convex/browser`; the client joins the chunks and parses the
// whole). A value goes into the text once per queryId, as the protocol wants, but is held in memory
// once: the frames are cut from a list of shared pieces one chunk at a time, never as one string.
import { outcomeJson, type Outcome } from "./read-tracking/query-cache.ts";

/** A QueryUpdated/QueryFailed (with the outcome) or QueryRemoved modification. */
export type Modification =
  { queryId: number; outcome: Outcome } | { queryId: number; removed: true };

export interface StateVersion {
  querySet: number;
  identity: number;
  ts: bigint;
}

/** The last two timestamps encoded: the Transitions of one flush share their start and end. */
const recentTs: [bigint, string][] = [
  [-1n, ""],
  [-1n, ""],
];

/** A ts as the protocol writes it (8 bytes little-endian, base64). */
export const encodeTs = (ts: bigint) => {
  if (recentTs[0][0] === ts) return recentTs[0][1];
  if (recentTs[1][0] === ts) return recentTs[1][1];
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64LE(ts);
  const text = buf.toString("base64");
  recentTs[1] = recentTs[0];
  recentTs[0] = [ts, text];
  return text;
};

const encodeVersion = (v: StateVersion) =>
  `{"querySet":${v.querySet},"identity":${v.identity},"ts":"${encodeTs(v.ts)}"}`;

/** The Transition's JSON text as consecutive pieces; outcome texts are shared, never copied. */
export function transitionPieces(
  start: StateVersion,
  end: StateVersion,
  modifications: Iterable<Modification>,
): string[] {
  const pieces = [
    `{"type":"Transition","startVersion":${encodeVersion(start)},"endVersion":${encodeVersion(end)},"modifications":[`,
  ];
  let separator = "";
  for (const m of modifications) {
    if ("removed" in m) {
      pieces.push(`${separator}{"type":"QueryRemoved","queryId":${m.queryId}}`);
    } else {
      const type = m.outcome.ok ? "QueryUpdated" : "QueryFailed";
      pieces.push(
        `${separator}{"type":"${type}","queryId":${m.queryId},`,
        outcomeJson(m.outcome),
        "}",
      );
    }
    separator = ",";
  }
  pieces.push("]}");
  return pieces;
}

/** The Transition as one frame when it is at most `chunkChars` long, else null. */
export function singleFrame(pieces: readonly string[], chunkChars: number): string | null {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length <= chunkChars ? pieces.join("") : null;
}

/**
 * The frames of a transition: itself when at most `chunkChars` long, else TransitionChunks of at most
 * `chunkChars` characters of its text (never splitting a surrogate pair), built as they are taken.
 */
export function* transitionFrames(
  pieces: readonly string[],
  chunkChars: number,
  transitionId: string,
): Generator<string> {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  if (length <= chunkChars) {
    yield pieces.join("");
    return;
  }
  let totalParts = 0;
  const counting = cut(pieces, chunkChars, false);
  while (!counting.next().done) totalParts += 1;
  let partNumber = 0;
  for (const chunk of cut(pieces, chunkChars, true)) {
    yield `{"type":"TransitionChunk","chunk":${JSON.stringify(chunk)},"partNumber":${partNumber++},"totalParts":${totalParts},"transitionId":"${transitionId}"}`;
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Consecutive slices of the pieces' concatenation, each at most `size` long (empty strings unless `build`). */
function* cut(pieces: readonly string[], size: number, build: boolean): Generator<string> {
  let parts: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    let from = 0;
    while (piece.length - from > size - length) {
      let to = from + size - length;
      if (isHighSurrogate(piece.charCodeAt(to - 1))) to -= 1;
      if (build) parts.push(piece.slice(from, to));
      yield parts.join("");
      parts = [];
      length = 0;
      from = to;
    }
    if (from === piece.length) continue;
    if (build) parts.push(from === 0 ? piece : piece.slice(from));
    length += piece.length - from;
  }
  if (length > 0) yield parts.join("");
}
