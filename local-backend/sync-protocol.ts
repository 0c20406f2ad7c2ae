// One sync WebSocket connection: the server side of convex/browser's protocol
// (node_modules/convex/dist/esm-types/browser/sync/protocol.d.ts).
import { decodeJwt } from "jose";
import type { RawData, WebSocket } from "ws";
import type { JSONValue } from "convex/values";
import { FunctionError, type Engine, type Identity } from "./engine/engine.ts";
import { sameSecret, type TokenVerifier } from "./auth-keys.ts";
import type { Claim, MutationOutcome, SessionRequests } from "./durability/session-requests.ts";
import { serverError } from "./http-util.ts";
import {
  epochMs,
  traceMutation,
  traceMutationAnswered,
  traceMutationDurable,
  traceReceived,
  traceTransitionWritten,
  tracing,
  traceWritten,
  type UpdateTrace,
} from "./stage-trace.ts";
import { outcomeJson } from "./read-tracking/query-cache.ts";
import {
  Subscriptions,
  yieldWhenBusy,
  type Subscriber,
  type SubscriberOwner,
  type Update,
} from "./read-tracking/subscriptions.ts";
import {
  encodeTs,
  singleFrame,
  transitionFrames,
  transitionPieces,
  type Modification,
  type StateVersion,
} from "./sync-transition.ts";

/**
 * What one connection may ask of the backend (README "Limits"). A client past a request limit gets a
 * FatalError and its socket closed (the Convex client reconnects and subscribes again by itself).
 */
export interface ConnectionLimits {
  /** Largest frame (Convex's limit on a function's arguments is 16 MiB). */
  maxFrameBytes: number;
  /** Frames received whose handling has not finished yet, in bytes. */
  maxPendingBytes: number;
  /** Subscriptions held at once. */
  maxSubscriptions: number;
  /** A query journal a client sends back (the backend issues them: a page's signed end cursor). */
  maxJournalBytes: number;
  /** Arguments and journals of the subscriptions held at once, in bytes of their JSON. */
  maxSubscriptionBytes: number;
  /** Adds and Removes in one ModifyQuerySet. */
  maxModificationsPerFrame: number;
  /** Mutations received and not answered yet (as on Convex: 1,000 per socket). */
  maxPendingMutations: number;
  /** Actions received and not answered yet (as on Convex: 1,000 per socket). */
  maxPendingActions: number;
  /** Actions of one connection running at once; the others wait their turn. */
  maxConcurrentActions: number;
  /** Sent data the client has not taken yet: past it, nothing more is sent until it drains... */
  maxBufferedBytes: number;
  /** ...within this long, or the connection is closed (its memory is freed). */
  slowReaderMs: number;
  /** A Transition longer than this (characters) goes out as TransitionChunks of this size. */
  transitionChunkChars: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxFrameBytes: 16 * 1024 * 1024,
  maxPendingBytes: 32 * 1024 * 1024,
  maxSubscriptions: 4096,
  maxJournalBytes: 64 * 1024,
  maxSubscriptionBytes: 64 * 1024 * 1024,
  maxModificationsPerFrame: 1024,
  maxPendingMutations: 1000,
  maxPendingActions: 1000,
  maxConcurrentActions: 8,
  maxBufferedBytes: 1024 * 1024,
  slowReaderMs: 10_000,
  transitionChunkChars: 256 * 1024,
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
  limits: ConnectionLimits;
}

type ClientMessage =
  | { type: "Connect"; sessionId: string; connectionCount: number }
  | {
      type: "ModifyQuerySet";
      baseVersion: number;
      newVersion: number;
      modifications: (
        | {
            type: "Add";
            queryId: number;
            udfPath: string;
            args: JSONValue[];
            journal?: string | null;
          }
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

interface Caller {
  identity: Identity | null;
  admin: boolean;
}

const ANONYMOUS: Caller = { identity: null, admin: false };

/**
 * Who a connection's requests run as. An Authenticate is verified as soon as it arrives but applied in
 * the connection's queue, so that subscriptions change caller between two Transitions.
 */
class ConnectionAuth {
  /**
   * The caller as of the last message received: a Mutation or Action runs as whoever the Authenticate
   * messages before it made the connection, even while a token is still being verified.
   */
  received: Promise<Caller> = Promise.resolve(ANONYMOUS);
  /** Authenticate messages received: a token's expiry timer resets `received` only if none came after it. */
  generation = 0;
  /** The caller subscriptions run as: the last Authenticate (or expiry) the queue has processed. */
  applied: Caller = ANONYMOUS;
  /** Bumped with every change of `applied`: an update computed under another epoch is another caller's. */
  epoch = 0;
  /** Fires when the applied token expires. */
  expiryTimer: NodeJS.Timeout | undefined;
}

/**
 * Query updates held back while one of the client's mutations is unanswered. A mutation's response goes
 * out before any Transition that reflects its write, and the held updates follow it as one Transition at
 * or after its commit ts: the client resolves the mutation and shows its effect together.
 */
class HeldUpdates {
  /** Mutations received whose response has not been sent yet: while above 0, updates wait here. */
  unanswered = 0;
  /** The latest update of each query. */
  readonly updates = new Map<number, Modification>();
  /** The latest commit the updates reflect. */
  ts = 0n;
}

/**
 * One client's sync socket. It is open until `closed` (socket closed, a FatalError, or a reader too slow);
 * once closed, queued work is dropped and nothing more is sent. Frames are handled in arrival order:
 * query set changes, Authenticate and every frame sent go through one queue (Transition versions must
 * chain), mutations run one at a time in their own chain, actions concurrently up to a limit.
 */
export class SyncConnection implements SubscriberOwner {
  private readonly auth = new ConnectionAuth();
  /** The last Transition's end version. */
  private version: StateVersion = { querySet: 0, identity: 0, ts: 0n };
  private subs = new Map<number, Subscriber>();
  /** What each subscription's arguments and journal count against maxSubscriptionBytes, and their sum. */
  private subBytes = new Map<number, number>();
  private heldBytes = 0;
  /** Transitions sent (their ids, for chunking). */
  private transitions = 0;
  /** From Connect: the client keeps it across reconnects and resends unanswered mutations under it. */
  private sessionId: string | undefined;

  /** Everything sent to the client goes through here, in order (Transition versions must chain). */
  private queue: Promise<void> = Promise.resolve();
  /** Tasks enqueued and not finished: while 0, a Transition that needs no waiting may skip the queue. */
  private queued = 0;
  /** Mutations run one after another, in the order received. */
  private mutations: Promise<void> = Promise.resolve();
  /** Frames given to the socket and not yet handed to the OS, and who waits for none to be left. */
  private unwritten = 0;
  private allWritten: (() => void)[] = [];
  private readonly written = () => {
    this.unwritten -= 1;
    if (this.unwritten > 0) return;
    const waiting = this.allWritten;
    this.allWritten = [];
    for (const resolve of waiting) resolve();
  };

  /** Received and not answered yet, against the ConnectionLimits. */
  private readonly pending = { bytes: 0, mutations: 0, actions: 0 };
  /** Actions running now, and those waiting for one of the maxConcurrentActions slots. */
  private readonly actions = { running: 0, waiting: [] as (() => Promise<void>)[] };

  private readonly held = new HeldUpdates();
  closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly deps: SyncDeps,
  ) {
    ws.on("message", (data, isBinary) => this.receive(data, isBinary));
    ws.on("close", () => this.close());
    ws.on("error", () => this.close());
  }

  private get limits() {
    return this.deps.limits;
  }

  get identity() {
    return this.auth.applied.identity;
  }

  get admin() {
    return this.auth.applied.admin;
  }

  get identityEpoch() {
    return this.auth.epoch;
  }

  private receive(data: RawData, isBinary: boolean) {
    if (this.closed) return;
    const text = isBinary ? null : textOf(data);
    let message: ClientMessage | null = null;
    try {
      if (text !== null) message = parseClientMessage(JSON.parse(text));
    } catch {
      message = null;
    }
    if (message === null || text === null) return this.fatal("Invalid message");
    if (this.pending.bytes + text.length > this.limits.maxPendingBytes) {
      return this.fatal(
        `Too much sent ahead of the answers (at most ${this.limits.maxPendingBytes} bytes)`,
      );
    }
    try {
      this.onMessage(message, text.length);
    } catch (error) {
      this.fatal(serverError(error, `sync ${message.type}`));
    }
  }

  /** Sent outside the queue: a Ping means nothing to a client that is not reading anyway. */
  ping() {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount <= this.limits.maxBufferedBytes) this.ws.send('{"type":"Ping"}');
  }

  private fatal(error: string) {
    if (this.closed) return;
    if (this.ws.readyState === this.ws.OPEN)
      this.ws.send(JSON.stringify({ type: "FatalError", error }));
    this.close();
    // A close reason is at most 123 bytes.
    this.ws.close(1011, error.replace(/[^\x20-\x7e]/g, "?").slice(0, 120));
  }

  /** Runs `task` after everything already queued for this connection, unless it has closed by then. */
  private enqueue(task: () => Promise<void> | void, bytes = 0) {
    this.pending.bytes += bytes;
    this.queued += 1;
    this.queue = this.queue
      .then(() => (this.closed ? undefined : task()))
      .catch((error) => this.fatal(serverError(error, "sync connection task")))
      .finally(() => {
        this.pending.bytes -= bytes;
        this.queued -= 1;
      });
  }

  private async send(message: unknown) {
    await this.write(JSON.stringify(message));
  }

  /**
   * Hands a frame to the socket (only from queued tasks). While the client has more than
   * maxBufferedBytes unread, waits for it to take them; one that does not within slowReaderMs is
   * dropped, so a reader that stops holds at most about maxBufferedBytes of this process's memory.
   */
  private async write(frame: string, traced?: { traces: UpdateTrace[]; ts: bigint }) {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes && !(await this.caughtUp())) {
      if (this.closed) return;
      console.warn(
        `local-backend: closing a sync connection that left ${this.ws.bufferedAmount} bytes unread for ${this.limits.slowReaderMs} ms`,
      );
      this.close();
      this.ws.terminate();
      return;
    }
    this.writeNow(frame, traced);
  }

  /** Whether a frame handed over now would go out without waiting for the client to read. */
  private get writable() {
    return (
      !this.closed &&
      this.ws.readyState === this.ws.OPEN &&
      this.ws.bufferedAmount <= this.limits.maxBufferedBytes
    );
  }

  private writeNow(frame: string, traced?: { traces: UpdateTrace[]; ts: bigint }) {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.unwritten += 1;
    if (traced === undefined) return this.ws.send(frame, this.written);
    const sent = epochMs();
    for (const trace of traced.traces) trace.sent = sent;
    this.ws.send(frame, () => {
      for (const trace of traced.traces) traceWritten(trace);
      traceTransitionWritten(this.sessionId, encodeTs(traced.ts));
      this.written();
    });
  }

  private caughtUp(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.limits.slowReaderMs);
    });
    const flushed =
      this.unwritten === 0
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => this.allWritten.push(() => resolve(true)));
    return Promise.race([flushed, timeout]).finally(() => clearTimeout(timer));
  }

  private nextVersion(end: { querySet?: number; identity?: number; ts?: bigint }): StateVersion {
    const start = this.version;
    return {
      querySet: end.querySet ?? start.querySet,
      identity: end.identity ?? start.identity,
      ts: end.ts !== undefined && end.ts > start.ts ? end.ts : start.ts,
    };
  }

  private async sendTransition(
    modifications: Iterable<Modification>,
    end: { querySet?: number; identity?: number; ts?: bigint },
    traces?: UpdateTrace[],
  ) {
    const start = this.version;
    const next = this.nextVersion(end);
    this.version = next;
    const pieces = transitionPieces(start, next, modifications);
    const id = String((this.transitions += 1));
    // The traces go with the last frame: the update has arrived when all of the transition has.
    let previous: string | undefined;
    for (const frame of transitionFrames(pieces, this.limits.transitionChunkChars, id)) {
      if (previous !== undefined) await this.write(previous);
      if (this.closed) return;
      previous = frame;
    }
    if (previous !== undefined) await this.write(previous, traces && { traces, ts: next.ts });
  }

  private onMessage(message: ClientMessage, bytes: number) {
    switch (message.type) {
      case "Connect":
        if (typeof message.sessionId === "string") this.sessionId = message.sessionId;
        return;
      case "Event":
        return;
      case "ModifyQuerySet":
        if (message.modifications.length > this.limits.maxModificationsPerFrame) {
          return this.fatal(
            `Too many query set modifications in one message (at most ${this.limits.maxModificationsPerFrame})`,
          );
        }
        return this.enqueue(() => this.modifyQuerySet(message), bytes);
      case "Authenticate": {
        const previous = this.auth.received;
        const verified = this.verify(message);
        const generation = ++this.auth.generation;
        this.auth.received = verified.catch(() => previous);
        return this.enqueue(() => this.authenticate(message, verified, generation), bytes);
      }
      case "Mutation": {
        if (this.pending.mutations >= this.limits.maxPendingMutations) {
          return this.fatal(
            `Too many concurrent mutations (at most ${this.limits.maxPendingMutations} pending on one socket)`,
          );
        }
        const received = tracing ? epochMs() : 0;
        if (tracing) traceReceived(this.sessionId, message.requestId, received);
        this.pending.mutations += 1;
        this.pending.bytes += bytes;
        this.held.unanswered += 1;
        const caller = this.auth.received;
        // Claimed on arrival: a resend of a mutation still queued or running elsewhere waits for that run.
        const claim = this.claim(message.requestId);
        this.mutations = this.mutations
          .then(async () => {
            // Queued mutations give sockets and timers a turn once they have held the loop for a
            // slice (their fdatasync no longer does): a close is seen, other connections are served.
            await yieldWhenBusy();
            // Never started: a resend of it (on the client's next connection) runs it instead.
            if (this.closed) return claim?.owner ? claim.abandon() : undefined;
            await this.mutation(message, await caller, claim, bytes, received);
          })
          .catch((error) => this.fatal(serverError(error, "sync Mutation")));
        return;
      }
      case "Action": {
        if (this.pending.actions >= this.limits.maxPendingActions) {
          return this.fatal(
            `Too many actions in flight (at most ${this.limits.maxPendingActions} on one socket)`,
          );
        }
        this.pending.actions += 1;
        this.pending.bytes += bytes;
        const caller = this.auth.received;
        this.actions.waiting.push(async () => this.action(message, await caller, bytes));
        return this.startActions();
      }
      default:
        return this.fatal(`Unknown message type ${(message as { type: string }).type}`);
    }
  }

  private claim(requestId: number): Claim | undefined {
    return this.sessionId === undefined
      ? undefined
      : this.deps.requests.claim(this.sessionId, requestId);
  }

  private startActions() {
    while (this.actions.running < this.limits.maxConcurrentActions && !this.closed) {
      const next = this.actions.waiting.shift();
      if (!next) return;
      this.actions.running += 1;
      void next()
        .catch((error) => this.fatal(serverError(error, "sync Action")))
        .finally(() => {
          this.actions.running -= 1;
          this.startActions();
        });
    }
  }

  private async modifyQuerySet(message: Extract<ClientMessage, { type: "ModifyQuerySet" }>) {
    if (
      message.baseVersion !== this.version.querySet ||
      message.newVersion <= message.baseVersion
    ) {
      return this.fatal(
        `Invalid query set versions ${message.baseVersion} → ${message.newVersion}, expected base ${this.version.querySet}`,
      );
    }
    const { subscriptions } = this.deps;
    const ts = this.deps.engine.currentTs();
    const mods: Modification[] = [];
    for (const change of message.modifications) {
      if (this.closed) return;
      if (change.type === "Remove") {
        const sub = this.subs.get(change.queryId);
        if (!sub) return this.fatal(`Nonexistent query id: ${change.queryId}`);
        subscriptions.remove(sub);
        this.subs.delete(change.queryId);
        this.heldBytes -= this.subBytes.get(change.queryId) ?? 0;
        this.subBytes.delete(change.queryId);
        this.held.updates.delete(change.queryId);
        mods.push({ queryId: change.queryId, removed: true });
        continue;
      }
      if (this.subs.has(change.queryId)) return this.fatal(`Duplicate query ID: ${change.queryId}`);
      if (this.subs.size >= this.limits.maxSubscriptions) {
        return this.fatal(`Too many subscriptions (at most ${this.limits.maxSubscriptions})`);
      }
      // Other connections' queries and mutations run between slices of a large query set.
      await yieldWhenBusy();
      if (this.closed) return;
      const args = (change.args[0] ?? {}) as JSONValue;
      const journal = change.journal ?? null;
      if (journal !== null && journal.length > this.limits.maxJournalBytes)
        return this.fatal(`Query journal too large (at most ${this.limits.maxJournalBytes} bytes)`);
      const bytes = JSON.stringify(args).length + (journal?.length ?? 0);
      if (this.heldBytes + bytes > this.limits.maxSubscriptionBytes)
        return this.fatal(
          `Subscriptions' arguments too large (at most ${this.limits.maxSubscriptionBytes} bytes held)`,
        );
      this.heldBytes += bytes;
      this.subBytes.set(change.queryId, bytes);
      const sub: Subscriber = {
        queryId: change.queryId,
        udfPath: change.udfPath,
        args,
        journal,
        groupKey: Subscriptions.key(change.udfPath, args, journal),
        owner: this,
      };
      this.subs.set(change.queryId, sub);
      subscriptions.add(sub);
      const outcome = await subscriptions.evaluate(sub);
      if (this.closed) return;
      sub.lastJson = outcomeJson(outcome);
      mods.push({ queryId: change.queryId, outcome });
    }
    await this.sendTransition(mods, { querySet: message.newVersion, ts });
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
      this.auth.applied = await verified;
      this.auth.epoch += 1;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.send({
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
    const mods: Modification[] = [];
    for (const sub of [...this.subs.values()]) {
      await yieldWhenBusy();
      if (this.closed) return;
      if (this.subs.get(sub.queryId) !== sub) continue;
      const outcome = await this.deps.subscriptions.evaluate(sub);
      const json = outcomeJson(outcome);
      // A held update was computed for the previous caller: this one replaces it.
      if (json === sub.lastJson && !this.held.updates.has(sub.queryId)) continue;
      this.held.updates.delete(sub.queryId);
      sub.lastJson = json;
      mods.push({ queryId: sub.queryId, outcome });
    }
    await this.sendTransition(mods, { identity: message.baseVersion + 1, ts });
  }

  /** When the token expires mid-connection, drop the identity and tell the client to refresh it. */
  private expireAt(token: string, identityVersion: number, generation: number) {
    clearTimeout(this.auth.expiryTimer);
    const exp = decodeJwt(token).exp;
    if (exp === undefined) return;
    this.auth.expiryTimer = setTimeout(
      () => {
        if (this.auth.generation === generation) this.auth.received = Promise.resolve(ANONYMOUS);
        this.enqueue(async () => {
          if (this.version.identity !== identityVersion) return;
          this.auth.applied = { identity: null, admin: this.auth.applied.admin };
          this.auth.epoch += 1;
          await this.send({
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
    bytes: number,
    received: number,
  ) {
    const outcome = await this.outcomeOf(message, caller, claim, received);
    this.pending.mutations -= 1;
    this.pending.bytes -= bytes;
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
    this.enqueue(async () => {
      this.held.unanswered -= 1;
      await this.send(response);
      if (tracing && commitTs !== undefined) traceMutationAnswered(commitTs);
      if (commitTs !== undefined || this.held.updates.size > 0)
        await this.releaseHeld(commitTs ?? 0n);
    });
  }

  private async outcomeOf(
    message: Extract<ClientMessage, { type: "Mutation" }>,
    caller: Caller,
    claim: Claim | undefined,
    received: number,
  ): Promise<MutationOutcome> {
    if (!claim || claim.owner) return this.run(message, caller, claim, received);
    const done = await claim.outcome;
    // The run it waited for was given up before it started: this one is now the run.
    if (done === null)
      return this.outcomeOf(message, caller, this.claim(message.requestId), received);
    return this.answered(done);
  }

  private async run(
    message: Extract<ClientMessage, { type: "Mutation" }>,
    caller: Caller,
    claim: Claim | undefined,
    received: number,
  ): Promise<MutationOutcome> {
    const { engine, subscriptions } = this.deps;
    const started = tracing ? epochMs() : 0;
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
      if (tracing && result.commitTs !== undefined) traceMutation(commitTs, received, started);
      const durable = this.deps.durable();
      if (tracing) void durable.then(() => traceMutationDurable(commitTs));
      await Promise.all([durable, subscriptions.flushedThrough(commitTs, this)]);
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
  private async answered(done: MutationOutcome): Promise<MutationOutcome> {
    if (done.success)
      await Promise.all([
        this.deps.durable(),
        this.deps.subscriptions.flushedThrough(done.ts, this),
      ]);
    return done;
  }

  private async releaseHeld(minTs: bigint) {
    const mods = [...this.held.updates.values()];
    this.held.updates.clear();
    const ts = this.held.ts > minTs ? this.held.ts : minTs;
    await this.sendTransition(mods, { ts });
  }

  private async action(
    message: Extract<ClientMessage, { type: "Action" }>,
    caller: Caller,
    bytes: number,
  ) {
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
        this.deps.subscriptions.flushedThrough(this.deps.engine.currentTs(), this),
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
    this.pending.actions -= 1;
    this.pending.bytes -= bytes;
    this.enqueue(() => this.send(response));
  }

  flush(updates: Update[], ts: bigint) {
    if (this.sendNow(updates, ts)) return;
    this.enqueue(async () => {
      const traces = tracing ? traced(updates) : undefined;
      const mods: Modification[] = [];
      for (const { sub, outcome, identityEpoch } of updates) {
        if (this.subs.get(sub.queryId) !== sub) continue;
        if (identityEpoch === this.auth.epoch) {
          mods.push({ queryId: sub.queryId, outcome });
          continue;
        }
        // Computed for the caller before an Authenticate that has been answered since: the client
        // must not get it after that answer. Sent even if unchanged, as lastJson was already set to it.
        const current = await this.deps.subscriptions.evaluate(sub);
        if (this.closed) return;
        if (this.subs.get(sub.queryId) !== sub) continue;
        sub.lastJson = outcomeJson(current);
        mods.push({ queryId: sub.queryId, outcome: current });
      }
      if (this.held.unanswered > 0) {
        for (const m of mods) this.held.updates.set(m.queryId, m);
        if (ts > this.held.ts) this.held.ts = ts;
        return;
      }
      await this.sendTransition(mods, { ts }, traces);
    });
  }

  /**
   * flush's Transition written at once, without a turn of the queue, in the common case: nothing
   * queued before it, no mutation of the client's unanswered, every update computed for the current
   * caller, a client that reads its socket and one frame for all. False, having sent nothing, otherwise.
   */
  private sendNow(updates: Update[], ts: bigint): boolean {
    if (this.queued > 0 || this.held.unanswered > 0 || !this.writable) return false;
    const mods: Modification[] = [];
    for (const { sub, outcome, identityEpoch } of updates) {
      if (this.subs.get(sub.queryId) !== sub) continue;
      if (identityEpoch !== this.auth.epoch) return false;
      mods.push({ queryId: sub.queryId, outcome });
    }
    const next = this.nextVersion({ ts });
    const frame = singleFrame(
      transitionPieces(this.version, next, mods),
      this.limits.transitionChunkChars,
    );
    if (frame === null) return false;
    this.version = next;
    this.transitions += 1;
    const traces = tracing ? traced(updates) : undefined;
    this.writeNow(frame, traces && { traces, ts: next.ts });
    return true;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.auth.expiryTimer);
    for (const sub of this.subs.values()) this.deps.subscriptions.remove(sub);
    this.subs.clear();
    this.subBytes.clear();
    this.heldBytes = 0;
    this.held.updates.clear();
    this.actions.waiting = [];
  }
}

/** The traces of a flush's updates, marked as reached by the connection's queue. */
function traced(updates: { trace?: UpdateTrace }[]): UpdateTrace[] {
  const dequeued = epochMs();
  const traces: UpdateTrace[] = [];
  for (const { trace } of updates) {
    if (trace === undefined) continue;
    trace.dequeued = dequeued;
    traces.push(trace);
  }
  return traces;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString();
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
          isArgs(change.args) &&
          (change.journal === undefined ||
            change.journal === null ||
            typeof change.journal === "string")
        );
      });
      return valid ? (m as ClientMessage) : null;
    }
    default:
      return null;
  }
}
