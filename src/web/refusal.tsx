import type { Verdict } from "./game.js";

const LABELS = { conflict: "conflict", unanswered: "no answer" };

/** A refusal as the engine gave it (or that no answer came): its rule ID (or the field it names) and its sentence. */
export function RefusalNote({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) return null;
  const label = refusalLabel(verdict);
  return (
    <p class="refusal" role="alert" data-rule={verdict.kind === "rule" ? verdict.rule : undefined}>
      <strong>{label}</strong> {verdict.message}
    </p>
  );
}

/** What a refusal names: its rule ID, the field, or what kind of failure it was. */
export function refusalLabel(verdict: NonNullable<Verdict>): string {
  return verdict.kind === "rule" ? verdict.rule : verdict.kind === "field" ? verdict.field : LABELS[verdict.kind];
}

/** Whether a refusal concerns a field: named by it, or by a path under it (`result.attacker.vp`). */
export function concerns(verdict: Verdict | null, field: string): boolean {
  return verdict?.kind === "field" && (verdict.field === field || verdict.field.startsWith(`${field}.`));
}
