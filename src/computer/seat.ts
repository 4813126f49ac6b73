import type { Answer } from "../engine/engine.js";
import type { SecretKeeper } from "../client/party-secrets.js";
import type { Table, WrittenEvents } from "../client/table.js";
import type { PlainCommand } from "../demo/plain-command.js";
import { describeRefusal } from "../rules/refusal.js";
import { ownHeldOrders, viewState, type CampaignView } from "../views/view.js";
import type { CampaignState } from "../../projections/state.js";
import { computerDecision, resultObjection, type ComputerChoices } from "./decide.js";

/** A step the computer took: its command, and what it held against a result it rejected. */
export interface ComputerStep {
  command: PlainCommand;
  /** Milliseconds the decision took (the searching level's thinking). */
  thought: number;
  objection?: string;
}

/** A decision of the computer the engine refused: the computer cannot go on by itself. */
export class ComputerRefusedError extends Error {
  override readonly name = "ComputerRefusedError";
}

/** Steps one call takes at most: a turn of Ashfall takes some 20; more means the computer is going round in circles. */
const MAX_STEPS = 500;

/**
 * The computer at its seat: a Table acting for that seat alone, with secrets of its own, through which it takes its
 * chores and gives its decisions exactly as a player's machine does. It reads the campaign only through the seat's
 * view (viewState) and its own secrets (its orders not yet revealed).
 */
export class ComputerSeat<S extends CampaignView, O extends Answer<unknown>> {
  constructor(
    readonly seat: string,
    private readonly table: Table<S, O>,
    private readonly secrets: SecretKeeper,
    private readonly choices: ComputerChoices,
    private readonly now: () => number,
    /** The seat's view of the table's state: a server's state already is one (the default). */
    private readonly seen: (state: S) => CampaignView = (state) => state,
  ) {}

  /**
   * Takes the seat's chores and gives its decisions until the campaign waits on another party; each step is reported
   * to `onStep` and its events to `onEvents`. Returns the steps taken.
   */
  async play(
    onEvents: (events: WrittenEvents<O>) => void = () => {},
    onStep: (step: ComputerStep) => void = () => {},
  ): Promise<ComputerStep[]> {
    const steps: ComputerStep[] = [];
    for (let count = 0; count < MAX_STEPS; count++) {
      // Decided on the state the chores left, none due in it: a later read may hold one another party made due since.
      const view = this.seen(await this.table.takeChores(onEvents));
      const began = this.now();
      const command = await computerDecision(
        view,
        this.seat,
        await ownHeldOrders(view, this.seat, this.secrets),
        this.choices,
      );
      if (!command) return steps;
      const step: ComputerStep = { command, thought: this.now() - began };
      if (command.type === "RejectBattleResult") {
        const battle = (view.battles as Record<string, Parameters<typeof resultObjection>[0]>)[
          String(command["battle"])
        ]!;
        const objection = resultObjection(battle, battle.report!.result)!;
        step.objection = `${objection.rule}: ${objection.message}`;
      }
      const outcome: Answer<unknown> = await this.table.submit(command, onEvents);
      if (!outcome.ok)
        throw new ComputerRefusedError(
          `the computer's ${command.type} for ${this.seat} was refused: ${describeRefusal(outcome.refusal)}`,
        );
      steps.push(step);
      onStep(step);
    }
    throw new ComputerRefusedError(
      `the computer took ${MAX_STEPS} steps for ${this.seat} without the campaign waiting on anyone else`,
    );
  }
}

/** How a seat at a local log sees it: as viewState shows the seat the whole state. */
export const seatSees =
  (seat: string) =>
  (state: CampaignState): CampaignView =>
    viewState(state, seat);
