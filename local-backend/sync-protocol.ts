// One sync WebSocket connection: the server side of convex/browser's protocol
// (node_modules/convex/dist/esm-types/browser/sync/protocol.d.ts).
import { decodeJwt } from "jose";
import type { WebSocket } from "ws";
import type { JSONValue } from "convex/values";
import { FunctionError, type Engine, type Identity } from "./engine/engine.ts";
import { sameSecret, type TokenVerifier } from "./auth-keys.ts";
import type { Claim, MutationOutcome, SessionRequests } from "./durability/session-requests.ts";
import { serverError } from "./http-util.ts";
import { outcomeJson } from "./read-tracking/query-cache.ts";
import {
  Subscriptions,
  type Outcome,
  type Subscriber,
  type SubscriberOwner,
} from "./read-tracking/subscriptions.ts";

export const encodeTs = (ts: bigint) => {
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64LE(ts);
  return buf.toString("base64");
};

/**
 * What one connection may ask of the backend (README "Limits"): a client past them gets a FatalError and
 * its socket closed; the Convex client reconnects with a fresh query set.
 */
export const CONNECTION_LIMITS = {
  /** Largest frame accepted (Convex's function arguments may be up to 16 MiB). */
  maxFrameBytes: 16 * 1024 * 1024,
  /** Subscriptions held at once (a real app holds tens). */
  maxSubscriptions: 4096,
  /** Adds and Removes in one ModifyQuerySet. */
  maxModificationsPerFrame: 1024,
  /** Mutations and actions received but not answered yet. */
  maxInFlight: 256,
  /** Data sent but not yet read by the client: a slower reader is disconnected. */
  maxBufferedBytes: 32 * 1024 * 1024,
  /** Query evaluations in a row before other connections get the event loop. */
  evaluationsPerSlice: 32,
};

export interface SyncDeps {
  engine: Engine;
  subscriptions: Subscriptions;
  verifyToken: TokenVerifier;
  adminKey: string;
  /** Resolves once everything committed so far is durable. */
  durable(): Promise<void>;
  /** Mutation results by (sessionId, requestId): a resent mutation is answered once, from here. */
  requests: SessionRequests;
}

/** A QueryUpdated, QueryFailed or QueryRemoved modification, as JSON (see `modification`). */
type StateModification = string;

type ClientMessage =
  | { type: "Connect"; sessionId: string; connectionCount: number }
  | {
      type: "ModifyQuerySet";
      baseVersion: number;
      newVersion: number;
      modifications: (
        | { type: "Add"; queryId: number; udfPath: string; args: JSONValue[] }
        | { type: "Remove"; queryId: number }
      )[];
    }
  | { type: "Mutation"; requestId: number; udfPath: string; args: JSONValue[] }
  | { type: "Action"; requestId: number; udfPath: string; args: JSONValue[] }
  | {
      type: "Authenticate";
      tokenType: "User" | "Admin" | "None";
      value?: string;
      baseVersion: number;
    }
  | { type: "Event" };

// The outcome's part is serialised once however many subscribers it goes to.
const modification = (queryId: number, outcome: Outcome): StateModification =>
  `{"type":"${outcome.ok ? "QueryUpdated" : "QueryFailed"}","queryId":${queryId},${outcomeJson(outcome)}}`;

const queryRemoved = (queryId: number): StateModification =>
  `{"type":"QueryRemoved","queryId":${queryId}}`;

interface Caller {
  identity: Identity | null;
  admin: boolean;
}

const ANONYMOUS: Caller = { identity: null, admin: false };

export class SyncConnection implements SubscriberOwner {
  /** The caller subscriptions run as: follows Authenticate messages as the queue processes them. */
  identity: Identity | null = null;
  admin = false;
  identityEpoch = 0;
  /**
   * The caller as of the last message received: a Mutation or Action runs as whoever the
   * Authenticate messages before it made the connection, even while a token is still being verified.
   */
  private caller: Promise<Caller> = Promise.resolve(ANONYMOUS);
  private authGeneration = 0;
  private version = { querySet: 0, identity: 0, ts: 0n };
  private subs = new Map<number, Subscriber>();
  private queue: Promise<void> = Promise.resolve();
  private mutations: Promise<void> = Promise.resolve();
  private holds = 0;
  /** Mutations and actions received and not answered yet (CONNECTION_LIMITS.maxInFlight). */
  private inFlight = 0;
  private held = new Map<number, StateModification>();
  private heldTs = 0n;
  private unflushed = new Map<
    number,
    { sub: Subscriber; outcome: Outcome; identityEpoch: number }
  >();
  private expiryTimer: NodeJS.Timeout | undefined;
  /** From Connect: the client keeps it across reconnects and resends unanswered mutations under it. */
  private sessionId: string | undefined;
  closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly deps: SyncDeps,
  ) {
    ws.on("message", (data, isBinary) => {
      let message: ClientMessage | null;
      try {
        message = isBinary ? null : parseClientMessage(JSON.parse(data.toString()));
      } catch {
        message = null;
      }
      if (message === null) return this.fatal("Invalid message");
      try {
        this.onMessage(message);
      } catch (error) {
        this.fatal(serverError(error, `sync ${message.type}`));
      }
    });
    ws.on("close", () => this.close());
    ws.on("error", () => this.close());
  }

  private send(message: unknown) {
    this.sendJson(JSON.stringify(message));
  }

  private sendJson(json: string) {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount + json.length > CONNECTION_LIMITS.maxBufferedBytes) {
      // The client stopped reading: keeping its updates would grow memory without bound.
      this.close();
      this.ws.terminate();
      return;
    }
    this.ws.send(json);
  }

  ping() {
    this.send({ type: "Ping" });
  }

  private fatal(error: string) {
    this.send({ type: "FatalError", error });
    this.close();
    this.ws.close(1011, error.slice(0, 100));
  }

  /** Runs `task` after everything already queued for this connection (keeps versions in order). */
  private enqueue(task: () => Promise<void> | void) {
    this.queue = this.queue.then(task).catch((error) => {
      this.fatal(serverError(error, "sync connection task"));
    });
  }

  private sendTransition(
    modifications: StateModification[],
    end: { querySet?: number; identity?: number; ts?: bigint },
  ) {
    const start = this.version;
    const ts = end.ts !== undefined && end.ts > start.ts ? end.ts : start.ts;
    const next = {
      querySet: end.querySet ?? start.querySet,
      identity: end.identity ?? start.identity,
      ts,
    };
    this.version = next;
    const startVersion = JSON.stringify({
      querySet: start.querySet,
      identity: start.identity,
      ts: encodeTs(start.ts),
    });
    const endVersion = JSON.stringify({
      querySet: next.querySet,
      identity: next.identity,
      ts: encodeTs(next.ts),
    });
    this.sendJson(
      `{"type":"Transition","startVersion":${startVersion},"endVersion":${endVersion},"modifications":[${modifications.join(",")}]}`,
    );
  }

  private onMessage(message: ClientMessage) {
    switch (message.type) {
      case "Connect":
        if (typeof message.sessionId === "string") this.sessionId = message.sessionId;
        return;
      case "Event":
        return;
      case "ModifyQuerySet":
        return this.enqueue(() => this.modifyQuerySet(message));
      case "Authenticate": {
        const previous = this.caller;
        const verified = this.verify(message);
        const generation = ++this.authGeneration;
        this.caller = verified.catch(() => previous);
        return this.enqueue(() => this.authenticate(message, verified, generation));
      }
      case "Mutation": {
        if (!this.admit()) return;
        this.holds += 1;
        const caller = this.caller;
        // Claimed on arrival: a resend of a mutation still queued or running elsewhere waits for that run.
        const claim =
          this.sessionId === undefined
            ? undefined
            : this.deps.requests.claim(this.sessionId, message.requestId);
        this.mutations = this.mutations.then(async () =>
          this.mutation(message, await caller, claim),
        );
        return;
      }
      case "Action": {
        if (!this.admit()) return;
        void this.caller.then((caller) => this.action(message, caller));
        return;
      }
      default:
        return this.fatal(`Unknown message type ${(message as { type: string }).type}`);
    }
  }

  /** Counts a request in flight; a client past the limit is disconnected. */
  private admit(): boolean {
    if (this.inFlight >= CONNECTION_LIMITS.maxInFlight) {
      this.fatal(`Too many requests in flight (at most ${CONNECTION_LIMITS.maxInFlight})`);
      return false;
    }
    this.inFlight += 1;
    return true;
  }

  private async modifyQuerySet(message: Extract<ClientMessage, { type: "ModifyQuerySet" }>) {
    if (message.modifications.length > CONNECTION_LIMITS.maxModificationsPerFrame) {
      return this.fatal(
        `Too many query set modifications in one message (at most ${CONNECTION_LIMITS.maxModificationsPerFrame})`,
      );
    }
    if (message.baseVersion !== this.version.querySet) {
      return this.fatal(
        `Invalid query set base version ${message.baseVersion}, expected ${this.version.querySet}`,
      );
    }
    const { subscriptions } = this.deps;
    const ts = this.deps.engine.currentTs();
    const mods: StateModification[] = [];
    let evaluated = 0;
    for (const change of message.modifications) {
      if (this.closed) return;
      if (change.type === "Remove") {
        const sub = this.subs.get(change.queryId);
        if (sub) subscriptions.remove(sub);
        this.subs.delete(change.queryId);
        this.held.delete(change.queryId);
        this.unflushed.delete(change.queryId);
        mods.push(queryRemoved(change.queryId));
        continue;
      }
      if (!this.subs.has(change.queryId) && this.subs.size >= CONNECTION_LIMITS.maxSubscriptions) {
        return this.fatal(`Too many subscriptions (at most ${CONNECTION_LIMITS.maxSubscriptions})`);
      }
      // Other connections' queries and mutations run between slices of a large query set.
      if (++evaluated % CONNECTION_LIMITS.evaluationsPerSlice === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.closed) return;
      }
      const args = (change.args[0] ?? {}) as JSONValue;
      const sub: Subscriber = {
        queryId: change.queryId,
        udfPath: change.udfPath,
        args,
        groupKey: Subscriptions.key(change.udfPath, args),
        owner: this,
      };
      this.subs.set(change.queryId, sub);
      subscriptions.add(sub);
      const outcome = await subscriptions.evaluate(sub);
      if (this.closed) return;
      sub.lastJson = outcomeJson(outcome);
      mods.push(modification(change.queryId, outcome));
    }
    this.sendTransition(mods, { querySet: message.newVersion, ts });
  }

  private async verify(message: Extract<ClientMessage, { type: "Authenticate" }>): Promise<Caller> {
    if (message.tokenType === "Admin") {
      if (!sameSecret(this.deps.adminKey, message.value ?? ""))
        throw new Error("Invalid admin key");
      return { identity: null, admin: true };
    }
    if (message.tokenType === "User")
      return { identity: await this.deps.verifyToken(message.value ?? ""), admin: false };
    return ANONYMOUS;
  }

  private async authenticate(
    message: Extract<ClientMessage, { type: "Authenticate" }>,
    verified: Promise<Caller>,
    generation: number,
  ) {
    try {
      ({ identity: this.identity, admin: this.admin } = await verified);
      this.identityEpoch += 1;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.send({
        type: "AuthError",
        error: `Could not verify token: ${reason}`,
        baseVersion: message.baseVersion,
        authUpdateAttempted: true,
      });
      return;
    }
    if (message.tokenType === "User")
      this.expireAt(message.value ?? "", message.baseVersion + 1, generation);
    const ts = this.deps.engine.currentTs();
    const mods: StateModification[] = [];
    for (const sub of this.subs.values()) {
      const outcome = await this.deps.subscriptions.evaluate(sub);
      const json = outcomeJson(outcome);
      // A held update was computed for the previous caller: this one replaces it.
      if (json === sub.lastJson && !this.held.has(sub.queryId)) continue;
      this.held.delete(sub.queryId);
      sub.lastJson = json;
      mods.push(modification(sub.queryId, outcome));
    }
    this.sendTransition(mods, { identity: message.baseVersion + 1, ts });
  }

  /** When the token expires mid-connection, drop the identity and tell the client to refresh it. */
  private expireAt(token: string, identityVersion: number, generation: number) {
    clearTimeout(this.expiryTimer);
    const exp = decodeJwt(token).exp;
    if (exp === undefined) return;
    this.expiryTimer = setTimeout(
      () => {
        if (this.authGeneration === generation) this.caller = Promise.resolve(ANONYMOUS);
        this.enqueue(() => {
          if (this.version.identity !== identityVersion) return;
          this.identity = null;
          this.identityEpoch += 1;
          this.send({
            type: "AuthError",
            error: "Token expired",
            baseVersion: identityVersion - 1,
            authUpdateAttempted: false,
          });
        });
      },
      Math.min(Math.max(0, exp * 1000 - Date.now()), 2 ** 31 - 1),
    );
  }

  private async mutation(
    message: Extract<ClientMessage, { type: "Mutation" }>,
    caller: Caller,
    claim: Claim | undefined,
  ) {
    const outcome =
      claim && !claim.owner
        ? await this.answered(claim.outcome)
        : await this.run(message, caller, claim);
    const { requestId } = message;
    const response = outcome.success
      ? {
          type: "MutationResponse",
          requestId,
          success: true,
          result: outcome.result,
          ts: encodeTs(outcome.ts),
          logLines: outcome.logLines,
        }
      : { type: "MutationResponse", requestId, ...outcome };
    const commitTs = outcome.success ? outcome.ts : undefined;
    this.enqueue(() => {
      this.holds -= 1;
      this.inFlight -= 1;
      this.send(response);
      if (commitTs !== undefined || this.held.size > 0) this.releaseHeld(commitTs ?? 0n);
    });
  }

  private async run(
    message: Extract<ClientMessage, { type: "Mutation" }>,
    caller: Caller,
    claim: Claim | undefined,
  ): Promise<MutationOutcome> {
    const { engine, subscriptions } = this.deps;
    let outcome: MutationOutcome;
    try {
      const request =
        this.sessionId === undefined
          ? undefined
          : { sessionId: this.sessionId, requestId: message.requestId };
      const result = await engine.call("mutation", message.udfPath, message.args[0], {
        ...caller,
        request,
      });
      const commitTs = result.commitTs ?? engine.currentTs();
      await Promise.all([this.deps.durable(), subscriptions.flushedThrough(commitTs)]);
      outcome = {
        success: true,
        result: result.value as JSONValue,
        ts: commitTs,
        logLines: result.logLines,
      };
    } catch (error) {
      outcome = failed(error);
    }
    if (claim?.owner) claim.settle(outcome);
    return outcome;
  }

  /** A resent mutation that already ran (or is running): its outcome, once durable and sent to subscribers. */
  private async answered(outcome: Promise<MutationOutcome>): Promise<MutationOutcome> {
    const done = await outcome;
    if (done.success)
      await Promise.all([this.deps.durable(), this.deps.subscriptions.flushedThrough(done.ts)]);
    return done;
  }

  private releaseHeld(minTs: bigint) {
    const mods = [...this.held.values()];
    this.held.clear();
    const ts = this.heldTs > minTs ? this.heldTs : minTs;
    this.sendTransition(mods, { ts });
  }

  private async action(message: Extract<ClientMessage, { type: "Action" }>, caller: Caller) {
    let response: Record<string, unknown>;
    try {
      const result = await this.deps.engine.call(
        "action",
        message.udfPath,
        message.args[0],
        caller,
      );
      await Promise.all([
        this.deps.durable(),
        this.deps.subscriptions.flushedThrough(this.deps.engine.currentTs()),
      ]);
      response = {
        type: "ActionResponse",
        requestId: message.requestId,
        success: true,
        result: result.value,
        logLines: result.logLines,
      };
    } catch (error) {
      response = failure("ActionResponse", message.requestId, error);
    }
    this.enqueue(() => {
      this.inFlight -= 1;
      this.send(response);
    });
  }

  deliver(sub: Subscriber, outcome: Outcome, _ts: bigint, identityEpoch: number) {
    if (this.subs.get(sub.queryId) !== sub) return;
    this.unflushed.set(sub.queryId, { sub, outcome, identityEpoch });
  }

  endOfFlush(ts: bigint) {
    const updates = [...this.unflushed.values()];
    this.unflushed.clear();
    this.enqueue(async () => {
      const mods = new Map<number, StateModification>();
      for (const { sub, outcome, identityEpoch } of updates) {
        if (this.subs.get(sub.queryId) !== sub) continue;
        if (identityEpoch === this.identityEpoch) {
          mods.set(sub.queryId, modification(sub.queryId, outcome));
          continue;
        }
        // Computed for the caller before an Authenticate that has been answered since: the client
        // must not get it after that answer. Sent even if unchanged, as lastJson was already set to it.
        const current = await this.deps.subscriptions.evaluate(sub);
        sub.lastJson = outcomeJson(current);
        mods.set(sub.queryId, modification(sub.queryId, current));
      }
      if (this.holds > 0) {
        for (const [queryId, m] of mods) this.held.set(queryId, m);
        if (ts > this.heldTs) this.heldTs = ts;
        return;
      }
      this.sendTransition([...mods.values()], { ts });
    });
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.expiryTimer);
    for (const sub of this.subs.values()) this.deps.subscriptions.remove(sub);
    this.subs.clear();
  }
}

function failed(error: unknown): Extract<MutationOutcome, { success: false }> {
  const e =
    error instanceof FunctionError
      ? error
      : new FunctionError(serverError(error, "sync request"), undefined, []);
  return {
    success: false,
    result: e.message,
    logLines: e.logLines,
    ...(e.data !== undefined ? { errorData: e.data as JSONValue } : {}),
  };
}

function failure(type: "MutationResponse" | "ActionResponse", requestId: number, error: unknown) {
  return { type, requestId, ...failed(error) };
}

const isNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const isArgs = (x: unknown): x is JSONValue[] =>
  Array.isArray(x) &&
  x.length <= 1 &&
  (x.length === 0 || (typeof x[0] === "object" && x[0] !== null && !Array.isArray(x[0])));
const isFunctionCall = (m: Record<string, unknown>) =>
  isNumber(m.requestId) && typeof m.udfPath === "string" && isArgs(m.args);

/** A client frame as the protocol defines it, or null: nothing malformed reaches the handlers. */
export function parseClientMessage(raw: unknown): ClientMessage | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case "Connect":
    case "Event":
      return m as ClientMessage;
    case "Mutation":
    case "Action":
      return isFunctionCall(m) ? (m as ClientMessage) : null;
    case "Authenticate":
      return ["User", "Admin", "None"].includes(m.tokenType as string) &&
        isNumber(m.baseVersion) &&
        (m.value === undefined || typeof m.value === "string")
        ? (m as ClientMessage)
        : null;
    case "ModifyQuerySet": {
      if (!isNumber(m.baseVersion) || !isNumber(m.newVersion) || !Array.isArray(m.modifications))
        return null;
      const valid = m.modifications.every((c: unknown) => {
        if (typeof c !== "object" || c === null) return false;
        const change = c as Record<string, unknown>;
        if (change.type === "Remove") return isNumber(change.queryId);
        return (
          change.type === "Add" &&
          isNumber(change.queryId) &&
          typeof change.udfPath === "string" &&
          isArgs(change.args)
        );
      });
      return valid ? (m as ClientMessage) : null;
    }
    default:
      return null;
  }
}
