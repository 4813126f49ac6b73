import type { Engine } from "../../engine/engine.js";
import { sequenceRandomHex } from "../../client/prepare.js";
import { FileSecrets } from "../../client/secrets.js";
import { sequenceSeatKeys } from "../../client/seat-keys.js";
import { Table } from "../../client/table.js";
import { accountPrinter, campaignResult, playCampaign } from "../../demo/play.js";
import { playDemoOnServer, type RemoteDemoOptions } from "./demo-remote.js";
import { serveDemo, SERVED_DEMO_DB } from "./demo-serve.js";
import { examplePath } from "../../setup/package-files.js";
import { renderState } from "../render.js";
import { defaultSecretsDir } from "../seat.js";
import { loadSetupFile } from "../../setup/setup-loader.js";
import { HOST } from "../../../events/common.js";
import { ownHeldOrders, seesAll, viewState, type Viewer } from "../../views/view.js";
import { battleSheet } from "../../sheet/battle-sheet.js";
import { renderBattleSheet } from "../render-battle-sheet.js";
import { CliError } from "../errors.js";
import { createCampaign } from "./new.js";
import { stateOutput } from "./show.js";
import { describeAs, lineView, stateContext } from "../../../replays/as-seen.js";
import { viewAsOption } from "./viewer.js";
import { verifyCampaigns } from "./verify.js";
import { Option, type Command } from "commander";
import { withEngine } from "../session.js";
import type { CliKit } from "./kit.js";
import { ADVANCED_DEMO, BASIC_DEMO, type DemoCampaign } from "./demo-campaigns.js";

export const DEMO_DB = "epicwar-demo";
const MAX_TURNS = 30;

/**
 * Sets up the bundled example campaign and plays it to a victory with scripted commanders, telling each turn as it
 * goes; in a folder where it has already been played, tells it again from the log. One stopped part-way (a demo
 * killed mid-turn, or a campaign only set up) is played on to its end, then told from the log. With a player as
 * `viewer` (`demo --as PLAYER`), the account and the final state are that player's view, told from the log once played.
 */
export async function runDemo(
  engine: Engine,
  db: string,
  print: (line: string) => void,
  demo: DemoCampaign = BASIC_DEMO,
  viewer?: Viewer,
): Promise<void> {
  const { campaign } = demo;
  const secrets = new FileSecrets(defaultSecretsDir(db), campaign);
  const exists = (await engine.listCampaigns()).includes(campaign);
  if (exists) {
    const state = await engine.state(campaign);
    checkViewer(viewer, state.setup!.players, campaign);
    if (state.status === "finished" || state.turn > MAX_TURNS) {
      print(`The demo campaign is already in ${db}; this is its account, read back from the log.`);
    } else {
      print(
        `The demo campaign in ${db} was stopped in turn ${state.turn} before its end; the scripted commanders play it on to the end.`,
      );
      // Draws of their own: the first run's would repeat its seeds, and a repeated host seed is refused (D1).
      const table = new Table(engine, campaign, {
        secrets,
        random: sequenceRandomHex(`${demo.dice}-resumed-at-${state.seq}`),
        newKey: sequenceSeatKeys(`${demo.dice}-resumed-at-${state.seq}`),
      });
      await playCampaign(table, () => {}, MAX_TURNS);
      print(`This is its account, read back from the log.`);
    }
  } else {
    const setupPath = examplePath(demo.setupFile);
    const setup = await loadSetupFile(setupPath);
    // Checked before the campaign is played, not after.
    checkViewer(viewer, setup.players, campaign);
    for (const line of (await createCampaign(engine, setupPath, setup)).lines) print(line);
    print(`Orders are kept secret in ${defaultSecretsDir(db)}; only their commitments go into the log.`);
    print(
      "The demo's seeds and salts come from a fixed sequence, so that every run plays the same campaign; `epicwar new`, `serve` and the library draw them from the operating system.",
    );
    const table = new Table(engine, campaign, {
      secrets,
      random: sequenceRandomHex(demo.dice),
      newKey: sequenceSeatKeys(demo.dice),
    });
    await playCampaign(table, seesAll(viewer) ? print : () => {}, MAX_TURNS);
  }
  // A player's account is judged with the campaign as it ends, as `log --as` judges it.
  const view = await lineView(engine.store, campaign, viewer);
  if (exists || view) {
    const account = accountPrinter(print, describeAs(view));
    for await (const batch of engine.store.readBatches(campaign)) account(batch);
  }
  const state = await engine.state(campaign);
  print("");
  print(
    view
      ? stateOutput(view.context, view.viewer, await ownHeldOrders(state, view.viewer, secrets), false)
      : renderState(state),
  );
  // K1-K5: every battle's whole sheet, as the viewer may see it, the settled battles read from the log with the rest.
  const context = view?.context ?? (await stateContext(engine.store, campaign, viewer));
  const seen = viewState(context.state, viewer, context);
  print("");
  print("Battle sheets:");
  for (const battle of Object.values(seen.battles).sort((a, b) => a.turn - b.turn || a.index - b.index)) {
    print("");
    renderBattleSheet(battleSheet(seen, battle.id)!).forEach(print);
  }
  print("");
  print(
    state.status === "finished"
      ? campaignResult(state)
      : `No side reached ${state.setup!.cvpTarget} CVPs in ${MAX_TURNS} turns.`,
  );
  // A player's view carries no hash of the log (docs/views.md).
  await verifyCampaigns(engine, [campaign], (line) =>
    print(`Hash chain: ${view ? line.replace(/, head [0-9a-f]+$/, "") : line}`),
  );
}

/** `--as` takes a player of the campaign or the host. */
function checkViewer(viewer: Viewer, players: ReadonlyArray<{ id: string }>, campaign: string): void {
  if (!seesAll(viewer) && !players.some((p) => p.id === viewer))
    throw new CliError(`"${viewer}" is not a player of ${campaign} (--as takes a player or ${HOST})`);
}

/** Registers `demo`: sets up a bundled example campaign in a local folder and tells what happened. */
export function registerDemo(program: Command, kit: CliKit): void {
  const { action, print, io } = kit;
  program
    .command("demo")
    .description(
      "set up the bundled example campaign in a local folder and tell what happened; with --server, play the token's side of a campaign on a server with the demo's commanders",
    )
    .addOption(new Option("--db <dir>", "folder for the demo's database").default(DEMO_DB))
    .option("--advanced", "play the second example campaign, Emberfall, with every advanced rule (A1-A8) on")
    .option(
      "--serve",
      `set the campaign up unplayed (in ${SERVED_DEMO_DB} unless --db says) and serve it: open the seats' links it prints in browsers`,
    )
    .addOption(new Option("--port <n>", "with --serve: the port to listen on").default("4100"))
    .addOption(viewAsOption())
    .addOption(kit.campaignOption())
    .addOption(kit.secretsOption())
    .addHelpText(
      "after",
      [
        "",
        "With --server URL (given on the command line; $EPICWAR_SERVER is not enough) the scripted commanders play the",
        "seat of the token (--token, $EPICWAR_TOKEN, or the one epicwar join kept) until the campaign ends: they follow",
        "the feed as watch does, decide from that seat's view when the campaign waits on it, and keep its orders and seeds",
        "in its secrets folder (--secrets). See docs/remote-play.md.",
      ].join("\n"),
    )
    .action(
      action(async (options: RemoteDemoOptions & { db: string; serve?: boolean; port: string }, command: Command) => {
        const demo = options.advanced ? ADVANCED_DEMO : BASIC_DEMO;
        if (options.serve) {
          const db = command.getOptionValueSource("db") === "default" ? SERVED_DEMO_DB : options.db;
          return serveDemo({ db, port: options.port, host: "127.0.0.1" }, demo, kit);
        }
        const server = kit.server(command);
        if (server) return playDemoOnServer(server, options, io, print);
        // The local demo keeps its secrets beside its own folder and plays its own campaign.
        if (options.campaign !== undefined || options.secrets !== undefined)
          throw new CliError("--campaign and --secrets are for demo --server (a seat on a server): leave them out");
        await withEngine(options, { clock: io.clock }, (engine) =>
          runDemo(engine, options.db, print, demo, options.as),
        );
      }),
    );
}
