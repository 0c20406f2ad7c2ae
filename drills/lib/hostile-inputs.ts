/**
 * What the hostile drill throws at a running backend: sync frames (non-JSON, binary, bad UTF-8, deep,
 * huge, every message type with wrong field types, unknown types, abusive sequences), WebSocket frames
 * that break the framing itself, and raw HTTP bytes on the three ports (malformed targets, odd methods,
 * broken headers and bodies, upgrades with bad targets) that Node's own client would refuse to send.
 * Deterministic for a seed; large payloads are built only when sent.
 */
import { version } from "convex";
import { rng } from "./fuzz.ts";
import type { Ports } from "./hostile-backend.ts";

export type Frame = { data: string | Buffer; binary?: boolean };

export type HostileInput =
  | { kind: "frames"; category: string; label: string; connect: boolean; frames: () => Frame[] }
  | { kind: "ws-raw"; category: string; label: string; bytes: () => Buffer }
  | { kind: "http"; category: string; label: string; port: keyof Ports; bytes: () => Buffer };

type Rng = ReturnType<typeof rng>;

const SYNC_PATH = `/api/${version}/sync`;
const latin1 = (s: string) => Buffer.from(s, "latin1");
const utf8AsLatin1 = (s: string) => Buffer.from(s, "utf8").toString("latin1");
const short = (s: string, n = 60) =>
  JSON.stringify(s.length > n ? `${s.slice(0, n)}…(${s.length})` : s);

/** Nested arrays `depth` deep, around `inner`. */
const deepArray = (depth: number, inner = "0") => "[".repeat(depth) + inner + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "0" + "}".repeat(depth);

const WEIRD: [string, unknown][] = [
  ["null", null],
  ["true", true],
  ["0", 0],
  ["-1", -1],
  ["1.5", 1.5],
  ["2^53+2", 2 ** 53 + 2],
  ["1e308", 1e308],
  ["empty string", ""],
  ["string", "x"],
  ["numeric string", "1"],
  ["NUL", "\u0000"],
  ["lone surrogate", "\ud800"],
  ["64 KB string", "x".repeat(65_536)],
  ["array", [1, "a", null]],
  ["empty array", []],
  ["object", { a: 1 }],
  ["empty object", {}],
  ["__proto__ object", JSON.parse('{"__proto__":{"polluted":true}}')],
  ["$integer", { $integer: "not base64!" }],
  ["$bytes", { $bytes: 5 }],
  ["$float NaN", { $float: "AAAAAAAA+H8=" }],
  ["dollar key", { $weird: 1 }],
  ["nested 200", JSON.parse(deepArray(200))],
];

type Field = { path: (string | number)[] };

const BASES: Record<string, () => Record<string, unknown>> = {
  Connect: () => ({
    type: "Connect",
    sessionId: "00000000-0000-4000-8000-000000000000",
    connectionCount: 0,
    lastCloseReason: null,
    maxObservedTimestamp: "0",
    clientTs: 0,
  }),
  ModifyQuerySet: () => ({
    type: "ModifyQuerySet",
    baseVersion: 0,
    newVersion: 1,
    modifications: [
      { type: "Add", queryId: 0, udfPath: "catalog:search", args: [{ text: "x" }], journal: null },
    ],
  }),
  Mutation: () => ({
    type: "Mutation",
    requestId: 0,
    udfPath: "presence:heartbeat",
    args: [{}],
    componentPath: undefined,
  }),
  Action: () => ({
    type: "Action",
    requestId: 0,
    udfPath: "auth:signIn",
    args: [{ provider: "customer", params: {} }],
    componentPath: undefined,
  }),
  Authenticate: () => ({ type: "Authenticate", tokenType: "User", value: "a.b.c", baseVersion: 0 }),
  Event: () => ({ type: "Event", eventType: "x", event: {} }),
};

const FIELDS: Record<string, Field[]> = {
  Connect: [
    "sessionId",
    "connectionCount",
    "lastCloseReason",
    "maxObservedTimestamp",
    "clientTs",
  ].map((f) => ({ path: [f] })),
  ModifyQuerySet: [
    ["baseVersion"],
    ["newVersion"],
    ["modifications"],
    ["modifications", 0],
    ["modifications", 0, "type"],
    ["modifications", 0, "queryId"],
    ["modifications", 0, "udfPath"],
    ["modifications", 0, "args"],
    ["modifications", 0, "args", 0],
    ["modifications", 0, "journal"],
  ].map((path) => ({ path })),
  Mutation: [["requestId"], ["udfPath"], ["args"], ["args", 0], ["componentPath"]].map((path) => ({
    path,
  })),
  Action: [["requestId"], ["udfPath"], ["args"], ["args", 0], ["componentPath"]].map((path) => ({
    path,
  })),
  Authenticate: [["tokenType"], ["value"], ["baseVersion"], ["impersonating"]].map((path) => ({
    path,
  })),
  Event: [["eventType"], ["event"]].map((path) => ({ path })),
};

function setPath(root: Record<string, unknown>, path: (string | number)[], value: unknown) {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
}

type Case = { label: string; frame: () => string };

/** Takes one from each list in turn, so any prefix covers every list. */
const interleave = <T>(lists: T[][]): T[] =>
  Array.from({ length: Math.max(...lists.map((l) => l.length)) }, (_, i) =>
    lists.flatMap((l) => (i < l.length ? [l[i]] : [])),
  ).flat();

/**
 * Every message type × every field × (each weird value, missing), plus an unknown extra field;
 * interleaved by type and field, so a short run still tries every message type.
 */
const WRONG_TYPES: Case[] = interleave(
  Object.entries(FIELDS).map(([type, fields]) => [
    ...interleave(
      fields.map((field) =>
        [...WEIRD, ["missing", undefined] as [string, unknown]].map(([name, value]) => ({
          label: `${type}.${field.path.join(".")} = ${name}`,
          frame: () => {
            const message = BASES[type]();
            setPath(message, field.path, value);
            return JSON.stringify(message);
          },
        })),
      ),
    ),
    {
      label: `${type} with an extra field`,
      frame: () => JSON.stringify({ ...BASES[type](), extra: { $integer: 1 } }),
    },
    { label: `${type} as an array`, frame: () => JSON.stringify([BASES[type]()]) },
  ]),
);

const LITERALS = [
  "null",
  "true",
  "false",
  "0",
  "-0",
  "1e999",
  '"Connect"',
  "[]",
  "{}",
  "[null]",
  '{"type":null}',
  '{"type":1}',
  '{"type":{}}',
  '{"type":["Mutation"]}',
  '{"type":"Mutation"}',
  '{"type":"ModifyQuerySet"}',
  '{"type":"Authenticate"}',
  '{"type":"Connect"}',
  '{"type":"Action"}',
  '{"type":"Event"}',
  "",
  " ",
  "\n",
];

const NOT_JSON = [
  "{",
  "}",
  "[1,2",
  "{'type':'Connect'}",
  '{"type":"Connect",}',
  '{"type":"Connect"}{"type":"Connect"}',
  "NaN",
  "undefined",
  "\uFEFF{}",
  '{"type": "Mutation" /* comment */}',
  "<script>alert(1)</script>",
  "GET / HTTP/1.1",
  "\u0000\u0001\u0002",
];

const UNKNOWN_TYPES = [
  "Ping",
  "Transition",
  "TransitionChunk",
  "FatalError",
  "MutationResponse",
  "AuthError",
  "",
  "connect",
  "MUTATION",
  "Mutation ",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "x".repeat(10_000),
];

const UDF_PATHS = [
  "auth:store",
  "users:purgeData",
  "seed:init",
  "nonexistent:fn",
  "",
  ":",
  "catalog",
  "catalog:",
  ":search",
  "../convex/catalog:search",
  "catalog.js:search",
  "catalog:search:extra",
  "__proto__:x",
  "constructor:constructor",
  "catalog:__proto__",
  "catalog:constructor",
  "catalog:toString",
  "_system/frontend/x:y",
  "_generated/api:api",
  "schema:default",
  "http:default",
  "crons:default",
  "catalog:search\u0000",
  "a".repeat(10_000),
  "convex/catalog:search",
  "/etc/passwd:x",
];

const BAD_ARGS: unknown[] = [
  [],
  [null],
  [1],
  [{}, {}],
  [{ text: { $integer: "AAAAAAAAAAA=" } }],
  [{ $bytes: "%%%" }],
  [{ text: { $bytes: "AAA" } }],
  [{ $foo: 1 }],
  [{ text: "x", $weird: 1 }],
  [JSON.parse('{"__proto__":{"polluted":true}}')],
  [{ constructor: { prototype: { x: 1 } } }],
  [{ text: { $float: "NaN" } }],
  [{ text: { $set: [] } }],
  [{ text: { $map: [] } }],
  [{ text: "x".repeat(1_000_000) }],
  [{ text: JSON.parse(deepArray(5_000)) }],
];

function forgedJwt(header: object, payload: object, signature = "") {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${enc(header)}.${enc(payload)}.${signature}`;
}

const TOKENS: [unknown, unknown][] = [
  ["User", ""],
  ["User", "x"],
  ["User", "a.b.c"],
  ["User", forgedJwt({ alg: "none" }, { sub: "x|y", exp: 9e15 })],
  ["User", forgedJwt({ alg: "RS256", kid: "../../x" }, { sub: "x", exp: -1 }, "AAAA")],
  ["User", forgedJwt({ alg: "HS256" }, { sub: "x", exp: "soon" }, "AAAA")],
  ["User", `${"A".repeat(1_000_000)}.b.c`],
  ["User", null],
  ["User", 42],
  ["Admin", ""],
  ["Admin", "x"],
  ["Admin", null],
  ["Admin", { key: "x" }],
  ["None", "x"],
  ["Root", "x"],
  [null, null],
];

/** Frames that ask for work in abusive ways: bad versions, ids, paths, arguments, tokens, bursts. */
function semanticFrames(r: Rng): { label: string; frames: () => Frame[] } {
  const f = (label: string, frames: () => unknown[]) => ({
    label,
    frames: () => frames().map((m) => ({ data: typeof m === "string" ? m : JSON.stringify(m) })),
  });
  const mqs = (base: number, next: number, modifications: unknown[]) => ({
    type: "ModifyQuerySet",
    baseVersion: base,
    newVersion: next,
    modifications,
  });
  const add = (
    queryId: unknown,
    udfPath: unknown = "catalog:search",
    args: unknown = [{ text: "x" }],
  ) => ({
    type: "Add",
    queryId,
    udfPath,
    args,
  });
  const choices = [
    () => f("Connect twice", () => [BASES.Connect(), BASES.Connect()]),
    () => f("Remove before Add", () => [mqs(0, 1, [{ type: "Remove", queryId: 7 }])]),
    () =>
      f("Add, Remove, Remove", () => [
        mqs(0, 1, [add(1), { type: "Remove", queryId: 1 }, { type: "Remove", queryId: 1 }]),
      ]),
    () => f("duplicate query ids in a frame", () => [mqs(0, 1, [add(1), add(1)])]),
    () => f("same new version twice", () => [mqs(0, 1, [add(1)]), mqs(0, 1, [add(2)])]),
    () => f("versions going back", () => [mqs(0, 1, [add(1)]), mqs(1, 0, [add(2)])]),
    () => f("base version from the future", () => [mqs(5, 6, [add(1)])]),
    () => f("new version 2^53", () => [mqs(0, 2 ** 53, [add(1)])]),
    () => f("query id -1", () => [mqs(0, 1, [add(-1)])]),
    () => f("query id 1.5", () => [mqs(0, 1, [add(1.5)])]),
    () => f("query id 2^60", () => [mqs(0, 1, [add(2 ** 60)])]),
    () => f("query id as a string", () => [mqs(0, 1, [add("1")])]),
    () => {
      const path = r.pick(UDF_PATHS);
      return f(`subscribe to ${short(path)}`, () => [mqs(0, 1, [add(1, path)])]);
    },
    () => {
      const path = r.pick(UDF_PATHS);
      return f(`mutation ${short(path)}`, () => [
        { ...BASES.Mutation(), udfPath: path, args: [{}] },
      ]);
    },
    () => {
      const path = r.pick(UDF_PATHS);
      return f(`action ${short(path)}`, () => [{ ...BASES.Action(), udfPath: path, args: [{}] }]);
    },
    () => {
      const i = r.int(BAD_ARGS.length);
      return f(`query arguments #${i}`, () => [mqs(0, 1, [add(1, "catalog:search", BAD_ARGS[i])])]);
    },
    () => {
      const i = r.int(BAD_ARGS.length);
      return f(`mutation arguments #${i}`, () => [{ ...BASES.Mutation(), args: BAD_ARGS[i] }]);
    },
    () => {
      const [tokenType, value] = r.pick(TOKENS);
      return f(`Authenticate ${String(tokenType)} ${short(String(value), 20)}`, () => [
        { type: "Authenticate", tokenType, value, baseVersion: 0 },
        mqs(0, 1, [add(1, "users:viewer", [{}])]),
      ]);
    },
    () =>
      f("Authenticate with base version 2^53", () => [
        { ...BASES.Authenticate(), baseVersion: 2 ** 53 },
      ]),
    () =>
      f("1,500 Adds in one frame", () => [
        mqs(
          0,
          1,
          Array.from({ length: 1500 }, (_, i) => add(i, "catalog:search", [{ text: `f${i}` }])),
        ),
      ]),
    () =>
      f("2,000 mutations of a missing function", () =>
        Array.from({ length: 2000 }, (_, i) => ({
          ...BASES.Mutation(),
          requestId: i,
          udfPath: "nope:nope",
        })),
      ),
    () =>
      f("1,200 mutations with one request id", () =>
        Array.from({ length: 1200 }, () => BASES.Mutation()),
      ),
    () =>
      f("50 sign-in actions with garbage params", () =>
        Array.from({ length: 50 }, (_, i) => ({
          ...BASES.Action(),
          requestId: i,
          args: [{ provider: "admin", params: { username: {}, password: [] } }],
        })),
      ),
    () =>
      f("a refresh token of garbage", () => [
        { ...BASES.Action(), args: [{ refreshToken: "x|y" }] },
      ]),
    () =>
      f("a refresh token naming the users table", () => [
        { ...BASES.Action(), args: [{ refreshToken: "1users|2users" }] },
      ]),
    () =>
      f("sign-in with a verifier for another table", () => [
        {
          ...BASES.Action(),
          args: [{ provider: "customer", params: { code: "x" }, verifier: "1users" }],
        },
      ]),
    () => f("Event flood", () => Array.from({ length: 3000 }, () => BASES.Event())),
  ];
  return r.pick(choices)();
}

function badUtf8(r: Rng): Buffer {
  const message = Buffer.from(JSON.stringify(BASES[r.pick(Object.keys(BASES))]()));
  const bad = r.pick([
    [0x80],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf0, 0x9f],
    [0xff],
    [0xfe, 0xff],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
  ]);
  const at = r.int(message.length);
  return Buffer.concat([message.subarray(0, at), Buffer.from(bad), message.subarray(at)]);
}

function randomBytes(r: Rng, n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, () => r.int(256)));
}

/** A masked (or not) WebSocket frame with free control over every header bit. */
function wsFrame(
  opcode: number,
  payload: Buffer,
  {
    fin = true,
    rsv = 0,
    masked = true,
    length,
  }: { fin?: boolean; rsv?: number; masked?: boolean; length?: bigint } = {},
): Buffer {
  const len = length ?? BigInt(payload.length);
  const head: number[] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
  const maskBit = masked ? 0x80 : 0;
  if (len < 126n && length === undefined) head.push(maskBit | Number(len));
  else if (len < 65536n && length === undefined)
    head.push(maskBit | 126, Number(len >> 8n), Number(len & 0xffn));
  else {
    head.push(maskBit | 127);
    for (let i = 7; i >= 0; i--) head.push(Number((len >> BigInt(i * 8)) & 0xffn));
  }
  if (!masked) return Buffer.concat([Buffer.from(head), payload]);
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([Buffer.from(head), mask, body]);
}

const WS_RAW: [string, () => Buffer][] = [
  ["unmasked text frame", () => wsFrame(1, Buffer.from("{}"), { masked: false })],
  ["reserved opcode 3", () => wsFrame(3, Buffer.from("x"))],
  ["reserved opcode 0xB", () => wsFrame(0xb, Buffer.from("x"))],
  ["RSV1 without an extension", () => wsFrame(1, Buffer.from("{}"), { rsv: 4 })],
  ["ping of 200 bytes", () => wsFrame(9, Buffer.alloc(200))],
  ["fragmented ping", () => wsFrame(9, Buffer.from("x"), { fin: false })],
  ["continuation without a start", () => wsFrame(0, Buffer.from("x"))],
  [
    "text interrupted by binary",
    () =>
      Buffer.concat([wsFrame(1, Buffer.from("{"), { fin: false }), wsFrame(2, Buffer.from("x"))]),
  ],
  ["length 2^63-1 and no payload", () => wsFrame(1, Buffer.alloc(0), { length: 2n ** 63n - 1n })],
  ["length with the top bit set", () => wsFrame(1, Buffer.alloc(0), { length: 2n ** 64n - 1n })],
  ["length 1 GB", () => wsFrame(2, Buffer.alloc(0), { length: 2n ** 30n })],
  ["non-minimal length", () => wsFrame(1, Buffer.from("{}"), { length: 2n })],
  ["close code 999", () => wsFrame(8, Buffer.from([0x03, 0xe7]))],
  ["close code 1005", () => wsFrame(8, Buffer.from([0x03, 0xed]))],
  ["close with one byte", () => wsFrame(8, Buffer.from([0x03]))],
  ["close with a bad UTF-8 reason", () => wsFrame(8, Buffer.from([0x03, 0xe8, 0xc0, 0xaf]))],
  [
    "bad UTF-8 split across fragments",
    () =>
      Buffer.concat([
        wsFrame(1, Buffer.from([0x22, 0xe0, 0xa4]), { fin: false }),
        wsFrame(0, Buffer.from([0x41, 0x22])),
      ]),
  ],
  [
    "Connect in one-byte fragments",
    () => {
      const bytes = Buffer.from(JSON.stringify(BASES.Connect()));
      return Buffer.concat(
        [...bytes].map((b, i) =>
          wsFrame(i === 0 ? 1 : 0, Buffer.from([b]), { fin: i === bytes.length - 1 }),
        ),
      );
    },
  ],
  [
    "1,000 pings",
    () => Buffer.concat(Array.from({ length: 1000 }, () => wsFrame(9, Buffer.from("p")))),
  ],
  [
    "10,000 empty fragments",
    () =>
      Buffer.concat([
        wsFrame(1, Buffer.alloc(0), { fin: false }),
        ...Array.from({ length: 10_000 }, () => wsFrame(0, Buffer.alloc(0), { fin: false })),
      ]),
  ],
  ["half a header", () => Buffer.from([0x81])],
  ["a frame header then nothing", () => Buffer.from([0x81, 0xfe, 0xff])],
];

const TARGETS = [
  "/%",
  "/%E0%A4%A",
  "http://[",
  "http://[::1",
  "http://[/",
  "http://evil.example/",
  "http://127.0.0.1:1/api/query",
  "https://x:99999/",
  "//",
  "//evil.example/x",
  "///",
  "/\u0000",
  "/%00",
  "/a\u0000b",
  "*",
  "/?%",
  "/?a=%zz",
  "/#frag",
  "/%%",
  "/%ff%fe",
  "/%c0%af",
  "/..",
  "/../../etc/passwd",
  "/..%2f..%2fetc%2fpasswd",
  "/.%2e/.%2e/package.json",
  "/%2e%2e/%2e%2e/package.json",
  "/\\..\\..\\package.json",
  "/assets/..%2f..%2fpackage.json",
  "/assets/%",
  "/assets/%E0%A4%A.js",
  "/assets/\u00e9.js",
  "/api/storage/%",
  "/api/storage/%E0%A4%A",
  "/api/storage/..%2f..%2fadmin-key",
  "/api/storage/../admin-key",
  "/api/storage/upload?token=%",
  "/api/%/sync",
  `/api/${version}/sync?%`,
  "/api/query?%",
  "/api/uploads?grant=%",
  "/\u0080\u00ff",
  `/${utf8AsLatin1("नेपाल")}`,
  "/\u00c0\u00af",
  "/\u00ed\u00a0\u0080",
  "/%u0041",
  "mailto:x",
  "javascript:alert(1)",
  "localhost:80",
  "?",
  "/a%20b",
  "/.well-known/%",
  "/.well-known/../../admin-key",
];

const PATHS: Record<keyof Ports, string[]> = {
  cloud: [
    "/api/query",
    "/api/mutation",
    "/api/action",
    "/api/function",
    "/api/query_ts",
    "/api/storage/upload",
    "/api/storage/x",
    SYNC_PATH,
    "/version",
    "/instance_name",
    "/",
  ],
  site: [
    "/api/users/login",
    "/api/technicians/register",
    "/api/uploads",
    "/api/current-locations",
    "/api/technicians/search",
    "/.well-known/openid-configuration",
    "/.well-known/jwks.json",
    "/",
  ],
  web: ["/", "/index.html", "/assets/app.js", "/assets/missing.js", "/login", "/admin-login"],
};

const METHODS = [
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "OPTIONS",
  "HEAD",
  "TRACE",
  "PROPFIND",
  "M-SEARCH",
  "SEARCH",
  "QUERY",
  "get",
  "G ET",
  "GET\u0000",
  "X".repeat(5_000),
  "",
  "CONNECT",
  "PRI",
];

const PORTS: (keyof Ports)[] = ["cloud", "site", "web"];

function request(
  method: string,
  target: string,
  headers: string[] = [],
  body: string | Buffer = "",
  { eol = "\r\n", version: httpVersion = "HTTP/1.1" } = {},
): Buffer {
  const head = [`${method} ${target} ${httpVersion}`, "Host: 127.0.0.1", ...headers].join(eol);
  return Buffer.concat([
    latin1(`${head}${eol}${eol}`),
    typeof body === "string" ? latin1(body) : body,
  ]);
}

const upgradeHeaders = (extra: string[] = []) => [
  "Upgrade: websocket",
  "Connection: Upgrade",
  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
  "Sec-WebSocket-Version: 13",
  ...extra,
];

const HEADER_ATTACKS: [string, (path: string) => Buffer][] = [
  ["Content-Length -1", (p) => request("POST", p, ["Content-Length: -1"], "{}")],
  ["Content-Length abc", (p) => request("POST", p, ["Content-Length: abc"], "{}")],
  [
    "Content-Length 10^20",
    (p) => request("POST", p, ["Content-Length: 99999999999999999999"], "{}"),
  ],
  [
    "two Content-Lengths",
    (p) => request("POST", p, ["Content-Length: 2", "Content-Length: 5"], "{}"),
  ],
  ["Content-Length larger than the body", (p) => request("POST", p, ["Content-Length: 500"], "{}")],
  [
    "chunked with a bad size",
    (p) => request("POST", p, ["Transfer-Encoding: chunked"], "zz\r\n{}\r\n0\r\n\r\n"),
  ],
  [
    "chunked with a huge size",
    (p) => request("POST", p, ["Transfer-Encoding: chunked"], "fffffffffffffff\r\n{}\r\n"),
  ],
  [
    "chunked and Content-Length",
    (p) =>
      request(
        "POST",
        p,
        ["Transfer-Encoding: chunked", "Content-Length: 3"],
        "2\r\n{}\r\n0\r\n\r\n",
      ),
  ],
  ["Transfer-Encoding gzip", (p) => request("POST", p, ["Transfer-Encoding: gzip"], "{}")],
  [
    "chunked with trailer garbage",
    (p) => request("POST", p, ["Transfer-Encoding: chunked"], "2\r\n{}\r\n0\r\nX\u0000: y\r\n\r\n"),
  ],
  ["a header without a colon", (p) => request("GET", p, ["Foo"])],
  ["a header name with a space", (p) => request("GET", p, ["Foo Bar: x"])],
  ["NUL in a header value", (p) => request("GET", p, ["X-A: a\u0000b"])],
  ["obs-fold", (p) => request("GET", p, ["X-A: a", " folded"])],
  [
    "2,000 headers",
    (p) =>
      request(
        "GET",
        p,
        Array.from({ length: 2000 }, (_, i) => `X-${i}: ${i}`),
      ),
  ],
  ["a 20 KB header", (p) => request("GET", p, [`X-Big: ${"a".repeat(20_000)}`])],
  ["a 100 KB header", (p) => request("GET", p, [`X-Big: ${"a".repeat(100_000)}`])],
  ["no Host", (p) => latin1(`GET ${p} HTTP/1.1\r\n\r\n`)],
  ["two Hosts", (p) => request("GET", p, ["Host: evil.example"])],
  ["Host [", (p) => latin1(`GET ${p} HTTP/1.1\r\nHost: [\r\n\r\n`)],
  [
    "Content-Type UTF-16 JSON",
    (p) =>
      request(
        "POST",
        p,
        ["Content-Type: application/json; charset=utf-16", "Content-Length: 4"],
        "\u00ff\u00fe{\u0000",
      ),
  ],
  [
    "multipart without a boundary",
    (p) => request("POST", p, ["Content-Type: multipart/form-data", "Content-Length: 5"], "hello"),
  ],
  [
    "multipart with an empty boundary",
    (p) =>
      request(
        "POST",
        p,
        ["Content-Type: multipart/form-data; boundary=", "Content-Length: 9"],
        "--\r\n--\r\n",
      ),
  ],
  [
    "multipart never closed",
    (p) =>
      request(
        "POST",
        p,
        ["Content-Type: multipart/form-data; boundary=b", "Content-Length: 60"],
        '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx',
      ),
  ],
  [
    "Content-Type image/gif;x=y, text/html",
    (p) =>
      request("POST", p, ["Content-Type: image/gif;x=y, text/html", "Content-Length: 6"], "GIF89a"),
  ],
  [
    "Content-Type NUL",
    (p) => request("POST", p, ["Content-Type: \u0000", "Content-Length: 2"], "{}"),
  ],
  [
    "Origin null",
    (p) => request("OPTIONS", p, ["Origin: null", "Access-Control-Request-Method: POST"]),
  ],
  ["Origin evil", (p) => request("GET", p, ["Origin: http://evil.example"])],
  [
    "Authorization Bearer empty",
    (p) => request("POST", p, ["Authorization: Bearer ", "Content-Length: 2"], "{}"),
  ],
  [
    "Authorization Convex wrong",
    (p) => request("POST", p, ["Authorization: Convex x", "Content-Length: 2"], "{}"),
  ],
  [
    "Authorization 50 KB",
    (p) => request("GET", p, [`Authorization: Bearer ${"A".repeat(50_000)}`]),
  ],
  [
    "Accept-Encoding odd",
    (p) => request("GET", p, ["Accept-Encoding: br;q=abc, gzip;q=-1, *;q=NaN"]),
  ],
  [
    "Range of 1,000 ranges",
    (p) =>
      request("GET", p, [`Range: bytes=${Array.from({ length: 1000 }, () => "0-0").join(",")}`]),
  ],
  ["Range past the end", (p) => request("GET", p, ["Range: bytes=999999999-"])],
  [
    "If-Modified-Since garbage",
    (p) => request("GET", p, ["If-Modified-Since: yesterday", "If-None-Match: *"]),
  ],
  [
    "Expect 100-continue",
    (p) => request("POST", p, ["Expect: 100-continue", "Content-Length: 2"], "{}"),
  ],
  [
    "Expect something else",
    (p) => request("POST", p, ["Expect: the-unexpected", "Content-Length: 2"], "{}"),
  ],
  [
    "h2c upgrade",
    (p) =>
      request("GET", p, [
        "Connection: Upgrade, HTTP2-Settings",
        "Upgrade: h2c",
        "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA",
      ]),
  ],
  ["LF line endings", (p) => request("GET", p, ["X-A: 1"], "", { eol: "\n" })],
  ["CR line endings", (p) => request("GET", p, ["X-A: 1"], "", { eol: "\r" })],
  ["HTTP/1.0", (p) => request("GET", p, [], "", { version: "HTTP/1.0" })],
  ["HTTP/9.9", (p) => request("GET", p, [], "", { version: "HTTP/9.9" })],
  [
    "Content-Encoding gzip of garbage",
    (p) =>
      request(
        "POST",
        p,
        ["Content-Encoding: gzip", "Content-Type: application/json", "Content-Length: 4"],
        "\u001f\u008bxx",
      ),
  ],
];

const API_BODIES: [string, () => string | Buffer][] = [
  ["null", () => "null"],
  ["[]", () => "[]"],
  ["{", () => "{"],
  ["a string", () => '"x"'],
  ["path 1", () => '{"path":1,"args":{}}'],
  ["args null", () => '{"path":"catalog:search","args":null}'],
  ["args [null]", () => '{"path":"catalog:search","args":[null]}'],
  ["bad $integer", () => '{"path":"catalog:search","args":{"text":{"$integer":"x"}}}'],
  ["internal function", () => '{"path":"users:purgeData","args":{"userId":"x"}}'],
  ["auth:store", () => '{"path":"auth:store","args":{"args":{"type":"signOut"}}}'],
  ["__proto__ path", () => '{"path":"__proto__:x","args":{}}'],
  [
    "bad UTF-8",
    () =>
      Buffer.from([0x7b, 0x22, 0x70, 0x61, 0x74, 0x68, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
  ],
  ["UTF-16 BOM", () => Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])],
  ["nested 100,000", () => `{"path":"catalog:search","args":{"text":${deepArray(100_000)}}}`],
  ["5 MB string", () => `{"path":"catalog:search","args":{"text":"${"x".repeat(5_000_000)}"}}`],
  ["email as an object", () => '{"email":{"$gt":""},"password":"x"}'],
  ["form body", () => "email=a%40b.np&password=x"],
];

const GARBAGE: [string, (r: Rng) => Buffer][] = [
  ["random bytes", (r) => randomBytes(r, 1 + r.int(4096))],
  [
    "TLS ClientHello",
    () => Buffer.from("16030100a5010000a10303" + "00".repeat(32) + "0000", "hex"),
  ],
  [
    "HTTP/2 preface",
    () =>
      latin1(
        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\u0000\u0000\u0000\u0004\u0000\u0000\u0000\u0000\u0000",
      ),
  ],
  ["HTTP/0.9", () => latin1("GET /\r\n")],
  ["a request line and nothing else", () => latin1("GET / HTTP/1.1")],
  ["blank lines", () => latin1("\r\n\r\n\r\n\r\n")],
  [
    "100 pipelined requests",
    () => Buffer.concat(Array.from({ length: 100 }, () => request("GET", "/"))),
  ],
  [
    "a 100 KB request line",
    () => latin1(`GET /${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
  ],
  ["NUL bytes", () => Buffer.alloc(1024)],
  ["request line of spaces", () => latin1("     \r\n\r\n")],
];

/** A path of `n` characters: long ones are refused by Node's header limit, shorter ones reach the handlers. */
const longPath = (n: number) => `/${"a".repeat(n)}`;

type Generator = (r: Rng, i: number) => HostileInput;

const frames = (
  category: string,
  label: string,
  make: () => Frame[],
  connect = true,
): HostileInput => ({
  kind: "frames",
  category,
  label,
  connect,
  frames: make,
});
const http = (
  category: string,
  label: string,
  port: keyof Ports,
  bytes: () => Buffer,
): HostileInput => ({
  kind: "http",
  category,
  label: `${port} ${label}`,
  port,
  bytes,
});

const GENERATORS: Generator[] = [
  (r) => {
    const text = r.pick(LITERALS);
    return frames(
      "frame: JSON that is not a message",
      short(text),
      () => [{ data: text }],
      r.next() < 0.5,
    );
  },
  (r) => {
    const base = JSON.stringify(BASES[r.pick(Object.keys(BASES))]());
    const cut = r.next() < 0.5;
    const text = cut ? base.slice(0, r.int(base.length)) : r.pick(NOT_JSON);
    return frames(
      "frame: not JSON",
      cut ? `truncated ${short(text)}` : short(text),
      () => [{ data: text }],
      r.next() < 0.5,
    );
  },
  (r) => {
    const json = r.next() < 0.5;
    const n = 1 + r.int(2048);
    const seed = r.int(2 ** 31);
    return frames(
      "frame: binary",
      json ? "a JSON message as a binary frame" : `${n} random bytes`,
      () => [
        {
          data: json ? Buffer.from(JSON.stringify(BASES.Connect())) : randomBytes(rng(seed), n),
          binary: true,
        },
      ],
    );
  },
  (r) => {
    const bytes = badUtf8(r);
    return frames(
      "frame: bad UTF-8",
      `text frame ${bytes.toString("hex").slice(0, 40)}`,
      () => [{ data: bytes }],
      r.next() < 0.5,
    );
  },
  (_r, i) => {
    const c = WRONG_TYPES[Math.floor(i / GENERATORS.length) % WRONG_TYPES.length];
    return frames("frame: wrong field types", c.label, () => [{ data: c.frame() }]);
  },
  (r) => {
    const type = r.pick(UNKNOWN_TYPES);
    return frames("frame: unknown type", short(type), () => [{ data: JSON.stringify({ type }) }]);
  },
  (r) => {
    const s = semanticFrames(r);
    return frames("frame: abusive sequence", s.label, s.frames);
  },
  (r) => {
    const depth = r.pick([1_000, 10_000, 100_000, 500_000]);
    const where = r.pick(["whole frame", "query arguments", "mutation arguments", "object"]);
    const text = () =>
      where === "whole frame"
        ? deepArray(depth)
        : where === "object"
          ? deepObject(depth)
          : where === "query arguments"
            ? `{"type":"ModifyQuerySet","baseVersion":0,"newVersion":1,"modifications":[{"type":"Add","queryId":1,"udfPath":"catalog:search","args":[{"text":${deepArray(depth)}}]}]}`
            : `{"type":"Mutation","requestId":1,"udfPath":"presence:heartbeat","args":[${deepArray(depth, "{}")}]}`;
    return frames("frame: deeply nested", `${where}, depth ${depth}`, () => [{ data: text() }]);
  },
  (r) => {
    const [label, make] = r.pick(WS_RAW);
    return { kind: "ws-raw", category: "websocket framing", label, bytes: make };
  },
  (r) => {
    const port = r.pick(PORTS);
    const target =
      r.next() < 0.1 ? longPath(r.pick([1_000, 8_000, 20_000, 70_000])) : r.pick(TARGETS);
    const method = r.next() < 0.8 ? "GET" : r.pick(METHODS);
    return http("http: malformed target", `${method} ${short(target)}`, port, () =>
      request(method, target),
    );
  },
  (r) => {
    const port = r.pick(PORTS);
    const method = r.pick(METHODS);
    const path = r.pick(PATHS[port]);
    const target = method === "CONNECT" ? "127.0.0.1:1" : method === "PRI" ? "*" : path;
    return http("http: odd method", `${short(method, 20)} ${target}`, port, () =>
      request(method, target, ["Content-Length: 0"]),
    );
  },
  (r) => {
    const port = r.pick(PORTS);
    const path = r.pick(PATHS[port]);
    const [label, make] = r.pick(HEADER_ATTACKS);
    return http("http: malformed headers", `${label} ${path}`, port, () => make(path));
  },
  (r) => {
    const port = r.pick<keyof Ports>(["cloud", "site"]);
    const path = r.pick(PATHS[port].filter((p) => p.startsWith("/api/") && p !== SYNC_PATH));
    const [label, body] = r.pick(API_BODIES);
    const contentType = r.pick([
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "image/png",
      "",
    ]);
    return http(
      "http: bad bodies and encodings",
      `${label} → ${path} (${contentType || "no type"})`,
      port,
      () => {
        const bytes = body();
        const size = typeof bytes === "string" ? Buffer.byteLength(bytes, "latin1") : bytes.length;
        return request(
          "POST",
          path,
          [...(contentType ? [`Content-Type: ${contentType}`] : []), `Content-Length: ${size}`],
          bytes,
        );
      },
    );
  },
  (r) => {
    const [label, make] = r.pick(GARBAGE);
    const port = r.pick(PORTS);
    const seed = r.int(2 ** 31);
    return http("http: not HTTP", label, port, () => make(rng(seed)));
  },
  (r) => {
    const port = r.pick(PORTS);
    const target = r.pick(TARGETS);
    const other = r.pick(PATHS[port]);
    const variants: [string, () => Buffer][] = [
      [`bad target ${short(target)}`, () => request("GET", target, upgradeHeaders())],
      ["absolute target", () => request("GET", `http://127.0.0.1${SYNC_PATH}`, upgradeHeaders())],
      ["target http://[", () => request("GET", "http://[", upgradeHeaders())],
      [
        "no key",
        () =>
          request(
            "GET",
            SYNC_PATH,
            upgradeHeaders().filter((h) => !h.startsWith("Sec-WebSocket-Key")),
          ),
      ],
      [
        "bad key",
        () =>
          request("GET", SYNC_PATH, [
            ...upgradeHeaders().filter((h) => !h.startsWith("Sec-WebSocket-Key")),
            "Sec-WebSocket-Key: x",
          ]),
      ],
      [
        "version 99",
        () =>
          request("GET", SYNC_PATH, [
            ...upgradeHeaders().filter((h) => !h.startsWith("Sec-WebSocket-Version")),
            "Sec-WebSocket-Version: 99",
          ]),
      ],
      ["POST upgrade", () => request("POST", SYNC_PATH, upgradeHeaders())],
      [
        "bad deflate parameters",
        () =>
          request(
            "GET",
            SYNC_PATH,
            upgradeHeaders([
              "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99; x=\u0000",
            ]),
          ),
      ],
      [
        "odd subprotocols",
        () =>
          request(
            "GET",
            SYNC_PATH,
            upgradeHeaders([`Sec-WebSocket-Protocol: ${",".repeat(1000)}`]),
          ),
      ],
      [
        "frames before the answer",
        () => request("GET", SYNC_PATH, upgradeHeaders(), wsFrame(1, Buffer.from("null"))),
      ],
      ["version path %", () => request("GET", "/api/%/sync", upgradeHeaders())],
      [`a path that is not sync: ${other}`, () => request("GET", other, upgradeHeaders())],
    ];
    const [label, make] = r.pick(variants);
    return http("upgrade", label, port, make);
  },
];

/** A few-MB frame; one in `count / budget` inputs (they are slow to send). */
function hugeInput(r: Rng): HostileInput {
  const mb = r.pick([3, 5, 8, 17]);
  const where = r.pick(["sessionId", "udfPath", "mutation arguments", "whitespace", "array"]);
  const fill = () => "x".repeat(mb * 1024 * 1024);
  const make = (): Frame[] => {
    switch (where) {
      case "sessionId":
        return [{ data: JSON.stringify({ ...BASES.Connect(), sessionId: fill() }) }];
      case "udfPath":
        return [{ data: JSON.stringify({ ...BASES.Mutation(), udfPath: fill() }) }];
      case "mutation arguments":
        return [{ data: JSON.stringify({ ...BASES.Mutation(), args: [{ text: fill() }] }) }];
      case "whitespace":
        return [{ data: " ".repeat(mb * 1024 * 1024) + "{}" }];
      default:
        return [{ data: `[${"0,".repeat((mb * 1024 * 1024) / 2)}0]` }];
    }
  };
  return frames("frame: huge", `${mb} MB, ${where}`, make);
}

/** `count` inputs, round-robin over the categories (huge frames `hugeEvery` apart), deterministic for `seed`. */
export function hostileInputs(count: number, seed: number, hugeEvery = 400): HostileInput[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) =>
    i % hugeEvery === hugeEvery - 1 ? hugeInput(r) : GENERATORS[i % GENERATORS.length](r, i),
  );
}
