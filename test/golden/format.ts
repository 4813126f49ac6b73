/** A golden rule case (test/golden/README.md): a starting set-up, some commands, and what must come of them. */
export interface GoldenCase {
  /** Rule ID(s) of ../shared/RULES.md the case pins down, e.g. "S6" or "S6 S7". */
  rule: string;
  /** What the case shows, in a sentence. */
  case: string;
  /** A set-up file, relative to test/golden/, created first. */
  setup?: string;
  /** An RFC 7396 JSON merge patch applied to the set-up file before it is created. */
  patch?: unknown;
  /**
   * Commands applied one by one after the set-up, as `epicwar apply` would: written as a player writes them, so an
   * ActivateArmy may give its `order` (and `salt`) in the clear and a RevealOrder may leave them out; the players'
   * side (src/client/prepare.ts) turns them into commitments and reveals from secrets held in memory.
   */
  commands?: unknown[];
  /**
   * Take the protocol chores as they fall due, before and after each command (src/client/chores.ts): start turns, give
   * seeds, roll initiative, reveal orders, end turns. Default false: every step is written out.
   */
  auto?: boolean;
  /**
   * The label of the fixed sequence the parties draw their seeds and salts from (default "golden"): a case about a
   * roll's outcome (a scouting band, an initiative winner) names a label whose seeds give that outcome.
   */
  dice?: string;
  /**
   * `state`: the projected state matches this expectation (match.ts: a subset, where `{}` and `[]` mean empty,
   * `{"$contains": [...]}` some elements of an array and `{"$exact": ...}` exactly that); with `as`, the state as that player sees it (src/views/view.ts), where
   * the other side's secrets read "hidden". `derived`: the derived view (projections/derived.ts `derivedView`: each
   * side's CVP totals and each battle's B2 engagement effects) matches this expectation, by the same matcher. A state
   * case gives `state`, `derived` or both.
   */
  expect:
    | { state?: unknown; derived?: unknown; as?: string }
    | { refused: { rule?: string; field?: string; message?: string } };
}

/** RFC 7396: objects merge key by key, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
