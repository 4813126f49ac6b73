import type { Draft } from "immer";
import type { TitanDamage } from "../events/common.js";
import type { ArmyState } from "./state.js";

/** A8 titan damage bookkeeping for the reducers: damage adds up across battles until repairs take it off. */

export function carryTitanDamage(army: Draft<ArmyState>, damage: Readonly<Record<string, TitanDamage>>): void {
  const carried = (army.titanDamage ??= {});
  for (const [formation, taken] of Object.entries(damage)) {
    const titan = (carried[formation] ??= { shields: 0, weapons: [] });
    titan.shields += taken.shields;
    titan.weapons.push(...taken.weapons);
  }
}

export function repairTitanDamage(army: Draft<ArmyState>, formation: string, shields: number, weapons: readonly { destroyed: string }[]): void {
  const titan = army.titanDamage?.[formation];
  if (!titan) return;
  titan.shields -= shields;
  for (const { destroyed } of weapons) {
    const index = titan.weapons.findIndex((weapon) => weapon.name === destroyed);
    if (index >= 0) titan.weapons.splice(index, 1);
  }
  if (titan.shields <= 0 && titan.weapons.length === 0) delete army.titanDamage![formation];
  if (Object.keys(army.titanDamage!).length === 0) delete army.titanDamage;
}
