/**
 * Calls of the access drill, watched: every table is read before and after (with the scheduled
 * functions the calls started that are due), each change is held against what the caller may change,
 * and every answer is searched for canaries the caller may not see.
 *
 * Reading every table is most of the drill's time, so a run of consecutive calls by the same caller
 * with the same allowance is read once, after the run: a change any of them may make is allowed
 * whichever made it, and one none of them may make fails, naming the calls whose request carried the
 * changed document's id (or all of them). Queries are not watched for changes: Convex gives a query
 * no way to write.
 */
import { LIVE_WINDOW_MS } from "../../convex/model/locations";
import { leaked, type Canary, type Viewer } from "./canaries";
import { diff, type Change, type Snapshot, type StoredDoc } from "./db-snapshot";
import { ownersOf, permitted, type WriteScope } from "./ownership";

export type Answer = {
  /** "ok", an error code ("NOT_FOUND"), an error's first line, or an HTTP status ("404"). */
  outcome: string;
  /** Everything the caller got back: the result, or the error's message and data; the body. */
  text: string;
};

export type Call = {
  label: string;
  viewer: Viewer;
  /** What the caller may change; empty when the call is not theirs to make. */
  writes: Partial<Record<string, WriteScope>>;
  /** Nothing may change whatever `writes` says (a refresh token that was never issued). */
  strict?: boolean;
  /** The request as sent: canaries in it are the caller's own. */
  sent: string;
  /** A query: only its answer is searched. */
  readOnly?: boolean;
};

export type Watched = Answer & { problems: string[] };

export class CallWatcher {
  private last: Snapshot | undefined;
  /** The run of calls since `last`, all with the same caller and allowance. */
  private run: Call[] = [];
  private runKey = "";
  /** Document changes checked so far. */
  changes = 0;

  constructor(
    /** Every document, once the scheduled functions due now have run (db-snapshot.ts, data-dir.ts). */
    private readonly read: () => Promise<Snapshot>,
    private readonly canaries: Canary[],
    private readonly nameOf: (userId: string) => string,
  ) {}

  /** Runs `call`; its leaks now, and the changes of the run it ended (if any). */
  async watch(call: Call, send: () => Promise<Answer>): Promise<Watched> {
    const key = JSON.stringify([call.viewer, call.writes, call.strict === true]);
    const problems = call.readOnly || key === this.runKey ? [] : await this.flush();
    if (!call.readOnly) {
      this.last ??= await this.read();
      this.run.push(call);
      this.runKey = key;
    }
    const answer = await send();
    problems.push(
      ...leaked(answer.text, call.sent, this.canaries, call.viewer).map(
        (c) => `${call.label}: leaked ${c.label} (${c.value})`,
      ),
    );
    return { ...answer, problems };
  }

  /** Forgets the last snapshot: after `flush`, when the drill itself changed documents. */
  resync(): void {
    this.last = undefined;
  }

  /** Checks the changes of the current run; call before anything else touches the database. */
  async flush(): Promise<string[]> {
    const calls = this.run;
    this.run = [];
    this.runKey = "";
    if (calls.length === 0 || this.last === undefined) return [];
    const before = this.last;
    const after = await this.read();
    this.last = after;
    const changes = diff(before, after);
    this.changes += changes.length;
    const { viewer, writes, strict } = calls[0];
    return changes
      .filter((c) => !backgroundWork(c, changes))
      .filter(
        (c) => strict === true || !permitted(c, writes[c.table], viewer.userId, before, after),
      )
      .map((change) => {
        const carried = calls.filter((c) => c.sent.includes(change.id));
        const suspects = (carried.length > 0 ? carried : calls).map((c) => c.label);
        const by =
          suspects.length === 1
            ? suspects[0]
            : `one of ${suspects.length} calls: ${suspects.slice(0, 4).join("; ")}${suspects.length > 4 ? "; …" : ""}`;
        return `${this.describe(change, before, after)} not allowed, by ${by}`;
      });
  }

  private describe(change: Change, before: Snapshot, after: Snapshot): string {
    const rows = change.kind === "insert" ? after : before;
    const owners = [...ownersOf(change.id, rows)].map(this.nameOf);
    const fields =
      change.kind === "patch"
        ? ` [${changedFields(change.before!, change.after!)
            .map(
              (k) =>
                `${k}: ${JSON.stringify(change.before![k])?.slice(0, 60)} → ${JSON.stringify(change.after![k])?.slice(0, 60)}`,
            )
            .join("; ")}]`
        : "";
    return `${change.kind} ${change.table} ${change.id} (${owners.length === 0 ? "nobody's" : owners.join("+") + "'s"})${fields}`;
  }
}

/**
 * What the app's timers change whoever is calling, when a slow run lets them come due: the scheduler
 * moving a job on (running, done, failed — not cancelled, which a function does), a push delivery's
 * result on its subscription, presence's check marking someone offline, the cron's sweep of
 * positions past the live window with their map markers (crons.ts), and a "nearest now" search
 * moving on when an offer's time runs out or the search's own does (dispatch:timeOut, dispatch:giveUp)
 * — with the offers, alerts and timers that follow from it.
 */
export function backgroundWork(change: Change, all: readonly Change[] = []): boolean {
  const fields = change.kind === "patch" ? changedFields(change.before!, change.after!) : [];
  switch (change.table) {
    case "_scheduled_functions": {
      const state = (change.after?.state as { kind?: string } | undefined)?.kind ?? "";
      if (change.kind === "insert") {
        // a re-offer's own timer
        const args = JSON.stringify(change.after!.args);
        return all.some((o) => reOffer(o, all) && args.includes(o.id));
      }
      return (
        change.kind === "patch" &&
        ["inProgress", "success", "failed"].includes(state) &&
        fields.every((k) => k === "state" || k === "completedTime")
      );
    }
    case "pushSubscriptions":
      return change.kind === "patch" && fields.every((k) => k === "lastResult");
    case "presence":
      return (
        change.kind === "patch" &&
        fields.every((k) => k === "online") &&
        change.after!.online === false
      );
    case "liveLocations":
      return (
        change.kind === "delete" &&
        (change.before!.updatedAt as number) < Date.now() - LIVE_WINDOW_MS
      );
    // the sweep deletes a swept position's map marker with it
    case "mapMarkers":
      return (
        change.kind === "delete" &&
        all.some(
          (c) =>
            c.table === "liveLocations" &&
            c.before?.professionalId === change.before!.professionalId &&
            backgroundWork(c),
        )
      );
    case "dispatchOffers":
    case "dispatchRequests":
    case "notifications":
      return dispatchTimerWork(change, all);
    default:
      return false;
  }
}

/** An offer past its time, marked so by its timer. */
function lapsedOffer(c: Change): boolean {
  return (
    c.table === "dispatchOffers" &&
    c.kind === "patch" &&
    c.after!.status === "timed_out" &&
    (c.before!.expiresAt as number) <= Date.now() &&
    changedFields(c.before!, c.after!).every((k) => k === "status" || k === "answeredAt")
  );
}

/** A search ended unmatched by its time limit, or after its last offer lapsed. */
function lapsedSearch(c: Change, all: readonly Change[]): boolean {
  return (
    c.table === "dispatchRequests" &&
    c.kind === "patch" &&
    c.after!.status === "unmatched" &&
    changedFields(c.before!, c.after!).every((k) => k === "status" || k === "updatedAt") &&
    ((c.before!.deadline as number) <= Date.now() ||
      all.some((o) => lapsedOffer(o) && o.before!.requestId === c.id))
  );
}

/** The next nearest offered the search after an offer lapsed. */
function reOffer(c: Change, all: readonly Change[]): boolean {
  return (
    c.table === "dispatchOffers" &&
    c.kind === "insert" &&
    all.some((o) => lapsedOffer(o) && o.before!.requestId === c.after!.requestId)
  );
}

function dispatchTimerWork(change: Change, all: readonly Change[]): boolean {
  if (lapsedOffer(change) || lapsedSearch(change, all) || reOffer(change, all)) return true;
  const doc = change.after;
  if (change.kind !== "insert" && change.kind !== "patch") return false;
  switch (change.table) {
    // a lapsed search's open offers are withdrawn
    case "dispatchOffers":
      return (
        change.kind === "patch" &&
        doc!.status === "withdrawn" &&
        all.some((r) => lapsedSearch(r, all) && r.id === change.before!.requestId)
      );
    // the next nearest is told of the offer; the customer of a lapsed search that nobody took
    case "notifications":
      return (
        change.kind === "insert" &&
        ((doc!.kind === "dispatch.offered" &&
          all.some((o) => reOffer(o, all) && o.after!.professionalUserId === doc!.userId)) ||
          (doc!.kind === "dispatch.unmatched" &&
            all.some((r) => lapsedSearch(r, all) && r.before!.customerId === doc!.userId)))
      );
    default:
      return false;
  }
}

/** The top-level fields that differ between two versions of a document. */
export function changedFields(before: StoredDoc, after: StoredDoc): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
}

/** The code of a ConvexError, or the first line of any other error. */
export function errorAnswer(error: unknown): Answer {
  const raw = (error as { data?: unknown }).data;
  let data = raw;
  if (typeof raw === "string") {
    try {
      data = JSON.parse(raw) as unknown;
    } catch {
      data = raw;
    }
  }
  // Convex starts every error it reports with "[Request ID: <hex>] Server Error": an internal error
  // has nothing after it. The id differs per call, so it is left out of the answer.
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /\[Request ID: [0-9a-f]+\] /g,
    "",
  );
  const detail = message.replace(/^Server Error\n?/, "");
  const code =
    typeof data === "object" && data !== null && "code" in data ? String(data.code) : undefined;
  return {
    outcome: code ?? (detail.trim() === "" ? INTERNAL_ERROR : detail.split("\n")[0]),
    text: `${message} ${raw === undefined ? "" : JSON.stringify(raw)}`,
  };
}

/** The outcome of an error the backend reports as its own, with no detail. */
export const INTERNAL_ERROR = "Server Error";

type Kind = "query" | "mutation" | "action";
type Callable = Record<Kind, (ref: unknown, args: unknown) => Promise<unknown>>;

/** Calls a public function by reference through a convex-test accessor or a Convex client. */
export async function callFunction(
  as: unknown,
  kind: Kind,
  ref: unknown,
  args: Record<string, unknown>,
): Promise<Answer> {
  try {
    const result = await (as as Callable)[kind](ref, args);
    return { outcome: "ok", text: JSON.stringify(result) ?? "undefined" };
  } catch (error) {
    return errorAnswer(error);
  }
}

/** An HTTP request through a convex-test accessor or to a backend. */
export async function fetchRoute(
  as: { fetch(path: string, init?: RequestInit): Promise<Response> },
  path: string,
  init: RequestInit,
): Promise<Answer> {
  const response = await as.fetch(path, init);
  return { outcome: String(response.status), text: await response.text() };
}
