import type { BattleOutcome, BattleResult, SideResult } from "../../events/common.js";

type Role = "attacker" | "defender";
const ROLES: readonly Role[] = ["attacker", "defender"];
const SIDE_WORDS: Record<Role, string> = { attacker: "Attacker", defender: "Defender" };
const OUTCOME_WORDS: Record<BattleOutcome, string> = {
  attacker: "the attacker won",
  defender: "the defender won",
  draw: "a draw",
};

/** One figure of a battle result where the confirming side's own count is not what was reported. */
export interface ResultDifference {
  /** The figure, for a page to find it by: `outcome`, `attacker/vp`, `defender/routed/howlers1/horde-howler`... */
  key: string;
  /** The figure and both counts in words, the difference said rather than coloured. */
  words: string;
}

/** "reported 3, your count 2 (1 fewer)". */
const countWords = (reported: number, own: number) => {
  const by = own - reported;
  return `reported ${reported}, your count ${own} (${Math.abs(by)} ${by > 0 ? "more" : "fewer"})`;
};

const keysOf = (...records: Array<Record<string, unknown> | undefined>) =>
  [...new Set(records.flatMap((record) => Object.keys(record ?? {})))].sort();

/** Units lost or routed, per formation and unit type, the two counts side by side; a unit absent counts 0. */
function unitDifferences(
  role: Role,
  part: "lost" | "routed",
  reported: SideResult["losses"],
  own: SideResult["losses"],
): ResultDifference[] {
  return keysOf(reported, own).flatMap((formation) =>
    keysOf(reported[formation], own[formation]).flatMap((unit) => {
      const was = reported[formation]?.[unit] ?? 0;
      const is = own[formation]?.[unit] ?? 0;
      return was === is
        ? []
        : [
            {
              key: `${role}/${part}/${formation}/${unit}`,
              words: `${SIDE_WORDS[role]}'s ${unit} of ${formation} ${part}: ${countWords(was, is)}`,
            },
          ];
    }),
  );
}

/** A8: each titan's shields down and weapons destroyed, the two counts side by side. */
function titanDifferences(role: Role, reported: SideResult, own: SideResult): ResultDifference[] {
  const weaponWords = (weapons: ReadonlyArray<{ name: string }>) =>
    weapons.length === 0 ? "none" : weapons.map((w) => w.name).join(", ");
  return keysOf(reported.titanDamage, own.titanDamage).flatMap((titan) => {
    const was = reported.titanDamage?.[titan] ?? { shields: 0, weapons: [] };
    const is = own.titanDamage?.[titan] ?? { shields: 0, weapons: [] };
    const found: ResultDifference[] = [];
    if (was.shields !== is.shields)
      found.push({
        key: `${role}/shields/${titan}`,
        words: `${SIDE_WORDS[role]}'s titan ${titan} shields down: ${countWords(was.shields, is.shields)}`,
      });
    const sorted = (weapons: ReadonlyArray<{ name: string }>) => weapons.map((w) => w.name).sort();
    if (sorted(was.weapons).join("\n") !== sorted(is.weapons).join("\n"))
      found.push({
        key: `${role}/weapons/${titan}`,
        words: `${SIDE_WORDS[role]}'s titan ${titan} weapons destroyed: reported ${weaponWords(was.weapons)}, your count ${weaponWords(is.weapons)}`,
      });
    return found;
  });
}

/**
 * B4: where the confirming side's own count of a battle differs from the result reported, figure by figure (the
 * outcome, each side's VPs, units lost and routed, titan damage), each in words; empty when the two agree.
 */
export function resultDifferences(reported: BattleResult, own: BattleResult): ResultDifference[] {
  const found: ResultDifference[] = [];
  if (reported.outcome !== own.outcome)
    found.push({
      key: "outcome",
      words: `Outcome: reported ${OUTCOME_WORDS[reported.outcome]}, your count ${OUTCOME_WORDS[own.outcome]}`,
    });
  for (const role of ROLES) {
    const was = reported[role];
    const is = own[role];
    if (was.vp !== is.vp)
      found.push({ key: `${role}/vp`, words: `${SIDE_WORDS[role]}'s VPs won: ${countWords(was.vp, is.vp)}` });
    found.push(...unitDifferences(role, "lost", was.losses, is.losses));
    found.push(...unitDifferences(role, "routed", was.routed, is.routed));
    found.push(...titanDifferences(role, was, is));
  }
  return found;
}
