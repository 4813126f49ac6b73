/**
 * The golden cases' expectation matcher (test/golden/README.md, "Expectations"): whether a value matches what a case
 * expects of it, and if not, where and why.
 *
 * - A non-empty object matches an object that has each of its keys, each matching (a subset: other keys are free).
 * - An empty object `{}` matches only an empty object; an empty array `[]` only an empty array.
 * - An array matches an array of the same length, element by element, each element matched as above.
 * - `{"$contains": [a, b]}` matches an array that has, for each of a, b, its own element matching it (in any order,
 *   other elements free).
 * - `{"$exact": v}` matches only a value deeply equal to v: no key more, no key less, at any depth.
 * - Anything else (a string, a number, a boolean, null) matches only itself.
 */

/** Where a value departs from its expectation: the path from the root (e.g. `ledgers.red.reserves`) and why. */
export interface Mismatch {
  path: string;
  reason: string;
}

type Json = Record<string, unknown>;

const OPERATORS = ["$contains", "$exact"] as const;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

const kind = (value: unknown): string => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value);

const keyPath = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** The keys of an object that hold a value (a key set to undefined counts as absent, as in JSON). */
const keysOf = (value: Json): string[] => Object.keys(value).filter((key) => value[key] !== undefined);

/** The operator an expectation object is, if its single key is one; a lone unknown `$` key is an error in the case. */
function operatorOf(expected: Json): (typeof OPERATORS)[number] | undefined {
  const keys = Object.keys(expected);
  if (keys.length !== 1 || !keys[0]!.startsWith("$")) return undefined;
  const operator = OPERATORS.find((name) => name === keys[0]);
  if (!operator) throw new Error(`unknown expectation operator ${keys[0]} (known: ${OPERATORS.join(", ")})`);
  return operator;
}

/** Deep equality of JSON-like values, for `$exact`: the first difference, if any. */
function equal(actual: unknown, expected: unknown, path: string): Mismatch | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, reason: `expected an array, got ${kind(actual)} ${show(actual)}` };
    if (actual.length !== expected.length)
      return { path, reason: `expected exactly ${expected.length} element(s), got ${actual.length}: ${show(actual)}` };
    for (const [index, element] of expected.entries()) {
      const mismatch = equal(actual[index], element, `${path}[${index}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return { path, reason: `expected an object, got ${kind(actual)} ${show(actual)}` };
    const extra = keysOf(actual).filter((key) => expected[key] === undefined);
    if (extra.length > 0) return { path, reason: `unexpected key(s) ${extra.join(", ")} (exact match)` };
    for (const key of keysOf(expected)) {
      const mismatch = equal(actual[key], expected[key], keyPath(path, key));
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : { path, reason: `expected ${show(expected)}, got ${show(actual)}` };
}

/** Whether each of `wanted` can be given its own element of `actual` that it matches (small arrays: a plain search). */
function assign(actual: unknown[], wanted: unknown[], path: string, taken: Set<number>): boolean {
  const [first, ...rest] = wanted;
  if (wanted.length === 0) return true;
  return actual.some((element, index) => {
    if (taken.has(index) || match(element, first, `${path}[${index}]`)) return false;
    taken.add(index);
    if (assign(actual, rest, path, taken)) return true;
    taken.delete(index);
    return false;
  });
}

function contains(actual: unknown, wanted: unknown, path: string): Mismatch | undefined {
  if (!Array.isArray(wanted)) throw new Error(`${path || "state"}: $contains takes an array of elements`);
  if (!Array.isArray(actual)) return { path, reason: `expected an array ($contains), got ${kind(actual)}` };
  for (const [index, element] of wanted.entries()) {
    if (!actual.some((candidate, at) => !match(candidate, element, `${path}[${at}]`)))
      return { path, reason: `no element matches $contains[${index}] ${show(element)} in ${show(actual)}` };
  }
  if (!assign(actual, wanted, path, new Set()))
    return { path, reason: `the $contains elements cannot each have an element of their own in ${show(actual)}` };
  return undefined;
}

/** The first place where `actual` does not match `expected` (rules above), or undefined when it matches. */
export function match(actual: unknown, expected: unknown, path = ""): Mismatch | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return { path, reason: `expected an array, got ${kind(actual)} ${show(actual)}` };
    if (actual.length !== expected.length)
      return { path, reason: `expected ${expected.length} element(s), got ${actual.length}: ${show(actual)}` };
    for (const [index, element] of expected.entries()) {
      const mismatch = match(actual[index], element, `${path}[${index}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (isObject(expected)) {
    const operator = operatorOf(expected);
    if (operator === "$exact") return equal(actual, expected["$exact"], path);
    if (operator === "$contains") return contains(actual, expected["$contains"], path);
    if (!isObject(actual)) return { path, reason: `expected an object, got ${kind(actual)} ${show(actual)}` };
    const keys = keysOf(expected);
    if (keys.length === 0) {
      const present = keysOf(actual);
      return present.length === 0 ? undefined : { path, reason: `expected an empty object, got ${show(actual)}` };
    }
    for (const key of keys) {
      if (!(key in actual) || actual[key] === undefined)
        return { path: keyPath(path, key), reason: `missing (expected ${show(expected[key])})` };
      const mismatch = match(actual[key], expected[key], keyPath(path, key));
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : { path, reason: `expected ${show(expected)}, got ${show(actual)}` };
}
