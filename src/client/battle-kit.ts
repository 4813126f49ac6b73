import { rollDie, type DiceSeeds } from "../crypto/dice.js";
import { drawKitRoll, kitRollsDue, type KitRollDue } from "../rules/battle-kit.js";
import type { CampaignView } from "../views/view.js";

/**
 * K2, K3, K5, D1 for the host: the faces a due kit roll draws from the turn's seeds, from the next unused die, or null
 * when the command names no roll that is due (the engine then says why).
 */
export function kitRollFaces(state: CampaignView, input: Record<string, unknown>, seeds: DiceSeeds): number[] | null {
  const battles = Object.values(state.battles).filter((battle) => battle.turn === state.turn);
  const due = kitRollsDue(state.setup?.options.battleKit, battles).find(
    (roll) =>
      roll.type === input["type"] &&
      roll.battle === input["battle"] &&
      (roll.volley === undefined || roll.volley === input["volley"]) &&
      (roll.barrage === undefined || roll.barrage === input["barrage"]),
  );
  const battle = due && state.battles[due.battle];
  if (!due || !battle?.kit) return null;
  let index = state.turnState!.diceUsed;
  const faces: number[] = [];
  drawKitRoll(due, state.setup!.options.battleKit!, battle.kit, (sides) => {
    const face = rollDie(seeds, index++, sides);
    faces.push(face);
    return face;
  });
  return faces;
}

/** The host's kit rolls due now, as commands for prepareCommand. */
export function kitRollChores(state: CampaignView): Array<Record<string, unknown>> {
  const battles = Object.values(state.battles).filter((battle) => battle.turn === state.turn);
  return kitRollsDue(state.setup?.options.battleKit, battles).map((roll: KitRollDue) => ({ actor: "host", ...roll }));
}
