// Convex's order of values in an index: undefined < null < int64 < float64 < boolean < string < bytes
// < array < object (docs "Reading data > Indexes > Sorting", and `compareValues` in convex/values, which
// the client's optimistic updates use). Numbers order totally: -0 before 0, NaN by its bits at either
// end. Strings order by their UTF-8 bytes. The common cases are decided here without allocating; anything
// else (arrays, objects, bytes, NaN, surrogates, int64 against float64) is Convex's own compareValues.
import { compareValues, type Value } from "convex/values";

export function compareIndexValues(a: unknown, b: unknown): number {
  if (a === b) {
    // 0 === -0, yet -0 orders first
    if (a !== 0) return 0;
    return Object.is(a, b) ? 0 : Object.is(a, -0) ? -1 : 1;
  }
  const ta = typeof a;
  if (ta === typeof b) {
    if (ta === "number") {
      if ((a as number) < (b as number)) return -1;
      if ((a as number) > (b as number)) return 1;
    } else if (ta === "string") {
      const x = a as string;
      const y = b as string;
      const n = x.length < y.length ? x.length : y.length;
      for (let i = 0; i < n; i++) {
        const cx = x.charCodeAt(i);
        const cy = y.charCodeAt(i);
        if (cx === cy) continue;
        // below the surrogates UTF-16 code units order as UTF-8 bytes do
        if (cx < 0xd800 && cy < 0xd800) return cx < cy ? -1 : 1;
        return Math.sign(compareValues(x, y));
      }
      return x.length < y.length ? -1 : 1;
    } else if (ta === "boolean") {
      return a ? 1 : -1;
    }
  }
  return Math.sign(compareValues(a as Value | undefined, b as Value | undefined));
}

/** A field of a document as an index sees it: a path into nested plain objects, undefined when absent. */
export function fieldGetter(fieldPath: string): (doc: Record<string, unknown>) => unknown {
  if (!fieldPath.includes(".")) return (doc) => doc[fieldPath];
  const parts = fieldPath.split(".");
  return (doc) => {
    let value: unknown = doc;
    for (const part of parts) {
      if (value === null || typeof value !== "object" || !isPlainObject(value)) return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value;
  };
}

/** convex-test's isSimpleObject: what counts as a nested object of a document. */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  return (
    prototype === null || prototype === Object.prototype || prototype.constructor?.name === "Object"
  );
}

export interface RangeFilter {
  type: string;
  fieldPath: string;
  value: unknown;
}

const compiledFilters = new WeakMap<object, (doc: Record<string, unknown>) => boolean>();

/**
 * Whether `doc` is inside one bound of an index range (convex-test's evaluateRangeFilter, with the bound's
 * value decoded once per range: a commit checks every cached query's ranges against the documents it wrote).
 */
export function rangeFilterMatches(
  doc: Record<string, unknown>,
  filter: RangeFilter,
  decode: (json: never) => unknown,
): boolean {
  let matches = compiledFilters.get(filter);
  if (!matches) {
    const get = fieldGetter(filter.fieldPath);
    const value = decode(filter.value as never);
    const test: Record<string, (c: number) => boolean> = {
      Eq: (c) => c === 0,
      Gt: (c) => c > 0,
      Gte: (c) => c >= 0,
      Lt: (c) => c < 0,
      Lte: (c) => c <= 0,
    };
    const accept = test[filter.type];
    matches = (d) => accept(compareIndexValues(get(d), value));
    compiledFilters.set(filter, matches);
  }
  return matches(doc);
}
