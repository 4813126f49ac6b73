import { Option, type Command } from "commander";
import { stateContext } from "../../../replays/as-seen.js";
import { battleSheet } from "../../sheet/battle-sheet.js";
import { viewState } from "../../views/view.js";
import { CliError } from "../errors.js";
import { renderBattleSheet } from "../render-battle-sheet.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { applyCommands, readInput } from "./apply.js";
import { seatViewer } from "./show.js";
import type { CliKit, SeatCliOptions } from "./kit.js";

interface KitCliOptions extends SeatCliOptions {
  player?: string;
  propose?: string;
  choose?: string;
  target?: string;
  accept?: boolean;
  decline?: boolean;
  agreeEnclosed?: boolean;
  endTurn?: string;
  hits?: string;
  units?: string;
  barrage?: string;
  models?: string;
}

/** `--target ARMY:UNIT-TYPE`: an Assassination's leader. */
function target(spec: string | undefined): object {
  if (spec === undefined) return {};
  const [army, unitType, ...rest] = spec.split(":");
  if (!army || !unitType || rest.length > 0)
    throw new CliError(`--target: give ARMY:UNIT-TYPE, e.g. b1:command-stand, not "${spec}"`);
  return { target: { army, unitType } };
}

function integer(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${flag}: give a whole number, not "${value}"`);
  return Number(value);
}

/** The one kit command the flags ask for, as a player writes it. */
async function kitCommand(
  battle: string,
  actor: string,
  options: KitCliOptions,
  stdin: Parameters<typeof readInput>[1],
): Promise<object> {
  const base = { actor, battle };
  const actions: Array<[boolean, () => Promise<object> | object]> = [
    [
      options.propose !== undefined,
      () => ({ ...base, type: "ProposeScenario", scenario: options.propose, ...target(options.target) }),
    ],
    [
      options.choose !== undefined,
      () => ({ ...base, type: "ChooseScenario", scenario: options.choose, ...target(options.target) }),
    ],
    [options.accept === true, () => ({ ...base, type: "AnswerScenario", accept: true })],
    [options.decline === true, () => ({ ...base, type: "AnswerScenario", accept: false })],
    [options.agreeEnclosed === true, () => ({ ...base, type: "AgreeEnclosed" })],
    [
      options.endTurn !== undefined,
      () => ({ ...base, type: "EndBattleTurn", battleTurn: integer("--end-turn", options.endTurn!) }),
    ],
    [
      options.hits !== undefined,
      async () => {
        if (options.units === undefined)
          throw new CliError("--hits needs --units FILE: the formation's units as a JSON array");
        let units: unknown;
        try {
          units = JSON.parse(await readInput(options.units, stdin));
        } catch (error) {
          if (error instanceof CliError) throw error;
          throw new CliError(`--units ${options.units}: not valid JSON (${(error as Error).message})`);
        }
        return { ...base, type: "AllocateHits", units, hits: options.hits!.split(",").map((hit) => hit.trim()) };
      },
    ],
    [
      options.barrage !== undefined,
      () => ({
        ...base,
        type: "CallBarrage",
        barragePoints: integer("--barrage", options.barrage!),
        models: integer("--models", options.models ?? ""),
      }),
    ],
  ];
  const chosen = actions.filter(([given]) => given);
  if (chosen.length !== 1)
    throw new CliError(
      "give exactly one of --propose, --choose, --accept, --decline, --agree-enclosed, --end-turn, --hits (with --units), --barrage (with --models)",
    );
  return chosen[0]![1]();
}

/**
 * Registers `kit`: a player's battle kit command at the table (K2, K3, K5), applied as `apply` would (the host's roll
 * that follows is a chore, taken at once where this machine acts for the host), then the battle's sheet.
 */
export function registerKitPlay(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("kit <battle>")
    .description(
      "a player's battle kit command: propose, choose, accept or decline a scenario (K2), agree to an enclosed city battle or end a battle turn (K3), have hits allocated or call a Heresy barrage (K5); then the battle's sheet",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(kit.secretsOption())
    .addOption(new Option("--player <player>", "the player giving the command").makeOptionMandatory())
    .addOption(kit.asOption())
    .option(
      "--propose <scenario>",
      "K2: the attacker proposes this scenario (meetingEngagement, attackDefense, annihilation, breakout, recover, assassination, pincer)",
    )
    .option("--choose <scenario>", "K2: the side the campaign lets choose sets this scenario")
    .option("--target <army:unit-type>", "K2: an Assassination's leader, e.g. b1:command-stand")
    .option("--accept", "K2: the defender accepts the proposal")
    .option("--decline", "K2: the defender declines the proposal (the scenario is rolled)")
    .option("--agree-enclosed", "K3: agree that this city battle is fought enclosed")
    .option("--end-turn <n>", "K3: battle turn n ended at the table (Gravity Flux is rolled)")
    .option("--hits <kinds>", "K5: the hits scored, in order, e.g. AP,AP,AT,MW")
    .option(
      "--units <file>",
      "K5: with --hits, the formation's units as a JSON array (- for stdin), see docs/battle-kit.md",
    )
    .option("--barrage <points>", "K5 (Heresy): call a barrage of this many barrage points")
    .option("--models <n>", "K5 (Heresy): with --barrage, the models under its template")
    .action(
      action(async (battle: string, options: KitCliOptions) => {
        const command = await kitCommand(battle, options.player!, options, io.stdin);
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const seat = new Seat(engine, options);
          await applyCommands(seat, "kit", JSON.stringify(command), print);
          const campaign = await seat.campaign();
          const viewer = seatViewer(seat);
          const context = await stateContext(engine.store, campaign, viewer);
          const sheet = battleSheet(viewState(context.state, viewer, context), battle);
          if (sheet) renderBattleSheet(sheet).forEach(print);
        });
      }),
    );
}
