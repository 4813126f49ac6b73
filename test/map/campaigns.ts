/**
 * The campaigns the map tests draw: the bundled examples played in this process by the demo's scripted commanders,
 * with the demo's fixed dice (src/cli/commands/demo.ts), so that every run reaches the same moments. Each is played on
 * a real LevelDB in a temp folder and read back through the same "as seen" reads as `epicwar state --as` and
 * `epicwar map --as`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CampaignState } from "../../projections/state.js";
import { stateContext } from "../../replays/as-seen.js";
import type { Position } from "../../replays/positions.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { Table } from "../../src/client/table.js";
import { mapOutput } from "../../src/cli/commands/map.js";
import type { DemoCampaign } from "../../src/cli/commands/demo-campaigns.js";
import { examplePath } from "../../src/setup/package-files.js";
import { nextDecision } from "../../src/demo/play.js";
import { describeRefusal } from "../../src/rules/refusal.js";
import { Engine } from "../../src/engine/engine.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { ownHeldOrders, type ViewContext, type Viewer } from "../../src/views/view.js";

/** Every event is written at this time: nothing on the map depends on it, and the logs are then the same each run. */
const CLOCK = () => new Date("2030-01-01T00:00:00.000Z");

export class PlayedCampaign {
  private constructor(
    readonly engine: Engine,
    readonly campaign: string,
    readonly secrets: MemorySecrets,
    private readonly table: Table,
    private readonly dir: string,
  ) {}

  /** Sets up the example campaign and takes the first chores (seeds, the turn's start, initiative). */
  static async open(demo: DemoCampaign): Promise<PlayedCampaign> {
    const dir = await mkdtemp(join(tmpdir(), "epicwar-map-"));
    const engine = await Engine.open(join(dir, "db"), { clock: CLOCK });
    const created = await engine.create(
      setupCommands(await loadSetupFile(examplePath(demo.setupFile))).map((s) => s.command),
    );
    if (!created.ok) throw new Error(`${demo.setupFile}: ${describeRefusal(created.refusal)}`);
    const secrets = new MemorySecrets();
    const table = new Table(engine, demo.campaign, { secrets, random: sequenceRandomHex(demo.dice) });
    await table.takeChores();
    return new PlayedCampaign(engine, demo.campaign, secrets, table, dir);
  }

  /** Plays on, one scripted decision at a time, until `stop` holds for the state. */
  async playUntil(stop: (state: CampaignState) => boolean): Promise<CampaignState> {
    for (;;) {
      const state = await this.table.state();
      if (stop(state)) return state;
      const command = nextDecision(state);
      if (!command) throw new Error(`${this.campaign} reached turn ${state.turn} ${state.phase} without the moment`);
      const outcome = await this.table.submit(command);
      if (!outcome.ok) throw new Error(`${command.type}: ${describeRefusal(outcome.refusal)}`);
    }
  }

  /** The seq of the set-up's last event: the map before turn 1 begins. */
  async setupEnd(): Promise<number> {
    const events = await this.engine.store.readAll(this.campaign);
    return events.find((event) => event.type === "CampaignStarted")!.seq - 1;
  }

  /** What `epicwar map --as VIEWER` reads: the context of the line now, or at a position. */
  context(viewer: Viewer, position?: Position): Promise<ViewContext> {
    return stateContext(this.engine.store, this.campaign, viewer, position);
  }

  /** The map as `epicwar map --as VIEWER [--seq N]` draws it, with the viewer's own held orders. */
  async map(viewer: Viewer, position?: Position): Promise<string> {
    const context = await this.context(viewer, position);
    return mapOutput(context, viewer, await ownHeldOrders(context.state, viewer, this.secrets), 64);
  }

  async close(): Promise<void> {
    await this.engine.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * The moment the tests draw in an Action phase: a battle waiting to be fought, at least two armies moved, and on each
 * side an order given and still hidden.
 */
export const battleAndMoves = (state: CampaignState): boolean => {
  const activations = Object.values(state.turnState?.activations ?? {});
  return (
    state.phase === "action" &&
    Object.values(state.battles).some((battle) => battle.turn === state.turn) &&
    activations.filter((a) => a.path.length > 0).length >= 2 &&
    state.setup!.players.every((p) => activations.some((a) => a.player === p.id && a.order === null))
  );
};
