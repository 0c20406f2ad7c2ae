// A committed document never changes (a write makes a new object), so its JSON text, its convexToJson
// form and its size are computed once per version however often it is read; each read still hands
// the function a fresh copy, as Convex does.
import { convexToJson, getDocumentSize, type JSONValue } from "convex/values";
import type { Doc } from "./document-store.ts";

interface Computed {
  json?: string;
  form?: JSONValue;
  size: number;
}

const computed = new WeakMap<Doc, Computed>();

function computedOf(doc: Doc): Computed {
  let known = computed.get(doc);
  if (known === undefined) computed.set(doc, (known = { size: -1 }));
  return known;
}

export function documentJson(doc: Doc): string {
  const known = computedOf(doc);
  return (known.json ??= JSON.stringify(documentForm(doc)));
}

/** The document as convexToJson makes it: shared, never to be changed. */
export function documentForm(doc: Doc): JSONValue {
  const known = computedOf(doc);
  return (known.form ??= convexToJson(doc));
}

/** Its size as Convex's transaction metrics count it. */
export function documentSize(doc: Doc): number {
  const known = computedOf(doc);
  if (known.size < 0) known.size = getDocumentSize(doc);
  return known.size;
}
