import type { Order } from "../events/common.js";
import type { ScoutingBandName } from "./scouting.js";

export interface Engagement {
  /** Who has the initiative in battle turn 1 (and 2), or null for the standard roll. */
  initiative: { side: "attacker" | "defender"; turns: number[] } | null;
  /** Extra deployment distance forward, in cm. */
  forwardCm: { attacker: number; defender: number };
  /** Which side deploys first, or null for the standard order. */
  deploysFirst: "attacker" | "defender" | null;
  /** The sentence of the B2 table. */
  effect: string;
  /** A3: the defender's units may start the battle dug in. */
  dugIn?: boolean;
}

/**
 * B2: the engagement effects of the attacker's order against the defender's; A3: changed by the band of the attacker's
 * scouting of the defender this turn, if any.
 */
export function engagement(attacker: Order, defender: Order, scouting?: ScoutingBandName): Engagement {
  const standard: Engagement = {
    initiative: null,
    forwardCm: { attacker: 0, defender: 0 },
    deploysFirst: null,
    effect: "standard battle",
  };
  const row = (attackerOrder: Order, defenderOrder: Order): Engagement => {
    const key = `${attackerOrder}/${defenderOrder}`;
    switch (key) {
      case "advance/firstFire":
        return {
          initiative: { side: "defender", turns: [1] },
          forwardCm: { attacker: 0, defender: 15 },
          deploysFirst: null,
          effect: "defender has initiative turn 1; defender deploys 15 cm further forward",
        };
      case "advance/charge":
        return {
          ...standard,
          initiative: { side: "attacker", turns: [1] },
          effect: "standard deployment; attacker has initiative turn 1",
        };
      case "advance/fortify":
        return {
          ...standard,
          initiative: { side: "attacker", turns: [1] },
          deploysFirst: "defender",
          effect: "defender sets up army and fortifications first; attacker has initiative turn 1",
        };
      case "charge/firstFire":
        return {
          initiative: { side: "defender", turns: [1, 2] },
          forwardCm: { attacker: 0, defender: 25 },
          deploysFirst: "attacker",
          effect:
            "defender has initiative turns 1 and 2; defender deploys 25 cm further forward and deploys after the attacker",
        };
      case "charge/advance":
        return {
          ...standard,
          initiative: { side: "defender", turns: [1] },
          deploysFirst: "attacker",
          effect: "attacker deploys first; defender has initiative turn 1",
        };
      case "charge/fortify":
        return {
          initiative: { side: "attacker", turns: [1] },
          forwardCm: { attacker: 15, defender: 0 },
          deploysFirst: null,
          effect:
            "attacker deploys 15 cm further forward; defender places defences anywhere, army in the standard zone; attacker has initiative turn 1",
        };
      default:
        return standard;
    }
  };
  return scouting ? afterScouting(row(attacker, defender), defender, scouting) : row(attacker, defender);
}

/**
 * A3: what a scouting changes in a battle the scout then fights against the scouted army, which only a defender on
 * First Fire feels: the scout winning by 3x takes every First Fire bonus, by 2x the automatic initiative; the scouted
 * army winning by 2x adds 10 cm to its deployment and makes the attacker deploy first, by 3x also lets it dig in.
 */
export function afterScouting(base: Engagement, defender: Order, band: ScoutingBandName): Engagement {
  if (defender !== "firstFire") return base;
  switch (band) {
    case "scoutTriple":
      return {
        initiative: null,
        forwardCm: { attacker: base.forwardCm.attacker, defender: 0 },
        deploysFirst: null,
        effect: "standard battle: the scouting took every First Fire bonus (A3)",
      };
    case "scoutDouble":
      return {
        ...base,
        initiative: null,
        effect: `${base.effect}; but after the scouting (A3) initiative is rolled as normal`,
      };
    case "scoutedDouble":
    case "scoutedTriple": {
      const dugIn = band === "scoutedTriple";
      return {
        ...base,
        forwardCm: { ...base.forwardCm, defender: base.forwardCm.defender + 10 },
        deploysFirst: "attacker",
        effect: `${base.effect}; after the scouting (A3) the defender deploys 10 cm further still and the attacker deploys first${dugIn ? "; the defender's units may start dug in" : ""}`,
        ...(dugIn ? { dugIn } : {}),
      };
    }
    default:
      return base;
  }
}
