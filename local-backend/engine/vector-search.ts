// `ctx.vectorSearch` as Convex answers it (crates/vector: qdrant_index.rs, query.rs): cosine similarity,
// best first; a document is in the index only when its vector field is an array of exactly `dimensions`
// numbers (others are skipped, never scored); a query vector of another length, a limit over 256 or a
// filter on a field outside `filterFields` is refused with Convex's error.
import { compareValues, jsonToConvex, type Value } from "convex/values";
import type { Doc } from "./document-store.ts";

export const MAX_VECTOR_RESULTS = 256;
export const DEFAULT_VECTOR_LIMIT = 10;
/** Convex's limit on `q.eq` conditions (an `or` of n values counts n). */
const MAX_FILTER_LENGTH = 64;

export interface VectorIndex {
  indexDescriptor: string;
  vectorField: string;
  dimensions: number;
  filterFields: string[];
}

export interface VectorQuery {
  /** "table.index" */
  indexName: string;
  vector: number[];
  limit?: number;
  /** The serialised filter expression (`q.eq` / `q.or`), or null. */
  expressions: unknown;
}

export class VectorSearchError extends Error {}

/** field → the values any of which it may equal. */
type FilterMap = Map<string, Value[]>;

function filterMap(expression: unknown): FilterMap {
  const map: FilterMap = new Map();
  const visit = (e: unknown) => {
    const node = e as Record<string, unknown[]>;
    if (node && Array.isArray(node.$eq)) {
      const [field, literal] = node.$eq as [{ $field?: string }, { $literal?: unknown }];
      if (typeof field?.$field !== "string" || literal === undefined || !("$literal" in literal))
        throw new VectorSearchError(
          "`q.eq` must take a field path as its first argument and a value as its second",
        );
      const value =
        literal.$literal === undefined ? undefined : jsonToConvex(literal.$literal as never);
      const values = map.get(field.$field) ?? [];
      values.push(value as Value);
      map.set(field.$field, values);
      return;
    }
    if (node && Array.isArray(node.$or)) {
      for (const inner of node.$or) visit(inner);
      return;
    }
    throw new VectorSearchError("Filters should be a combination of `q.eq` and `q.or`.");
  };
  if (expression !== null && expression !== undefined) visit(expression);
  return map;
}

function fieldValue(doc: Doc, fieldPath: string): unknown {
  let value: unknown = doc;
  for (const part of fieldPath.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The document's vector if the index holds it (an array of exactly `dimensions` numbers). */
function indexedVector(doc: Doc, index: VectorIndex): number[] | null {
  const vector = fieldValue(doc, index.vectorField);
  if (!Array.isArray(vector) || vector.length !== index.dimensions) return null;
  return vector.every((x) => typeof x === "number") ? (vector as number[]) : null;
}

function norm(v: number[]) {
  let sum = 0;
  for (const x of v) sum += x * x;
  return Math.sqrt(sum);
}

function cosine(a: number[], normA: number, b: number[]): number {
  const normB = norm(b);
  if (normA === 0 || normB === 0) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot / (normA * normB);
}

export function vectorSearch(
  docs: Iterable<Doc>,
  index: VectorIndex,
  query: VectorQuery,
): { _id: string; _score: number }[] {
  const limit = query.limit ?? DEFAULT_VECTOR_LIMIT;
  if (limit > MAX_VECTOR_RESULTS)
    throw new VectorSearchError(
      `Vector queries can fetch at most ${MAX_VECTOR_RESULTS} results, requested ${limit}.`,
    );
  const filters = filterMap(query.expressions);
  let conditions = 0;
  for (const [field, values] of filters) {
    if (!index.filterFields.includes(field))
      throw new VectorSearchError(
        `Vector query against ${query.indexName} contains a filter on ${JSON.stringify(field)} but ` +
          "that field isn't indexed for filtering in `filterFields`.",
      );
    conditions += values.length;
  }
  if (conditions > MAX_FILTER_LENGTH)
    throw new VectorSearchError(
      `Vector query against ${query.indexName} has too many conditions. Max: ${MAX_FILTER_LENGTH} Actual: ${conditions}`,
    );
  if (query.vector.length !== index.dimensions)
    throw new VectorSearchError(
      `Expected a vector with dimensions ${index.dimensions}, received ${query.vector.length}.`,
    );
  const queryNorm = norm(query.vector);
  const results: { _id: string; _score: number }[] = [];
  for (const doc of docs) {
    const vector = indexedVector(doc, index);
    if (!vector) continue;
    // Conditions on different fields are alternatives (qdrant `should`), as on Convex.
    if (
      filters.size > 0 &&
      ![...filters].some(([field, values]) => {
        const value = fieldValue(doc, field) as Value;
        return values.some((v) => compareValues(v, value) === 0);
      })
    )
      continue;
    results.push({ _id: doc._id, _score: cosine(query.vector, queryNorm, vector) });
  }
  results.sort((a, b) => b._score - a._score);
  return results.slice(0, limit);
}
