import type { WaitItem } from "../rules/waiting-on.js";

/** What a party gives by hand, in words; the rest (dice seeds, reveals, the turn's start) is taken by the software. */
const BY_HAND: Partial<Record<WaitItem["what"], string>> = {
  resume: "resume the campaign",
  firstChoice: "choose who activates first",
  activation: "activate an army",
  order: "give an attacked army's order",
  scoutingAnswer: "answer a scouting",
  armySize: "state an army's size",
  scenario: "agree a scenario",
  actionPhaseClose: "close the Action phase",
  battleResult: "report a battle's result",
  resultConfirmation: "confirm a battle's result",
  endPhase: "finish the End phase",
};

/** What the items a party owes ask of it by hand, in words, each once (none: it has nothing to do by hand). */
export function owedByHand(items: readonly WaitItem[] = []): string[] {
  return [...new Set(items.flatMap((item) => BY_HAND[item.what] ?? []))];
}
