import type { StoredEvent } from "../../events/index.js";
import { computerDir, readComputerSettings } from "../computer/settings.js";
import { localComputerSeat } from "../computer/local-seat.js";
import { secretsOfLog } from "../client/secrets.js";
import type { ComputerStep } from "../computer/seat.js";
import type { Engine } from "../engine/engine.js";
import type { Seat } from "./seat.js";

/** Rounds of the human's chores and the computer's steps one command takes at most before it gives the turn back. */
const MAX_ROUNDS = 200;

/**
 * The computer's due steps, taken after a command of the human's at this machine (docs/computer.md): the human's
 * chores (a reveal, the next turn's start) and the computer's chores and decisions in turn, until the campaign waits
 * on the human, or has ended. Nothing where the computer plays no seat of the campaign. Returns the steps taken.
 */
export async function takeComputerSteps(
  engine: Engine,
  seat: Seat,
  db: string,
  campaign: string,
  onEvents: (events: StoredEvent[]) => void,
  print: (line: string) => void,
): Promise<ComputerStep[]> {
  const dir = computerDir(db);
  const settings = await readComputerSettings(dir, campaign);
  if (!settings) return [];
  const human = await seat.table(campaign);
  const computer = localComputerSeat(engine, campaign, settings, secretsOfLog(dir, campaign, engine.store));
  const taken: ComputerStep[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = (await engine.state(campaign)).seq;
    await human.takeChores(onEvents);
    const steps = await computer.play(onEvents, (step) => {
      if (step.objection)
        print(
          `The computer (${settings.seat}) rejects the result of ${String(step.command["battle"])}: ${step.objection}`,
        );
    });
    taken.push(...steps);
    if ((await engine.state(campaign)).seq === before) break;
  }
  return taken;
}
