// `withSearchIndex` as Convex answers it (crates/search: constants.rs, lib.rs, memory_index):
// - Text is tokenized by Convex's `convex_en` analyzer: tantivy's SimpleTokenizer (maximal runs of
//   alphanumeric characters, Unicode-aware, so Devanagari words are tokens; a virama or nukta, which
//   Unicode does not count as alphanumeric, splits a word there exactly as on Convex), tokens of 32
//   UTF-8 bytes or more dropped, then lowercased.
// - A query uses its first 16 tokens. Each matches its exact term; the last one also matches every
//   indexed term it is a prefix of, at half the weight. A document matches when it has any of
//   these terms and every `q.eq` filter holds.
// - Results are ordered by BM25 (tantivy's: k1 1.2, b 0.75, its quantised field lengths), ties newest
//   first; at most 1,024 results, as Convex loads at most that many candidates.
import { compareValues, jsonToConvex, type Value } from "convex/values";
import type { OrderedRow } from "./pagination.ts";

export interface SearchIndexDefinition {
  indexDescriptor: string;
  searchField: string;
  filterFields: string[];
}

export type SearchFilter =
  | { type: "Search"; fieldPath: string; value: string }
  | { type: "Eq"; fieldPath: string; value: unknown };

interface SearchableDoc {
  _id: string;
  _creationTime: number;
}

const MAX_QUERY_TERMS = 16;
const MAX_TEXT_TERM_BYTES = 32;
const MAX_CANDIDATE_REVISIONS = 1024;
const MAX_FILTER_CONDITIONS = 8;
/** Convex's TokenMatchAggregator keeps this many distinct query terms (exact and prefix matches). */
const MAX_UNIQUE_QUERY_TERMS = 64;
const K1 = 1.2;
const B = 0.75;

export class SearchQueryError extends Error {}

const WORD = /[\p{Alphabetic}\p{N}]+/gu;
const encoder = new TextEncoder();

/** Convex's `convex_en` analyzer. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.matchAll(WORD))
    if (encoder.encode(word).length < MAX_TEXT_TERM_BYTES) tokens.push(word.toLowerCase());
  return tokens;
}

/** tantivy's field-length quantisation: exact up to 40, then 8 steps per doubling of the step. */
const FIELD_NORMS: number[] = (() => {
  const table: number[] = [];
  for (let i = 0; i <= 40; i++) table.push(i);
  let value = 40;
  for (let step = 2; table.length < 256; step *= 2)
    for (let j = 0; j < 8 && table.length < 256; j++) table.push((value += step));
  return table;
})();

function quantisedFieldNorm(length: number): number {
  let lo = 0;
  let hi = FIELD_NORMS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (FIELD_NORMS[mid] <= length) lo = mid;
    else hi = mid - 1;
  }
  return FIELD_NORMS[lo];
}

function fieldValue(doc: unknown, fieldPath: string): unknown {
  let value: unknown = doc;
  for (const part of fieldPath.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

interface CompiledSearch {
  tokens: string[];
  equalities: [string, Value][];
}

function compile(
  indexName: string,
  index: SearchIndexDefinition,
  filters: SearchFilter[],
): CompiledSearch {
  let text: string | undefined;
  const equalities: [string, Value][] = [];
  for (const filter of filters) {
    if (filter.type === "Search") {
      if (filter.fieldPath !== index.searchField)
        throw new SearchQueryError(
          `Search query against ${indexName} contains a search filter against ${JSON.stringify(filter.fieldPath)}, ` +
            `which doesn't match the indexed \`searchField\` ${JSON.stringify(index.searchField)}.`,
        );
      if (text !== undefined)
        throw new SearchQueryError(
          `Search query against ${indexName} contains multiple search filters against ${JSON.stringify(filter.fieldPath)}. Only one is allowed.`,
        );
      text = filter.value;
    } else {
      if (!index.filterFields.includes(filter.fieldPath))
        throw new SearchQueryError(
          `Search query against ${indexName} contains an equality filter on ${JSON.stringify(filter.fieldPath)} ` +
            "but that field isn't indexed for filtering in `filterFields`.",
        );
      const raw = filter.value as Record<string, unknown> | null;
      const value =
        raw !== null && typeof raw === "object" && "$undefined" in raw
          ? undefined
          : jsonToConvex(raw as never);
      equalities.push([filter.fieldPath, value as Value]);
    }
  }
  if (text === undefined)
    throw new SearchQueryError(
      `Search query against ${indexName} does not contain any search filters. ` +
        `You must include a search filter like \`q.search(${JSON.stringify(index.searchField)}, searchText)\`.`,
    );
  if (equalities.length > MAX_FILTER_CONDITIONS)
    throw new SearchQueryError(
      `Search query against ${indexName} has too many filter conditions. Max: ${MAX_FILTER_CONDITIONS} Actual: ${equalities.length}`,
    );
  return { tokens: tokenize(text).slice(0, MAX_QUERY_TERMS), equalities };
}

interface IndexedDoc<D> {
  doc: D;
  /** term → frequency in the search field */
  terms: Map<string, number>;
  length: number;
}

/**
 * The documents of `docs` (one table) that match the search, best first, each with its position in
 * Convex's search order: (-score, -creation time, id).
 */
export function searchRows<D extends SearchableDoc>(
  docs: Iterable<D>,
  indexName: string,
  index: SearchIndexDefinition,
  filters: SearchFilter[],
): OrderedRow<D>[] {
  const { tokens, equalities } = compile(indexName, index, filters);
  if (tokens.length === 0) return [];

  const indexed: IndexedDoc<D>[] = [];
  const vocabulary = new Set<string>();
  let totalLength = 0;
  for (const doc of docs) {
    const text = fieldValue(doc, index.searchField);
    const words = typeof text === "string" ? tokenize(text) : [];
    const terms = new Map<string, number>();
    for (const word of words) {
      terms.set(word, (terms.get(word) ?? 0) + 1);
      vocabulary.add(word);
    }
    totalLength += words.length;
    indexed.push({ doc, terms, length: words.length });
  }
  if (indexed.length === 0) return [];

  // The terms the query matches: (prefix?, query token position) decides which are kept and how much
  // each weighs; a term matched both exactly and as a prefix counts as exact.
  const matches = new Map<string, { prefix: boolean; ord: number }>();
  const offer = (term: string, prefix: boolean, ord: number) => {
    const seen = matches.get(term);
    if (!seen || (seen.prefix && !prefix) || (seen.prefix === prefix && ord < seen.ord))
      matches.set(term, { prefix, ord });
  };
  tokens.forEach((token, ord) => {
    if (vocabulary.has(token)) offer(token, false, ord);
    if (ord === tokens.length - 1)
      for (const term of vocabulary)
        if (term !== token && term.startsWith(token)) offer(term, true, ord);
  });
  const orTerms = [...matches]
    .sort(
      ([ta, a], [tb, b]) =>
        Number(a.prefix) - Number(b.prefix) || a.ord - b.ord || (ta < tb ? -1 : ta > tb ? 1 : 0),
    )
    .slice(0, MAX_UNIQUE_QUERY_TERMS);
  if (orTerms.length === 0) return [];

  const n = indexed.length;
  const averageLength = totalLength / n;
  const weights = new Map<string, number>();
  for (const [term, { prefix }] of orTerms) {
    let df = 0;
    for (const d of indexed) if (d.terms.has(term)) df++;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    weights.set(term, idf * (1 + K1) * (prefix ? 0.5 : 1));
  }

  const scored: { doc: D; score: number }[] = [];
  for (const d of indexed) {
    if (
      !equalities.every(
        ([field, value]) => compareValues(fieldValue(d.doc, field) as Value, value) === 0,
      )
    )
      continue;
    const norm = K1 * (1 - B + (B * quantisedFieldNorm(d.length)) / averageLength);
    let score = 0;
    let any = false;
    for (const [term, weight] of weights) {
      const tf = d.terms.get(term);
      if (tf === undefined) continue;
      any = true;
      score += weight * (tf / (tf + norm));
    }
    if (any) scored.push({ doc: d.doc, score: Math.fround(score) });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.doc._creationTime - a.doc._creationTime ||
      (a.doc._id < b.doc._id ? -1 : a.doc._id > b.doc._id ? 1 : 0),
  );
  return scored.slice(0, MAX_CANDIDATE_REVISIONS).map(({ doc, score }) => ({
    doc,
    key: [-score, -doc._creationTime, doc._id],
  }));
}
