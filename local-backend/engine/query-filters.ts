// A query's `.filter(q => …)` expression on one document, and the checks of a `withIndex` range, with
// convex-test's results and error texts (its evaluateFilter and validateIndexRangeExpression, 0.0.60),
// which the conformance tests and apps written against it rely on. Comparisons in a filter are
// JavaScript's, as there; equality is Convex's compareValues.
import { compareValues, type JSONValue, type Value } from "convex/values";
import { committedValue } from "./convex-values.ts";
import { MAX_COMMIT_TS } from "./document-writes.ts";
import { fieldGetter } from "./index-order.ts";
import { queryValue, type QuerySourceJson } from "./index-query.ts";

type Filter = Record<string, unknown>;
type Pair = [Filter, Filter];

/** A value as its transaction sees it before the commit: a placeholder reads as the largest timestamp. */
const pending = (value: unknown) =>
  value === undefined ? undefined : committedValue(value as Value, MAX_COMMIT_TS);

const compare = (a: unknown, b: unknown) =>
  compareValues(a as Value | undefined, b as Value | undefined);

/* eslint-disable @typescript-eslint/no-explicit-any -- a filter's operands are whatever it computes */
const BINARY: Record<string, (a: any, b: any) => unknown> = {
  $eq: (a, b) => compare(a, b) === 0,
  $neq: (a, b) => compare(a, b) !== 0,
  $gt: (a, b) => a > b,
  $gte: (a, b) => a >= b,
  $lt: (a, b) => a < b,
  $lte: (a, b) => a <= b,
  $add: (a, b) => a + b,
  $sub: (a, b) => a - b,
  $mul: (a, b) => a * b,
  $div: (a, b) => a / b,
  $mod: (a, b) => a % b,
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export function evaluateFilter(doc: Record<string, unknown>, filter: unknown): unknown {
  const expression = filter as Filter;
  for (const op in BINARY) {
    const operands = expression[op] as Pair | undefined;
    if (operands !== undefined)
      return BINARY[op](evaluateFilter(doc, operands[0]), evaluateFilter(doc, operands[1]));
  }
  if (expression.$and !== undefined)
    return (expression.$and as Filter[]).every((child) => evaluateFilter(doc, child));
  if (expression.$or !== undefined)
    return (expression.$or as Filter[]).some((child) => evaluateFilter(doc, child));
  if (expression.$not !== undefined) return !evaluateFilter(doc, expression.$not);
  if (expression.$field !== undefined)
    return pending(fieldGetter(expression.$field as string)(doc));
  if (expression.$literal !== undefined)
    return pending(queryValue(expression.$literal as JSONValue));
  throw new Error(`not implemented: ${JSON.stringify(filter)}`);
}

type RangeStep = NonNullable<QuerySourceJson["range"]>[number];

const printOperator = (filter: RangeStep) =>
  `.${filter.type.toLowerCase()}(${filter.fieldPath}, ${JSON.stringify(filter.value)})`;

/**
 * A `withIndex` range: equalities on the index's fields in order, then at most a lower and an upper
 * bound on the next field.
 */
export function validateIndexRangeExpression(source: QuerySourceJson, fields: string[]): void {
  const range = source.range ?? [];
  let fieldIndex = 0;
  let state = "eq";
  for (const [i, filter] of range.entries()) {
    if (state === "done")
      throw new Error(
        "Incorrect operator used in `withIndex`, cannot chain more operators after both `.gt` " +
          `and \`.lt\` were already used, got \`${printOperator(filter)}\`.`,
      );
    const kind =
      filter.type === "Gt" || filter.type === "Gte"
        ? "gt"
        : filter.type === "Lt" || filter.type === "Lte"
          ? "lt"
          : "eq";
    switch (`${state}|${kind}`) {
      case "eq|eq":
      case "eq|gt":
      case "eq|lt":
        if (filter.fieldPath === fields[fieldIndex]) {
          fieldIndex += 1;
          state = kind;
          continue;
        }
        throw new Error(
          `Incorrect field used in \`withIndex\`, expected "${fields[fieldIndex]}", got "${filter.fieldPath}"`,
        );
      case "lt|gt":
      case "gt|lt":
        if (fieldIndex > 0 && filter.fieldPath === fields[fieldIndex - 1]) {
          state = "done";
          continue;
        }
        throw new Error(
          "Incorrect field used in `withIndex`, `.gt` and `.lt` must operate on the same field, " +
            `expected "${fields[fieldIndex - 1]}", got "${filter.fieldPath}"`,
        );
      default:
        throw new Error(
          "Incorrect operator used in `withIndex`, " +
            `cannot chain \`.${filter.type.toLowerCase()}()\` after \`.${range[i - 1].type.toLowerCase()}()\``,
        );
    }
  }
}
