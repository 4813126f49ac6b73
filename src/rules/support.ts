import type { BattleResult, SupportKind, SupportUse } from "../../events/common.js";
import type { DomainEvent } from "../../events/index.js";
import { advancedRule } from "../../projections/advanced.js";
import type { BattleState, CampaignState, SupportItemState } from "../../projections/state.js";
import { SUPPORT_PRICES, usableInTurn } from "../../projections/support.js";
import type { CommandOf } from "../engine/command-schemas.js";
import { requireEndPhasePlayer } from "./guards.js";
import { pts, refuseField, refuseRule } from "./refusal.js";
import { ledgerOf } from "./reserves.js";
import { requireSetup } from "./guards.js";
import { requireWarChestSpend } from "./war-chest.js";

/**
 * A7 Off-table support: buying barrages and missiles for a side's artillery roster in the End phase, checking what a
 * battle result says each side called in, and striking used items off the roster once the battle is resolved.
 */

const ROLES = ["attacker", "defender"] as const;

function requireOffTableSupport(state: CampaignState, what: string): void {
  if (!advancedRule(requireSetup(state).options, "offTableSupport")) {
    refuseRule("A7", `this campaign does not play off-table support (advanced option offTableSupport), so ${what}`);
  }
}

/** The first free roster id for a kind bought this turn: "<kind>-t<turn>", then "-2", "-3"... */
function defaultItemId(artillery: readonly SupportItemState[], kind: SupportKind, turn: number): string {
  const base = `${kind}-t${turn}`;
  const taken = new Set(artillery.map((item) => item.id));
  let id = base;
  for (let k = 2; taken.has(id); k++) id = `${base}-${k}`;
  return id;
}

export function decideBuySupport(state: CampaignState, command: CommandOf<"BuySupport">): DomainEvent[] {
  const setup = requireSetup(state);
  requireOffTableSupport(state, "nothing can be bought for an artillery roster");
  const player = requireEndPhasePlayer(state, command.actor, "A7", "off-table support is bought");
  const ledger = ledgerOf(state, player.id);
  const price = SUPPORT_PRICES[command.kind];
  const item = command.item ?? defaultItemId(ledger.artillery, command.kind, state.turn);
  if (ledger.artillery.some((owned) => owned.id === item))
    refuseField("item", `${player.id} already has "${item}" on its artillery roster`);

  // With the war chest in play, support is bought from it; otherwise from the support fund, which buys nothing else.
  const paidFrom = advancedRule(setup.options, "warChest") ? "warChest" : "supportFund";
  if (paidFrom === "warChest") {
    requireWarChestSpend(state, player.id, price.points, `a ${price.name}`);
  } else if (price.points > ledger.supportFund) {
    refuseRule(
      "A7",
      `a ${price.name} costs ${pts(price.points)} points and ${player.id}'s support fund holds ${pts(ledger.supportFund)}`,
    );
  }
  return [
    {
      type: "SupportPurchased",
      data: { turn: state.turn, player: player.id, item, kind: command.kind, cost: price.points, paidFrom },
    },
  ];
}

/** Items of `player` called in by another battle of this turn whose reported result awaits confirmation, by item id. */
function claimedElsewhere(state: CampaignState, battle: BattleState, player: string): Map<string, string> {
  const claimed = new Map<string, string>();
  for (const other of Object.values(state.battles)) {
    if (other.id === battle.id || other.turn !== battle.turn || !other.report) continue;
    for (const role of ROLES) {
      if (other[role].player !== player) continue;
      for (const use of other.report.result[role].support ?? []) claimed.set(use.item, other.id);
    }
  }
  return claimed;
}

/** A7: one use of a support item: on the side's roster, usable this turn, not promised to another battle, used as its kind allows. */
function checkUse(
  state: CampaignState,
  battle: BattleState,
  player: string,
  use: SupportUse,
  claimed: Map<string, string>,
): void {
  const item = ledgerOf(state, player).artillery.find((owned) => owned.id === use.item);
  if (!item)
    refuseRule(
      "A7",
      `${player} has no "${use.item}" on its artillery roster: it was never bought or is already used up`,
    );
  if (!usableInTurn(item, battle.turn)) {
    refuseRule(
      "A7",
      `"${item.id}" was bought in turn ${item.boughtTurn}: off-table support may be called in from the turn after it is bought`,
    );
  }
  const elsewhere = claimed.get(item.id);
  if (elsewhere)
    refuseRule(
      "A7",
      `"${item.id}" is already called in battle "${elsewhere}", whose result awaits confirmation: an item supports one battle only`,
    );
  const price = SUPPORT_PRICES[item.kind];
  if (price.use === "oneShot" && use.turns.length > 1) {
    refuseRule(
      "A7",
      `"${item.id}" is a ${price.name}, a one-shot weapon: it is called in once, not in battle turns ${use.turns.join(", ")}`,
    );
  }
  const repeated = use.turns.find((turn, i) => use.turns.indexOf(turn) !== i);
  if (repeated !== undefined) {
    refuseRule(
      "A7",
      `"${item.id}" is a ${price.name}: it may be called in once per battle turn, and is listed twice for battle turn ${repeated}`,
    );
  }
}

/** A7: the support each side of a battle result says it called in must be its own to call in, as the price list allows. */
export function checkSupportUse(state: CampaignState, battle: BattleState, result: BattleResult): void {
  for (const role of ROLES) {
    const uses = result[role].support;
    if (uses === undefined) continue;
    requireOffTableSupport(state, `the ${role} cannot have called any in`);
    const player = battle[role].player;
    const claimed = claimedElsewhere(state, battle, player);
    const listed = new Set<string>();
    for (const use of uses) {
      if (listed.has(use.item))
        refuseRule(
          "A7",
          `"${use.item}" is listed twice in the ${role}'s support: give every battle turn it was called in once`,
        );
      listed.add(use.item);
      checkUse(state, battle, player, use, claimed);
    }
  }
}

/** A7: once a battle is resolved, every item either side called in is gone from its artillery roster. */
export function supportExpended(state: CampaignState, battle: BattleState, result: BattleResult): DomainEvent[] {
  return ROLES.flatMap((role) => {
    const items = (result[role].support ?? []).map((use) => use.item);
    if (items.length === 0) return [];
    return [
      {
        type: "SupportExpended" as const,
        data: { turn: state.turn, battle: battle.id, player: battle[role].player, items },
      },
    ];
  });
}
