import type { Verdict } from "./game.js";

/** A refusal as the engine gave it: its rule ID (or the field it names) and its sentence. */
export function RefusalNote({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) return null;
  const label = verdict.kind === "rule" ? verdict.rule : verdict.kind === "field" ? verdict.field : "conflict";
  return (
    <p class="refusal" role="alert" data-rule={verdict.kind === "rule" ? verdict.rule : undefined}>
      <strong>{label}</strong> {verdict.message}
    </p>
  );
}

/** Whether a refusal concerns a field: named by it, or by a path under it (`result.attacker.vp`). */
export function concerns(verdict: Verdict | null, field: string): boolean {
  return verdict?.kind === "field" && (verdict.field === field || verdict.field.startsWith(`${field}.`));
}
