import type { ErrorObject } from "ajv";

/**
 * What a field given a value outside its choices must be, in words. ajv reports a union of literals (TypeBox's
 * `Type.Union([Type.Literal("a"), ...])`, an `anyOf` of `const`s) by its first branch's error, "must be equal to
 * constant" (or "must be string" for a number), which names no value; this names every value the field accepts:
 * "must be one of firstFire, advance, charge, fortify". Undefined where `error` is not about a choice among values.
 * Needs validators compiled with `verbose: true` (the union's branches are read from the error's schema).
 */
export function choiceMessage(errors: readonly ErrorObject[], error: ErrorObject): string | undefined {
  if (error.keyword === "enum") return oneOf(error.params["allowedValues"] as unknown[]);
  // The union this error is in a branch of (a const missed, or a value of another type): an anyOf error at the same
  // value whose schema path leads to the branch.
  const union = errors.find(
    (other) =>
      other.keyword === "anyOf" &&
      other.instancePath === error.instancePath &&
      error.schemaPath.startsWith(`${other.schemaPath}/`),
  );
  const branches = union?.schema as Array<{ const?: unknown }> | undefined;
  // A union of other shapes (an id or null) is not a choice among values: its first branch's error says more.
  if (Array.isArray(branches) && branches.every((branch) => branch && "const" in branch))
    return oneOf(branches.map((branch) => branch.const));
  if (error.keyword === "const") return oneOf([error.params["allowedValue"]]);
  return undefined;
}

const oneOf = (values: readonly unknown[]) =>
  values.length === 1 ? `must be ${String(values[0])}` : `must be one of ${values.map(String).join(", ")}`;

/** A field the object does not have: named with the fields it does have (validators compiled with `verbose: true`). */
export function unknownFieldMessage(error: ErrorObject): string {
  const fields = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  return fields.length ? `is not a known field (the fields are ${fields.join(", ")})` : "is not a known field";
}
