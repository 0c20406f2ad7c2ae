/**
 * Part 4 of the hostile drill: guessing ids. An attacker signs in twice around another user's sign-in
 * (the admin's) and uploads files around another user's upload, then tries the neighbours of its own
 * fresh ids — counted up and down, characters stepped and bits flipped — as refresh tokens
 * (`auth:signIn({refreshToken})`), as storage URLs, and as the id argument of a public query. A guess
 * that yields tokens, a file or a document is a hit. Controls with the real values prove each probe
 * would see a hit.
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { PNG } from "./app-backend.ts";
import { clientAs, setPhoto, upload } from "./hostile-app.ts";
import { DEMO_PASSWORD, signIn, type HostileBackend, type Tokens } from "./hostile-backend.ts";

const refresh = makeFunctionReference<
  "action",
  { refreshToken: string },
  { tokens?: { token: string } | null } | null
>("auth:signIn");
const search = makeFunctionReference<
  "query",
  { specialty: string; city: string },
  { _id: string }[]
>("professionals:search");
const professional = makeFunctionReference<"query", { professionalId: string }, unknown>(
  "professionals:get",
);

export type IdReport = {
  guesses: number;
  hits: number;
  byKind: Record<string, { guesses: number; hits: number }>;
  controls: string[];
  failures: string[];
};

const ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz";
/** The alphabet of Convex's ids (base32 without i, l, o, u). */
const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";

/** `id` read as a number in `alphabet` plus `delta`, same width; null when it does not fit. */
function step(id: string, alphabet: string, delta: bigint): string | null {
  const base = BigInt(alphabet.length);
  let value = 0n;
  for (const c of id) value = value * base + BigInt(alphabet.indexOf(c));
  value += delta;
  if (value < 0n) return null;
  let out = "";
  for (let i = 0; i < id.length; i++, value /= base) out = alphabet[Number(value % base)] + out;
  return value === 0n ? out : null;
}

/**
 * Ids an attacker would try next to `id`, nearest first: the id counted up and down (its longest
 * run of decimal digits, as counters number ids, or the whole id as a base32 number), then each
 * character stepped ±1 and its low bits flipped, from the end. Never `id` itself.
 */
export function neighbours(id: string, count: number): string[] {
  const out = new Set<string>();
  const run = [...id.matchAll(/\d{3,}/g)].sort((a, b) => b[0].length - a[0].length)[0];
  const alphabet = [...id].every((c) => BASE32.includes(c)) ? BASE32 : ALPHANUMERIC;
  const [before, counter, after] =
    run?.index !== undefined
      ? [id.slice(0, run.index), run[0], id.slice(run.index + run[0].length)]
      : ["", id, ""];
  const digits = run !== undefined ? "0123456789" : alphabet;
  for (let d = 1n; d <= BigInt(Math.ceil(count / 4)); d++)
    for (const next of [step(counter, digits, d), step(counter, digits, -d)])
      if (next !== null) out.add(before + next + after);
  for (let i = id.length - 1; i >= 0 && out.size < count * 2; i--) {
    const at = alphabet.indexOf(id[i]);
    if (at < 0) continue;
    const swaps = [alphabet[at + 1], alphabet[at - 1]];
    for (let bit = 0; bit < 5; bit++)
      swaps.push(String.fromCharCode(id.charCodeAt(i) ^ (1 << bit)));
    for (const c of swaps)
      if (c && c !== id[i] && alphabet.includes(c)) out.add(id.slice(0, i) + c + id.slice(i + 1));
  }
  out.delete(id);
  return [...out].slice(0, count);
}

/** Takes `n` from the lists in turn. */
function spread<T>(lists: T[][], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < n && lists.some((l) => i < l.length); i++)
    for (const l of lists) if (i < l.length && out.length < n) out.push(l[i]);
  return out;
}

async function refreshWorks(url: string, refreshToken: string): Promise<boolean> {
  try {
    const result = await new ConvexHttpClient(url, { logger: false }).action(refresh, {
      refreshToken,
    });
    return Boolean(result?.tokens);
  } catch {
    return false;
  }
}

async function fileServed(fileUrl: string): Promise<boolean> {
  const res = await fetch(fileUrl);
  await res.arrayBuffer();
  return res.status === 200;
}

async function documentFound(url: string, professionalId: string): Promise<boolean> {
  try {
    return (
      (await new ConvexHttpClient(url, { logger: false }).query(professional, {
        professionalId,
      })) !== null
    );
  } catch {
    return false;
  }
}

export async function runIdGuessing(
  backend: HostileBackend,
  options: {
    guesses: number;
    attacker: string;
    /** Signs the victim in (a new session each call). */
    victim: () => Promise<Tokens>;
    uploader: string;
  },
): Promise<IdReport> {
  const { url } = backend;
  const report: IdReport = { guesses: 0, hits: 0, byKind: {}, controls: [], failures: [] };
  const tally = async (kind: string, guesses: string[], probe: (g: string) => Promise<boolean>) => {
    const entry = (report.byKind[kind] ??= { guesses: 0, hits: 0 });
    for (const guess of guesses) {
      entry.guesses += 1;
      report.guesses += 1;
      if (await probe(guess)) {
        entry.hits += 1;
        report.hits += 1;
        if (report.failures.length < 10) report.failures.push(`${kind}: ${guess} was a hit`);
      }
    }
  };
  const control = async (what: string, works: Promise<boolean>) => {
    const ok = await works;
    report.controls.push(`${what} ${ok ? "works" : "FAILS"}`);
    if (!ok) report.failures.push(`control: ${what} did not work, so the probe cannot see a hit`);
  };

  // Fresh ids around someone else's: sign in, the victim signs in, sign in again; same with uploads.
  const first = await signIn(url, "customer", options.attacker, DEMO_PASSWORD);
  const victim = await options.victim();
  const second = await signIn(url, "customer", options.attacker, DEMO_PASSWORD);
  const uploaderToken = (await signIn(url, "customer", options.uploader, DEMO_PASSWORD)).token;
  const own1 = (await upload(url, first.token, PNG, "image/png")).storageId;
  const theirs = (await upload(url, uploaderToken, PNG, "image/png")).storageId;
  const own2 = (await upload(url, first.token, PNG, "image/png")).storageId;
  if (!own1 || !own2 || !theirs) throw new Error("uploads for the id guessing were refused");
  const ownUrl = new URL(await setPhoto(url, first.token, own2));
  const theirUrl = new URL(await setPhoto(url, uploaderToken, theirs));
  const pros = await clientAs(url, first.token).query(search, {
    specialty: "electrician",
    city: "nepalgunj",
  });

  const budget = {
    refresh: Math.round(options.guesses * 0.4),
    storage: Math.round(options.guesses * 0.3),
  };
  const documents = options.guesses - budget.refresh - budget.storage;

  // Refresh tokens are "<refresh token id>|<session id>": guess both halves, and each alone.
  const split = (t: string) => t.split("|") as [string, string];
  const [rt1, s1] = split(first.refreshToken);
  const [rt2, s2] = split(second.refreshToken);
  const per = Math.ceil(budget.refresh / 6);
  const pairs = (rt: string, s: string) => {
    const rts = neighbours(rt, per);
    const ss = neighbours(s, per);
    return rts.map((r, i) => `${r}|${ss[i] ?? s}`);
  };
  await tally(
    "refresh token",
    spread(
      [
        pairs(rt1, s1),
        pairs(rt2, s2),
        neighbours(rt1, per).map((r) => `${r}|${s1}`),
        neighbours(rt2, per).map((r) => `${r}|${s2}`),
        neighbours(s1, per).map((s) => `${rt1}|${s}`),
        neighbours(s2, per).map((s) => `${rt2}|${s}`),
      ],
      budget.refresh,
    ),
    (g) => refreshWorks(url, g),
  );

  // Storage URLs: a neighbour id with no token, and with the token of the attacker's own file.
  const fileUrl = (id: string, token?: string) =>
    `${url}/api/storage/${encodeURIComponent(id)}${token ? `?token=${token}` : ""}`;
  const ownToken = ownUrl.searchParams.get("token") ?? "";
  const per2 = Math.ceil(budget.storage / 4);
  await tally(
    "storage URL",
    spread(
      [
        neighbours(own1, per2).map((id) => fileUrl(id)),
        neighbours(own2, per2).map((id) => fileUrl(id)),
        neighbours(own1, per2).map((id) => fileUrl(id, ownToken)),
        neighbours(own2, per2).map((id) => fileUrl(id, ownToken)),
      ],
      budget.storage,
    ),
    fileServed,
  );

  // Document ids: neighbours of the professionals a search shows, as professionals:get's argument.
  await tally(
    "document id",
    spread(
      pros.map((p) => neighbours(p._id, Math.ceil(documents / Math.max(1, pros.length)))),
      documents,
    ),
    (g) => documentFound(url, g),
  );

  await control("the victim's own refresh token", refreshWorks(url, victim.refreshToken));
  await control("another user's file with its own URL", fileServed(theirUrl.href));
  await control(
    "professionals:get with a real id",
    pros.length > 0 ? documentFound(url, pros[0]._id) : Promise.resolve(false),
  );
  return report;
}

export const summarizeIds = (r: IdReport) =>
  `${r.hits} hits of ${r.guesses} guesses (${Object.entries(r.byKind)
    .map(([k, v]) => `${k} ${v.hits}/${v.guesses}`)
    .join(", ")}); controls: ${r.controls.join(", ")}`;
