import { requireAllies } from "./allies.js";
import type { RosterFormation, Square } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import { armyPoints } from "../../projections/units.js";
import { onMap, sameSquare } from "../../projections/grid.js";
import type { CampaignState } from "../../projections/state.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { requireCommandCovers, spareCommanderFor } from "./commanders.js";
import { requireEndPhasePlayer, requireOwnArmy } from "./guards.js";
import { requireAtHomeBase, requireHomeBaseHeld } from "./home-base.js";
import { cityHolder } from "./cities.js";
import { fullStrengthRoster, requireFreeSquare, requireNewArmy } from "./new-army.js";
import { pts, refuseField, refuseRule, sq } from "./refusal.js";
import { armyCeiling, ledgerOf, pointsOf } from "./reserves.js";
import { requireSetup } from "./guards.js";

/**
 * A8 war chest spending in the End phase: formations into an army, a new army at the home base, and defences. Every
 * purchase passes `requireWarChestSpend` (titan repairs and A7's off-table support too).
 */

/** A8, A5: the campaign plays the war chest, and the enemy does not hold the player's home base. */
export function requireWarChestOpen(state: CampaignState, player: string, what: string): void {
  const setup = requireSetup(state);
  if (!advancedRule(setup.options, "warChest"))
    refuseRule("A8", `this campaign does not play the war chest, so ${what} cannot be paid from it`);
  requireHomeBaseHeld(state, player, `spend the war chest on ${what}`);
}

/**
 * A8, A5: `player` may take `amount` points out of its war chest for `what`. Refuses naming A8 when the campaign does
 * not play the war chest or the balance is short (it never goes below 0), and A5 while the enemy holds the player's
 * home base.
 */
export function requireWarChestSpend(state: CampaignState, player: string, amount: number, what: string): void {
  requireWarChestOpen(state, player, what);
  const balance = ledgerOf(state, player).warChest;
  if (amount > balance) {
    refuseRule(
      "A8",
      `${what} costs ${pts(amount)} points and ${player}'s war chest holds ${pts(balance)}: the war chest never goes below 0`,
    );
  }
}

const named = (formations: readonly RosterFormation[]) => formations.map((f) => `"${f.formation}"`).join(", ");

export function decideBuyFormations(state: CampaignState, command: CommandOf<"BuyFormations">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "A8", "the war chest is spent");
  requireWarChestOpen(state, player.id, "formations");
  const army = requireOwnArmy(state, player, command.army, "A8");
  const formations = fullStrengthRoster(setup.catalogue, command.formations, army.formations);
  const ceiling = armyCeiling(setup);
  const after = armyPoints([...army.formations, ...formations], setup.catalogue);
  if (after > ceiling) {
    const name = setup.options.armySize !== undefined ? "the campaign's army size" : "M";
    refuseRule(
      "A8",
      `buying ${named(formations)} would make army "${army.id}" ${pts(after)} points, over ${name} = ${pts(ceiling)}`,
    );
  }
  requireAllies(setup, army.id, [...army.formations, ...formations], `buying ${named(formations)}`);
  requireCommandCovers(setup, army, [...army.formations, ...formations], `buying ${named(formations)}`);
  const cost = pointsOf(
    setup.catalogue,
    formations.map((f) => f.formation),
  );
  requireWarChestSpend(state, player.id, cost, `${named(formations)} for army "${army.id}"`);
  return [
    { type: "FormationsPurchased", data: { turn: state.turn, player: player.id, army: army.id, formations, cost } },
  ];
}

/** A8 (A6): a new army bought at the home base, led like one raised from the Reserves by a spare commander. */
export function decideBuyArmy(state: CampaignState, command: CommandOf<"BuyArmy">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "A8", "the war chest is spent");
  requireWarChestOpen(state, player.id, `new army "${command.army}"`);
  const formations = requireNewArmy(state, setup, command);
  // A8's own text puts a bought army "on a square around the Home Base", with or without A5.
  requireAtHomeBase(
    state,
    player.id,
    command.at,
    `bought army "${command.army}"`,
    advancedRule(setup.options, "homeBase") ? "A5" : "A8",
  );
  requireFreeSquare(state, player.id, command.at);
  const cost = armyPoints(formations, setup.catalogue);
  requireWarChestSpend(state, player.id, cost, `new army "${command.army}"`);
  const ledBy = spareCommanderFor(
    state,
    setup,
    { army: command.army, player: player.id, formations },
    command.commander,
  );
  return [
    {
      type: "ArmyPurchased",
      data: {
        turn: state.turn,
        army: command.army,
        player: player.id,
        name: command.name,
        formations,
        commander: command.commander,
        at: command.at,
        cost,
      },
    },
    ...ledBy,
  ];
}

/**
 * A8: bought defences go on a square where one of the player's armies stands, or on an objective it holds (a COM or a
 * home base, its own or the enemy's), or a city it holds (A8 ruling: held like an objective, also with no army on it).
 */
function defensibleSquare(state: CampaignState, player: string, at: Square): boolean {
  const army = Object.values(state.armies).some(
    (a) => a.player === player && a.status === "active" && a.at !== null && sameSquare(a.at, at),
  );
  const objective = Object.values(state.objectives).some((o) => o.heldBy === player && sameSquare(o.at, at));
  const homeBase = Object.values(state.homeBases).some((h) => h.heldBy === player && sameSquare(h.at, at));
  return army || objective || homeBase || cityHolder(state, at) === player;
}

export function decideBuyDefences(state: CampaignState, command: CommandOf<"BuyDefences">): DomainEvent[] {
  const setup = requireSetup(state);
  const player = requireEndPhasePlayer(state, command.actor, "A8", "the war chest is spent");
  requireWarChestOpen(state, player.id, "defences");
  if (!onMap(setup.map, command.at))
    refuseField("at", `${sq(command.at)} is off the ${setup.map.width}x${setup.map.height} map`);
  if (!defensibleSquare(state, player.id, command.at)) {
    refuseRule(
      "A8",
      `defences go on a square with one of ${player.id}'s armies, or an objective or city it holds; ${sq(command.at)} has none of these`,
    );
  }
  requireWarChestSpend(
    state,
    player.id,
    command.points,
    `${pts(command.points)} points of defences at ${sq(command.at)}`,
  );
  return [
    {
      type: "DefencesPurchased",
      data: { turn: state.turn, player: player.id, at: command.at, points: command.points },
    },
  ];
}
