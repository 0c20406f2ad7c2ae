// Request and Response for HTTP actions that build a body stream or an AbortSignal only when asked.
// Convex's runtime implements these classes itself. Node's (undici's) build a ReadableStream for
// every body and an AbortSignal for every Request, which together cost more per request than
// node:http's own work; here a body is held as the string, bytes or Blob it was made from, read
// directly by text()/json()/arrayBuffer()/bytes() and by the site port, and turned into undici's own
// object, which then answers for it, the first time anything else is asked of it (`body`, `clone()`
// of a read body, `blob()`, `formData()`). Both are instances of the global Request and Response.

const NATIVE = Symbol.for("local-backend.nativeFetchClasses");
type NativeClasses = { Request: typeof Request; Response: typeof Response };
const natives: NativeClasses = ((globalThis as Record<symbol, unknown>)[NATIVE] ??= {
  Request: globalThis.Request,
  Response: globalThis.Response,
}) as NativeClasses;
const NativeRequest = natives.Request;
const NativeResponse = natives.Response;

/** What a body made from a string, bytes or a Blob holds until something needs its stream. */
type Bytes = Uint8Array<ArrayBuffer>;
type Held = string | Bytes | Blob;

interface LeanBody<Native extends Request | Response> {
  held: Held;
  used: boolean;
  /** undici's object for the same body, once a stream was needed; it answers from then on. */
  native: Native | null;
}

const unusable = () => new TypeError("Body is unusable: Body has already been read");

/** ES2024's well-formed string methods (Node 20 has them; the project's lib is ES2023). */
type UsvString = { isWellFormed(): boolean; toWellFormed(): string };
/** A string as the USVString a body is made of (lone surrogates become U+FFFD, as encoding does). */
const wellFormed = (text: string) => {
  const usv = text as unknown as UsvString;
  return usv.isWellFormed() ? text : usv.toWellFormed();
};
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** UTF-8 decode (a leading BOM dropped), as Body.text() reads bytes. */
function decodeHeld(held: string | Bytes): string {
  if (typeof held !== "string") return decoder.decode(held);
  const text = wellFormed(held);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The body's bytes as a fresh ArrayBuffer of exactly their length. */
async function heldBuffer(held: Held): Promise<ArrayBuffer> {
  if (typeof held === "string") return encoder.encode(wellFormed(held)).buffer as ArrayBuffer;
  // Uint8Array's slice (a Buffer's is a view): a copy with a buffer of its own.
  if (held instanceof Uint8Array)
    return Uint8Array.prototype.slice.call(held).buffer as ArrayBuffer;
  return held.arrayBuffer();
}

async function heldText(held: Held): Promise<string> {
  return held instanceof Blob ? held.text() : decodeHeld(held);
}

/** The body text and Content-Type of a body the Fetch standard extracts from a string, bytes or Blob. */
function extractable(body: unknown): { held: Held; type: string | null } | null {
  if (typeof body === "string") return { held: body, type: "text/plain;charset=UTF-8" };
  // The standard copies a BufferSource's bytes when the body is made.
  if (body instanceof ArrayBuffer) return { held: new Uint8Array(body.slice(0)), type: null };
  if (ArrayBuffer.isView(body) && body.buffer instanceof ArrayBuffer)
    return {
      held: new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)),
      type: null,
    };
  if (body instanceof Blob) return { held: body, type: body.type === "" ? null : body.type };
  if (body instanceof URLSearchParams)
    return { held: body.toString(), type: "application/x-www-form-urlencoded;charset=UTF-8" };
  return null;
}

/** The body methods over a held body; `native(lean)` makes (once) undici's object for it. */
function leanText(lean: LeanBody<Request | Response>): Promise<string> {
  if (lean.used) return Promise.reject(unusable());
  lean.used = true;
  return heldText(lean.held);
}

async function leanJson(lean: LeanBody<Request | Response>): Promise<unknown> {
  return JSON.parse(await leanText(lean));
}

function leanArrayBuffer(lean: LeanBody<Request | Response>): Promise<ArrayBuffer> {
  if (lean.used) return Promise.reject(unusable());
  lean.used = true;
  return heldBuffer(lean.held);
}

/** A body's stream for undici's object: one already read is left disturbed, as reading leaves it. */
function nativeBody<T extends Request | Response>(lean: LeanBody<T>, make: (body: Held) => T): T {
  const native = make(lean.held);
  if (lean.used) void native.arrayBuffer().catch(() => {});
  lean.native = native;
  return native;
}

// Status codes whose responses have no body: undici's constructor refuses a body with them.
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

const plainStatus = (status: unknown) =>
  status === undefined ||
  (typeof status === "number" &&
    Number.isInteger(status) &&
    status >= 200 &&
    status <= 599 &&
    !NULL_BODY_STATUS.has(status));

/**
 * The global Response while a local backend runs (installLeanResponse). A body from a string,
 * bytes, a Blob or URLSearchParams is held as such; any other body (a stream, FormData) is
 * undici's from the start.
 */
export class LeanResponse extends NativeResponse {
  #lean: LeanBody<Response> | null = null;

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    const extracted = body === null || body === undefined ? null : extractable(body);
    if (extracted === null || !plainStatus(init?.status)) {
      super(body, init);
      return;
    }
    super(null, init);
    this.#lean = { held: extracted.held, used: false, native: null };
    if (extracted.type !== null && !this.headers.has("content-type"))
      this.headers.append("content-type", extracted.type);
  }

  /** Everything undici's object, made for the held body, answers once a stream was needed. */
  #native(lean: LeanBody<Response>): Response {
    return (
      lean.native ?? nativeBody(lean, (held) => new NativeResponse(held, { headers: this.headers }))
    );
  }

  get body(): ReadableStream<Bytes> | null {
    const lean = this.#lean;
    return lean === null ? super.body : this.#native(lean).body;
  }

  get bodyUsed(): boolean {
    const lean = this.#lean;
    if (lean === null) return super.bodyUsed;
    return lean.native ? lean.native.bodyUsed : lean.used;
  }

  text(): Promise<string> {
    const lean = this.#lean;
    if (lean === null) return super.text();
    return lean.native ? lean.native.text() : leanText(lean);
  }

  json(): Promise<unknown> {
    const lean = this.#lean;
    if (lean === null) return super.json();
    return lean.native ? lean.native.json() : leanJson(lean);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const lean = this.#lean;
    if (lean === null) return super.arrayBuffer();
    return lean.native ? lean.native.arrayBuffer() : leanArrayBuffer(lean);
  }

  async bytes(): Promise<Bytes> {
    return new Uint8Array(await this.arrayBuffer());
  }

  // The Blob's type and the form's parsing follow the Content-Type: undici's own reading does both.
  blob(): Promise<Blob> {
    const lean = this.#lean;
    return lean === null ? super.blob() : this.#native(lean).blob();
  }

  formData(): Promise<FormData> {
    const lean = this.#lean;
    return lean === null ? super.formData() : this.#native(lean).formData();
  }

  clone(): Response {
    const lean = this.#lean;
    if (lean === null) return super.clone();
    if (lean.native) return lean.native.clone();
    if (lean.used) throw new TypeError("Response.clone: Body has already been consumed.");
    // Same status and header list (copied, not re-derived), the same held body unread.
    const copy = new LeanResponse(null, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
    copy.#lean = { held: lean.held, used: false, native: null };
    return copy;
  }

  /** For the site port: the held body, now read, or null when it is a stream (or none, or read). */
  static take(response: Response): Held | null {
    if (!(#lean in response)) return null;
    const lean = response.#lean;
    if (lean === null || lean.native || lean.used) return null;
    lean.used = true;
    return lean.held;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    // undici's own responses (fetch's, Response.json's) are Responses too.
    return Function.prototype[Symbol.hasInstance].call(NativeResponse, value);
  }
}

/**
 * From now on in this process, `Response` is LeanResponse (as Convex's runtime has its own). A
 * response undici makes (`fetch`, `Response.json`) is still `instanceof Response`.
 */
export function installLeanResponse() {
  if (globalThis.Response !== NativeResponse) return;
  globalThis.Response = LeanResponse;
}

export interface LeanRequestInit {
  method: string;
  /** The URL, serialized. */
  url: string;
  /** The headers, or how to make them the first time they are asked for. */
  headers: Headers | (() => Headers);
  /**
   * The request's body (none for GET and HEAD), kept, not copied: its bytes read whole, or a Blob
   * read from disk when used (a large body, staged).
   */
  body: Uint8Array | Blob | undefined;
}

// What undici's Request reports for a request made from a URL, method, headers and body.
const defaults = new NativeRequest("http://localhost/") as Request & {
  isReloadNavigation: boolean;
  isHistoryNavigation: boolean;
  duplex: string;
};

/**
 * The Request an HTTP action's handler gets: undici's `Request.prototype` members, answered from
 * the method, URL, headers and body it was made with; `signal` and `body` are made when first asked.
 */
class LeanRequest {
  #init: LeanRequestInit;
  #lean: LeanBody<Request> | null;
  #signal: AbortSignal | null = null;
  #headers: Headers | null;

  constructor(init: LeanRequestInit) {
    this.#init = init;
    this.#headers = typeof init.headers === "function" ? null : init.headers;
    const body = init.body;
    this.#lean =
      body === undefined
        ? null
        : {
            held:
              body instanceof Blob
                ? body
                : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength),
            used: false,
            native: null,
          };
  }

  #native(lean: LeanBody<Request>): Request {
    return (
      lean.native ??
      nativeBody(
        lean,
        (held) =>
          new NativeRequest(this.#init.url, {
            method: this.#init.method,
            headers: this.headers,
            body: held,
          }),
      )
    );
  }

  get method() {
    return this.#init.method;
  }
  get url() {
    return this.#init.url;
  }
  get headers(): Headers {
    return (this.#headers ??= (this.#init as { headers(): Headers }).headers());
  }
  get destination() {
    return defaults.destination;
  }
  get referrer() {
    return defaults.referrer;
  }
  get referrerPolicy() {
    return defaults.referrerPolicy;
  }
  get mode() {
    return defaults.mode;
  }
  get credentials() {
    return defaults.credentials;
  }
  get cache() {
    return defaults.cache;
  }
  get redirect() {
    return defaults.redirect;
  }
  get integrity() {
    return defaults.integrity;
  }
  get keepalive() {
    return defaults.keepalive;
  }
  get isReloadNavigation() {
    return defaults.isReloadNavigation;
  }
  get isHistoryNavigation() {
    return defaults.isHistoryNavigation;
  }
  get duplex() {
    return defaults.duplex;
  }
  get signal(): AbortSignal {
    return (this.#signal ??= new AbortController().signal);
  }

  get body(): ReadableStream<Bytes> | null {
    const lean = this.#lean;
    return lean === null ? null : this.#native(lean).body;
  }
  get bodyUsed(): boolean {
    const lean = this.#lean;
    if (lean === null) return false;
    return lean.native ? lean.native.bodyUsed : lean.used;
  }
  text(): Promise<string> {
    const lean = this.#lean;
    if (lean === null) return Promise.resolve("");
    return lean.native ? lean.native.text() : leanText(lean);
  }
  json(): Promise<unknown> {
    const lean = this.#lean;
    // No body reads as "", which is not JSON.
    if (lean === null) return Promise.resolve("").then(JSON.parse);
    return lean.native ? lean.native.json() : leanJson(lean);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    const lean = this.#lean;
    if (lean === null) return Promise.resolve(new ArrayBuffer(0));
    return lean.native ? lean.native.arrayBuffer() : leanArrayBuffer(lean);
  }
  async bytes(): Promise<Bytes> {
    return new Uint8Array(await this.arrayBuffer());
  }
  blob(): Promise<Blob> {
    const lean = this.#lean;
    // A staged body (a Blob read from disk) is handed over as it is: never read into memory.
    if (lean !== null && lean.native === null && lean.held instanceof Blob) {
      if (lean.used) return Promise.reject(unusable());
      lean.used = true;
      const type = this.headers.get("Content-Type") ?? "";
      return Promise.resolve(lean.held.slice(0, lean.held.size, type));
    }
    return this.#asNative().blob();
  }
  formData(): Promise<FormData> {
    return this.#asNative().formData();
  }
  clone(): Request {
    return this.#asNative().clone();
  }

  /** undici's Request for the same request (its body read or not, as this one's). */
  #asNative(): Request {
    const lean = this.#lean;
    if (lean !== null) return this.#native(lean);
    return new NativeRequest(this.#init.url, {
      method: this.#init.method,
      headers: this.headers,
    });
  }
}
Object.setPrototypeOf(LeanRequest.prototype, NativeRequest.prototype);

/** The Request an HTTP action's handler gets (`instanceof Request`). */
export const leanRequest = (init: LeanRequestInit): Request =>
  new LeanRequest(init) as unknown as Request;
