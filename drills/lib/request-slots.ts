/**
 * Where a hostile client can put an id in an HTTP request: the path segments under a route's prefix,
 * every query parameter, every string field of a JSON body and every text field of a form.
 */
import type { ValidRequest } from "./valid-calls";

export type RequestSlot = { where: "path" | "query" | "json" | "form"; key: string; value: string };

export function requestSlotName(slot: RequestSlot): string {
  return `${slot.where}:${slot.key}`;
}

export function requestSlots(pattern: string, request: ValidRequest): RequestSlot[] {
  const slots: RequestSlot[] = [];
  const url = new URL(request.path, "https://drill.invalid");
  if (pattern.endsWith("*")) {
    const segments = url.pathname.slice(pattern.length - 1).split("/");
    segments.forEach((value, i) => slots.push({ where: "path", key: String(i), value }));
  }
  for (const [key, value] of url.searchParams) slots.push({ where: "query", key, value });
  const body = request.init.body;
  if (typeof body === "string") {
    for (const [key, value] of Object.entries(JSON.parse(body) as Record<string, unknown>))
      if (typeof value === "string") slots.push({ where: "json", key, value });
  } else if (body instanceof FormData) {
    for (const [key, value] of body)
      if (typeof value === "string") slots.push({ where: "form", key, value });
  }
  return slots;
}

/** The request with `value` in place of the slot's. */
export function withRequestValue(
  pattern: string,
  request: ValidRequest,
  slot: RequestSlot,
  value: string,
): { path: string; init: RequestInit } {
  const url = new URL(request.path, "https://drill.invalid");
  let init = request.init;
  if (slot.where === "path") {
    const prefix = pattern.slice(0, -1);
    const segments = url.pathname.slice(prefix.length).split("/");
    segments[Number(slot.key)] = encodeURIComponent(value);
    url.pathname = prefix + segments.join("/");
  } else if (slot.where === "query") {
    url.searchParams.set(slot.key, value);
  } else if (slot.where === "json") {
    const body = JSON.parse(init.body as string) as Record<string, unknown>;
    init = { ...init, body: JSON.stringify({ ...body, [slot.key]: value }) };
  } else {
    const form = new FormData();
    for (const [key, v] of init.body as FormData) form.append(key, v);
    form.set(slot.key, value);
    init = { ...init, body: form };
  }
  return { path: `${url.pathname}${url.search}`, init };
}
