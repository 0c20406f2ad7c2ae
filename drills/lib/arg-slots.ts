/**
 * Where a hostile client can put an id: the places in a function's arguments, read from the validator
 * JSON Convex exports for every registered function (`exportArgs()`), that take an id (`v.id(table)`)
 * or any string (a string argument may be looked up as an id, as auth's refresh tokens are).
 */

/** Convex's exported validator JSON (convex/values validators' `json`). */
export type ValidatorJson =
  | { type: "id"; tableName: string }
  | { type: "string" | "any" | "number" | "bigint" | "boolean" | "null" | "bytes" }
  | { type: "literal"; value: unknown }
  | { type: "array"; value: ValidatorJson }
  | { type: "union"; value: ValidatorJson[] }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJson; optional: boolean }> }
  | { type: "record"; keys: ValidatorJson; values: { fieldType: ValidatorJson } };

export type Path = (string | number)[];
/** A place in the arguments: an id of `table`, or any string (`table` undefined). */
export type Slot = { path: Path; table?: string };

export function slotName(slot: Slot): string {
  const where = slot.path.map((p) => (typeof p === "number" ? `[${p}]` : p)).join(".");
  return `${where}:${slot.table === undefined ? "string" : `id<${slot.table}>`}`;
}

/** Every slot of a validator; array elements at index 0, union members each. */
export function slotsOf(validator: ValidatorJson, path: Path = []): Slot[] {
  switch (validator.type) {
    case "id":
      return [{ path, table: validator.tableName }];
    case "string":
      return [{ path }];
    case "array":
      return slotsOf(validator.value, [...path, 0]);
    case "union": {
      const seen = new Map<string, Slot>();
      for (const member of validator.value)
        for (const slot of slotsOf(member, path)) seen.set(slotName(slot), slot);
      return [...seen.values()];
    }
    case "object":
      return Object.entries(validator.value).flatMap(([key, field]) =>
        slotsOf(field.fieldType, [...path, key]),
      );
    case "record":
      return slotsOf(validator.values.fieldType, [...path, "key"]);
    default:
      return [];
  }
}

/** The arguments' validator of a registered Convex function (anything with `exportArgs`). */
export function argsValidator(fn: unknown): ValidatorJson | undefined {
  const exportArgs = (fn as { exportArgs?: () => string }).exportArgs;
  if (typeof exportArgs !== "function") return undefined;
  return JSON.parse(exportArgs()) as ValidatorJson;
}

/** A copy of `args` with `value` at `path` (objects and arrays created on the way). */
export function withValueAt(args: Record<string, unknown>, path: Path, value: unknown) {
  const copy = structuredClone(args);
  let node: Record<string | number, unknown> = copy;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (typeof next !== "object" || next === null)
      node[key] = typeof path[i + 1] === "number" ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return copy;
}
