// Convex's rules for values, documents and validators, with its error texts: what
// crates/value, crates/common/src/document.rs and crates/common/src/schemas/validator.rs of
// get-convex/convex-backend enforce, and how its Rust code prints values and validators.
import {
  CommitTsPlaceholder,
  getConvexSize,
  jsonToConvex,
  type JSONValue,
  type Value,
} from "convex/values";

const MiB = 1 << 20;

/** Convex's numbers (docs "Limits", crates/common/src/knobs.rs, crates/value). */
export const CONVEX_LIMITS = {
  documentSize: MiB,
  documentNesting: 16,
  valueNesting: 64,
  arrayLength: 8192,
  objectFields: 1024,
  argumentsSize: 16 * MiB,
  resultSize: 16 * MiB,
  /** User code time of a query or mutation. */
  queryMutationMs: 1000,
  /** An action in the Convex runtime, and one in a "use node" module. */
  actionMs: 30 * 60 * 1000,
  nodeActionMs: 10 * 60 * 1000,
};

/**
 * An error Convex raises itself rather than the function's code (argument validation, limits): the
 * caller sees its message as is, without "Uncaught Error:".
 */
export class ConvexSystemError extends Error {}

/**
 * A written value as it is committed at `commitTs`: each commit-timestamp placeholder (`v.commitTs()`)
 * becomes the timestamp. The same object when it holds none (a committed document's JSON is cached by it).
 */
export function committedValue<T extends Value>(value: T, commitTs: bigint): T {
  if (!holdsPlaceholder(value)) return value;
  if (value instanceof CommitTsPlaceholder) return commitTs as T;
  if (Array.isArray(value)) return value.map((v) => committedValue(v, commitTs)) as T;
  const out: Record<string, Value> = {};
  for (const [key, v] of Object.entries(value as Record<string, Value>))
    out[key] = committedValue(v, commitTs);
  return out as T;
}

function holdsPlaceholder(value: Value): boolean {
  if (value instanceof CommitTsPlaceholder) return true;
  if (typeof value !== "object" || value === null || value instanceof ArrayBuffer) return false;
  if (Array.isArray(value)) return value.some(holdsPlaceholder);
  for (const key in value) if (holdsPlaceholder((value as Record<string, Value>)[key])) return true;
  return false;
}

/**
 * A ConvexError thrown out of `invokeQuery`/`invokeMutation`/`invokeAction` with its data as it was
 * thrown: convex/server's registration_impl serialised that data to JSON text for the wire, where
 * Convex's clients parse it back. Any other error, or data that is not such text, is left as it is.
 */
export function decodeConvexErrorData(thrown: unknown): unknown {
  if (typeof thrown !== "object" || thrown === null || !(Symbol.for("ConvexError") in thrown))
    return thrown;
  const error = thrown as { data?: unknown };
  if (typeof error.data !== "string") return thrown;
  try {
    error.data = jsonToConvex(JSON.parse(error.data) as JSONValue);
  } catch {
    // not JSON text: the data was a string of its own
  }
  return thrown;
}

/** A duration as Rust's `{:?}` prints a whole number of seconds or milliseconds (`1s`, `200ms`). */
export const formatDuration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** Function paths in Convex's messages name the module file: `messages.js:send`. */
export function canonicalUdfPath(udfPath: string): string {
  const [module, name = "default"] = udfPath.split(":");
  return `${module.replace(/\.(js|ts)$/, "")}.js:${name}`;
}

/** A byte count as humansize's BINARY format prints it (`1 MiB`, `1.00 MiB`, `512 B`). */
export function formatSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let size = bytes;
  let unit = 0;
  while (Math.abs(size) >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${Number.isInteger(size) ? size : size.toFixed(2)} ${units[unit]}`;
}

// ---- Printing values and validators as Convex's Rust code does ----

/** Rust's `{:?}` of a string: quoted, escapes for quotes, backslashes, controls and invisible marks. */
function debugString(s: string): string {
  let out = '"';
  for (const c of s) {
    if (c === '"') out += '\\"';
    else if (c === "\\") out += "\\\\";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === "\0") out += "\\0";
    else if (c !== " " && /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Z}\p{Grapheme_Extend}]/u.test(c))
      out += `\\u{${c.codePointAt(0)!.toString(16)}}`;
    else out += c;
  }
  return `${out}"`;
}

/** A float as Rust's `{:?}` (decimal within [1e-4, 1e16), else exponent) or serde_json's (ryu: [1e-5, 1e16)). */
function formatFloat(n: number, decimalFrom: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(n);
  if (abs >= decimalFrom && abs < 1e16) {
    const text = String(n);
    return text.includes(".") ? text : `${text}.0`;
  }
  return n.toExponential().replace("e+", "e");
}

/** How Convex prints a value in its messages (ConvexValue's Display). */
export function displayValue(value: Value | undefined): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return formatFloat(value, 1e-4);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return debugString(value);
  if (value instanceof ArrayBuffer) return `b"${Buffer.from(value).toString("base64")}"`;
  if (Array.isArray(value)) return `[${value.map(displayValue).join(", ")}]`;
  return `{${sortedEntries(value as Record<string, Value | undefined>)
    .map(([k, v]) => `${k}: ${displayValue(v)}`)
    .join(", ")}}`;
}

const sortedEntries = (object: Record<string, Value | undefined>) =>
  Object.entries(object)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A validator as `convex/values` exports it (`.json`). */
export type ValidatorJson =
  | { type: "null" | "number" | "bigint" | "boolean" | "string" | "bytes" | "any" }
  | { type: "literal"; value: JSONValue }
  | { type: "id"; tableName: string }
  | { type: "array"; value: ValidatorJson }
  | { type: "record"; keys: ValidatorJson; values: { fieldType: ValidatorJson } }
  | { type: "object"; value: Record<string, { fieldType: ValidatorJson; optional: boolean }> }
  | { type: "union"; value: ValidatorJson[] };

function displayLiteral(value: JSONValue): string {
  const literal = jsonToConvex(value);
  if (typeof literal === "bigint") return "<bigint>";
  if (typeof literal === "number")
    return Number.isFinite(literal) ? formatFloat(literal, 1e-5) : "<number>";
  return JSON.stringify(literal);
}

/** How Convex prints a validator (Validator's Display): `v.object({name: v.string()})`. */
export function displayValidator(validator: ValidatorJson): string {
  switch (validator.type) {
    case "null":
      return "v.null()";
    case "number":
      return "v.float64()";
    case "bigint":
      return "v.int64()";
    case "boolean":
      return "v.boolean()";
    case "string":
      return "v.string()";
    case "bytes":
      return "v.bytes()";
    case "any":
      return "v.any()";
    case "literal":
      return `v.literal(${displayLiteral(validator.value)})`;
    case "id":
      return `v.id("${validator.tableName}")`;
    case "array":
      return `v.array(${displayValidator(validator.value)})`;
    case "record":
      return `v.record(${displayValidator(validator.keys)}, ${displayValidator(validator.values.fieldType)})`;
    case "union":
      return `v.union(${validator.value.map(displayValidator).join(", ")})`;
    case "object":
      return `v.object({${Object.keys(validator.value)
        .sort()
        .map((k) => {
          const { fieldType, optional } = validator.value[k];
          const shown = displayValidator(fieldType);
          return `${k}: ${optional ? `v.optional(${shown})` : shown}`;
        })
        .join(", ")}})`;
  }
}

// ---- Validation (Validator::check_value) ----

type TableOf = (id: string) => string | null;

class ValidationError {
  readonly path: string[] = [];
  constructor(private readonly render: (context: string) => string) {}
  /** Adds an outer path element (`.field`, `[3]`, `.keys()`). */
  within(element: string): ValidationError {
    this.path.unshift(element);
    return this;
  }
  get message(): string {
    return this.render(this.path.length ? `Path: ${this.path.join("")}` : "");
  }
}

const isPlainObject = (value: unknown): value is Record<string, Value | undefined> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof ArrayBuffer) &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

const noMatch = (value: Value, validator: ValidatorJson) =>
  new ValidationError(
    (context) =>
      `Value does not match validator.\n${context}\nValue: ${displayValue(value)}\nValidator: ${displayValidator(validator)}`,
  );

function sameLiteral(value: Value, literal: Value): boolean {
  if (typeof value === "number" && typeof literal === "number") return Object.is(value, literal);
  return value === literal;
}

function check(validator: ValidatorJson, value: Value, tableOf: TableOf): ValidationError | null {
  switch (validator.type) {
    case "any":
      return null;
    case "null":
      return value === null ? null : noMatch(value, validator);
    case "number":
      return typeof value === "number" ? null : noMatch(value, validator);
    case "bigint":
      return typeof value === "bigint" ? null : noMatch(value, validator);
    case "boolean":
      return typeof value === "boolean" ? null : noMatch(value, validator);
    case "string":
      return typeof value === "string" ? null : noMatch(value, validator);
    case "bytes":
      return value instanceof ArrayBuffer ? null : noMatch(value, validator);
    case "literal": {
      const literal = jsonToConvex(validator.value);
      if (sameLiteral(value, literal)) return null;
      return new ValidationError(
        (context) =>
          `\`${displayValue(value)}\` does not match literal validator \`v.literal(${displayLiteral(validator.value)})\`.${context}`,
      );
    }
    case "id": {
      const table = typeof value === "string" ? tableOf(value) : null;
      if (table === null) return noMatch(value, validator);
      if (table === validator.tableName) return null;
      const expected = `\`v.id("${validator.tableName}")\``;
      return new ValidationError((context) =>
        table.startsWith("_")
          ? `Found ID "${value as string}" from a system table, which does not match the table name in validator ${expected}.${context}`
          : `Found ID "${value as string}" from table \`${table}\`, which does not match the table name in validator ${expected}.${context}`,
      );
    }
    case "array": {
      if (!Array.isArray(value)) return noMatch(value, validator);
      for (let i = 0; i < value.length; i++) {
        const error = check(validator.value, value[i], tableOf);
        if (error) return error.within(`[${i}]`);
      }
      return null;
    }
    case "record": {
      if (!isPlainObject(value)) return noMatch(value, validator);
      for (const [key, item] of sortedEntries(value)) {
        const keyError = check(validator.keys, key, tableOf);
        if (keyError) return keyError.within(".keys()");
        const valueError = check(validator.values.fieldType, item as Value, tableOf);
        if (valueError) return valueError.within(".values()");
      }
      return null;
    }
    case "object": {
      if (!isPlainObject(value)) return noMatch(value, validator);
      for (const field of Object.keys(validator.value).sort()) {
        const { fieldType, optional } = validator.value[field];
        const item = value[field];
        if (item !== undefined) {
          const error = check(fieldType, item, tableOf);
          if (error) return error.within(`.${field}`);
        } else if (!optional) {
          return new ValidationError(
            (context) =>
              `Object is missing the required field \`${field}\`. Consider wrapping the field validator in \`v.optional(...)\` if this is expected.\n${context}\nObject: ${displayValue(value)}\nValidator: ${displayValidator(validator)}`,
          );
        }
      }
      for (const [field] of sortedEntries(value)) {
        if (!Object.hasOwn(validator.value, field))
          return new ValidationError(
            (context) =>
              `Object contains extra field \`${field}\` that is not in the validator.\n${context}\nObject: ${displayValue(value)}\nValidator: ${displayValidator(validator)}`,
          );
      }
      return null;
    }
    case "union": {
      if (validator.value.length === 1) return check(validator.value[0], value, tableOf);
      if (validator.value.some((option) => check(option, value, tableOf) === null)) return null;
      return noMatch(value, validator);
    }
  }
}

/** Convex's message for `value` failing `validator`, or null when it passes. */
export function validationError(
  validator: ValidatorJson,
  value: Value,
  tableOf: TableOf,
): string | null {
  return check(validator, value, tableOf)?.message ?? null;
}

// ---- Limits on values and documents ----

/** `{$integer: …}`, `{$bytes: …}`, `{$float: …}`: a scalar in Convex's JSON encoding (no field may start with `$`). */
const isEncodedScalar = (v: Record<string, unknown>) => {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0].startsWith("$");
};

/**
 * What Convex refuses when it builds a value (arrays past 8,192 items, objects past 1,024 fields,
 * nesting past 64), innermost first as Convex builds values bottom-up; null when the value is fine.
 * Takes values and their JSON encoding alike.
 */
export function valueShapeError(value: Value | JSONValue | undefined): string | null {
  let error: string | null = null;
  const nesting = (v: Value | JSONValue | undefined): number => {
    if (error !== null) return 0;
    let depth = 0;
    if (Array.isArray(v)) {
      for (const item of v) depth = Math.max(depth, nesting(item));
      if (error === null && v.length > CONVEX_LIMITS.arrayLength)
        error = `Array length is too long (${v.length} > maximum length ${CONVEX_LIMITS.arrayLength})`;
    } else if (isPlainObject(v) && !isEncodedScalar(v)) {
      let fields = 0;
      for (const item of Object.values(v)) {
        if (item === undefined) continue;
        fields++;
        depth = Math.max(depth, nesting(item));
      }
      if (error === null && fields > CONVEX_LIMITS.objectFields)
        error = `Object has too many fields (${fields} > maximum number ${CONVEX_LIMITS.objectFields})`;
    } else return 0;
    depth += 1;
    if (error === null && depth > CONVEX_LIMITS.valueNesting)
      error = `Value is too nested (nested ${depth} levels deep > maximum nesting ${CONVEX_LIMITS.valueNesting})`;
    return depth;
  };
  nesting(value);
  return error;
}

function nestingOf(value: Value | undefined): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(nestingOf));
  if (isPlainObject(value)) return 1 + Math.max(0, ...Object.values(value).map(nestingOf));
  return 0;
}

/**
 * Convex's checks of a document about to be written (system fields included): nesting at most 16,
 * no top-level field starting with `_` but `_id`/`_creationTime`, at most 1 MiB. Null when fine.
 */
export function documentError(doc: Record<string, Value | undefined>): string | null {
  const violations: string[] = [];
  const nesting = nestingOf(doc);
  if (nesting > CONVEX_LIMITS.documentNesting)
    violations.push(
      `Document is too nested (nested ${nesting} levels deep > maximum nesting ${CONVEX_LIMITS.documentNesting})`,
    );
  for (const [field] of sortedEntries(doc)) {
    if (field.startsWith("_") && field !== "_id" && field !== "_creationTime")
      violations.push(
        `Field '${field}' starts with an underscore, which is only allowed for system fields like '_id'`,
      );
  }
  if (violations.length)
    return `Document(value: ${displayValue(doc as Value)}) isn't a valid document: ${violations.join("\n ")}`;
  const size = getConvexSize(doc as Value);
  if (size > CONVEX_LIMITS.documentSize)
    return `Value is too large (${formatSize(size)} > maximum size ${formatSize(CONVEX_LIMITS.documentSize)})`;
  return null;
}

// ---- The checks Convex makes around a function call ----

/** A function's arguments: their shape and size, then its `args` validator. */
export function checkArguments(
  validator: ValidatorJson,
  args: Record<string, Value>,
  udfPath: string,
  tableOf: TableOf,
) {
  const path = canonicalUdfPath(udfPath);
  const shape = valueShapeError([args]);
  if (shape) throw new ConvexSystemError(`Invalid arguments for ${path}: ${shape}`);
  const size = getConvexSize([args]);
  if (size > CONVEX_LIMITS.argumentsSize)
    throw new ConvexSystemError(
      `Arguments for ${path} are too large (actual: ${formatSize(size)}, limit: ${formatSize(CONVEX_LIMITS.argumentsSize)})`,
    );
  if (validator.type === "any") return;
  const error = validationError(validator, args, tableOf);
  if (error) throw new ConvexSystemError(`ArgumentValidationError: ${error}`);
}

/** A function's return value: its shape and size, then its `returns` validator (null: none). */
export function checkResult(
  validator: ValidatorJson | null,
  result: Value,
  udfPath: string,
  tableOf: TableOf,
) {
  const path = canonicalUdfPath(udfPath);
  const shape = valueShapeError(result);
  if (shape) throw new ConvexSystemError(`Function ${path} return value invalid: ${shape}`);
  const size = getConvexSize(result);
  if (size > CONVEX_LIMITS.resultSize)
    throw new ConvexSystemError(
      `Function ${path} return value is too large (actual: ${formatSize(size)}, limit: ${formatSize(CONVEX_LIMITS.resultSize)})`,
    );
  if (validator === null || validator.type === "any") return;
  const error = validationError(validator, result, tableOf);
  if (error) throw new ConvexSystemError(`ReturnsValidationError: ${error}`);
}

/**
 * A Convex value's size is at most this many times the length of its JSON text: a number is 9 bytes
 * for at least two characters ("0,"), a string's UTF-8 bytes are at most 3 per UTF-16 unit.
 */
const SIZE_PER_JSON_CHAR = 5;

/**
 * `checkResult` of a result given as the JSON convex/server serialised (`json`, parsed from `text`):
 * one walk of the JSON decides that the shape, size and `returns` validator pass, as Convex's backend
 * checks a function's JSON result without turning it back into values. Anything this walk does not
 * pass is checked again as values by `checkResult`, which throws Convex's error.
 */
export function checkResultJson(
  validator: ValidatorJson | null,
  json: JSONValue,
  text: string,
  udfPath: string,
  tableOf: TableOf,
) {
  if (!resultJsonFits(validator, json, text, tableOf))
    checkResult(validator, jsonToConvex(json), udfPath, tableOf);
}

/** Whether one walk of the JSON shows the result passes; false when it fails or the walk cannot tell. */
export function resultJsonFits(
  validator: ValidatorJson | null,
  json: JSONValue,
  text: string,
  tableOf: TableOf,
): boolean {
  return (
    text.length * SIZE_PER_JSON_CHAR <= CONVEX_LIMITS.resultSize &&
    fitsOf(validator)(json, 1, tableOf)
  );
}

/** `{$integer: …}` and the like: the JSON of a bigint, bytes or a special float. */
const encodedAs = (json: JSONValue, key: string) =>
  typeof json === "object" &&
  json !== null &&
  !Array.isArray(json) &&
  Object.keys(json).length === 1 &&
  key in json;

/** An object of convexToJson's output that encodes an object (field names never start with `$`). */
function isJsonObject(json: JSONValue): json is { [key: string]: JSONValue } {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  for (const key in json) return key.charCodeAt(0) !== 36;
  return true;
}

/**
 * Whether `json` is within Convex's shape limits at nesting `depth` and its value passes the validator:
 * false also where it cannot tell cheaply (the caller then checks the value).
 */
type Fits = (json: JSONValue, depth: number, tableOf: TableOf) => boolean;

/** A validator's Fits, built once per validator object (a function's validators are kept per function). */
const compiledFits = new WeakMap<object, Fits>();

function fitsOf(validator: ValidatorJson | null): Fits {
  if (validator === null || validator.type === "any") return fitsAny;
  let fits = compiledFits.get(validator);
  if (fits === undefined) {
    fits = compileFits(validator);
    compiledFits.set(validator, fits);
  }
  return fits;
}

/** Any value: only the shape limits (nesting, array length, object fields); an encoded value passes. */
const fitsAny: Fits = (json, depth, tableOf) => {
  if (typeof json !== "object" || json === null) return true;
  if (Array.isArray(json)) {
    if (depth > CONVEX_LIMITS.valueNesting || json.length > CONVEX_LIMITS.arrayLength) return false;
    for (let i = 0; i < json.length; i++) if (!fitsAny(json[i], depth + 1, tableOf)) return false;
    return true;
  }
  if (!isJsonObject(json)) return true;
  if (depth > CONVEX_LIMITS.valueNesting) return false;
  let fields = 0;
  for (const key in json) {
    if (++fields > CONVEX_LIMITS.objectFields) return false;
    if (!fitsAny(json[key], depth + 1, tableOf)) return false;
  }
  return true;
};

function compileFits(validator: ValidatorJson): Fits {
  switch (validator.type) {
    case "union": {
      const options = validator.value.map(fitsOf);
      return (json, depth, tableOf) => {
        for (const option of options) if (option(json, depth, tableOf)) return true;
        return false;
      };
    }
    case "array": {
      const item = fitsOf(validator.value);
      return (json, depth, tableOf) => {
        if (!Array.isArray(json)) return false;
        if (depth > CONVEX_LIMITS.valueNesting || json.length > CONVEX_LIMITS.arrayLength)
          return false;
        for (let i = 0; i < json.length; i++) if (!item(json[i], depth + 1, tableOf)) return false;
        return true;
      };
    }
    case "record": {
      const keys = fitsOf(validator.keys);
      const values = fitsOf(validator.values.fieldType);
      return (json, depth, tableOf) => {
        if (!isJsonObject(json) || depth > CONVEX_LIMITS.valueNesting) return false;
        let fields = 0;
        for (const key in json) {
          if (++fields > CONVEX_LIMITS.objectFields) return false;
          if (!keys(key, depth + 1, tableOf) || !values(json[key], depth + 1, tableOf))
            return false;
        }
        return true;
      };
    }
    case "object": {
      const fieldFits = new Map<string, { fits: Fits; required: boolean }>();
      let required = 0;
      for (const [name, field] of Object.entries(validator.value)) {
        fieldFits.set(name, { fits: fitsOf(field.fieldType), required: !field.optional });
        if (!field.optional) required += 1;
      }
      return (json, depth, tableOf) => {
        if (!isJsonObject(json) || depth > CONVEX_LIMITS.valueNesting) return false;
        let fields = 0;
        let present = 0;
        for (const key in json) {
          if (++fields > CONVEX_LIMITS.objectFields) return false;
          const field = fieldFits.get(key);
          if (field === undefined || !field.fits(json[key], depth + 1, tableOf)) return false;
          if (field.required) present += 1;
        }
        return present === required;
      };
    }
    case "null":
      return (json) => json === null;
    case "number":
      return (json) => typeof json === "number" || encodedAs(json, "$float");
    case "bigint":
      return (json) => encodedAs(json, "$integer");
    case "boolean":
      return (json) => typeof json === "boolean";
    case "string":
      return (json) => typeof json === "string";
    case "bytes":
      return (json) => encodedAs(json, "$bytes");
    case "literal": {
      // an encoded literal (bigint, special float) is left to the check on values
      const literal = validator.value;
      if (typeof literal === "object") return () => false;
      return (json) => json === literal;
    }
    case "id": {
      const table = validator.tableName;
      return (json, _depth, tableOf) => typeof json === "string" && tableOf(json) === table;
    }
    default:
      return () => false;
  }
}

/** A write's document against its table's schema (system fields left out, as Convex does). */
export function checkSchema(
  table: string,
  validator: ValidatorJson,
  doc: Record<string, Value | undefined>,
  tableOf: TableOf,
) {
  const fields = Object.fromEntries(Object.entries(doc).filter(([k]) => !k.startsWith("_")));
  const error = validationError(validator, fields as Value, tableOf);
  if (error)
    throw new Error(
      `Failed to insert or update a document in table "${table}" because it does not match the schema: ${error}`,
    );
}
