import type { EventData } from "../../events/index.js";
import type { ArmyState, PlayerLedger } from "../../projections/state.js";
import type { SecretField } from "./secret-field.js";

/**
 * A6: the secrets of the Commanders rule. A commander's level tells the enemy what kind of unit it is (an HQ unit
 * rises faster than a standard one) and, under fog of war, how large its army is: it stays its owner's. A commander
 * appointed later, or standing down, is named in public only by CommanderKilled, once it dies.
 */

type CommanderEvent = "CommanderAppointed" | "CommanderPromoted" | "CommanderStoodDown";

/** A field of an A6 event that only the event's player sees. */
function ownersOnly<T extends CommanderEvent, F extends keyof EventData<T> & string>(
  field: F,
): SecretField<EventData<T>, F> {
  return { field, rule: "A6", owner: (data) => data.player, revealed: () => false };
}

/** A killed commander is known to both players: the field is listed so that every commander in the log is. */
const killedCommander: SecretField<EventData<"CommanderKilled">, "commander"> = {
  field: "commander",
  rule: "A6",
  owner: (data) => data.player,
  revealed: () => true,
};

/** Secret fields of the A6 events, by event type. */
export const COMMANDER_EVENT_SECRETS = {
  CommanderAppointed: [
    ownersOnly<"CommanderAppointed", "commander">("commander"),
    ownersOnly<"CommanderAppointed", "level">("level"),
  ],
  CommanderPromoted: [
    ownersOnly<"CommanderPromoted", "commander">("commander"),
    ownersOnly<"CommanderPromoted", "level">("level"),
  ],
  CommanderKilled: [killedCommander],
  CommanderStoodDown: [
    ownersOnly<"CommanderStoodDown", "commander">("commander"),
    ownersOnly<"CommanderStoodDown", "level">("level"),
  ],
} as const;

/** An army's commander level; nothing is hidden where it has none (A6 off, or its commander gone). */
export const commanderLevelInState: SecretField<ArmyState, "commanderLevel"> = {
  field: "commanderLevel",
  rule: "A6",
  owner: (army) => army.player,
  revealed: (army) => typeof army.commanderLevel !== "number",
};

/** A player's spare commanders; the ledger's key is the player. */
export const spareCommandersInLedger: SecretField<PlayerLedger, "spareCommanders"> = {
  field: "spareCommanders",
  rule: "A6",
  owner: (_ledger, player) => player,
  revealed: (ledger) => ledger.spareCommanders === undefined,
};
