import { Option, type Command } from "commander";
import { stateContext } from "../../../replays/as-seen.js";
import { battleSheet } from "../../sheet/battle-sheet.js";
import { viewState } from "../../views/view.js";
import { CliError, EXIT } from "../errors.js";
import { renderBattleSheet } from "../render-battle-sheet.js";
import { Seat } from "../seat.js";
import { withEngine } from "../session.js";
import { seatViewer } from "./show.js";
import type { CliKit, SeatCliOptions } from "./kit.js";

/**
 * Registers `battle`: one battle's whole sheet (K1-K5 with the engagement, size and result) as the seat may see it,
 * as text or as the sheet's JSON (src/sheet/battle-sheet.ts, what the server's sheet route gives too).
 */
export function registerBattle(program: Command, kit: CliKit): void {
  const { action, print } = kit;
  program
    .command("battle <battle>")
    .description(
      "show a battle's sheet: sides, engagement, terrain guide (K1), scenario (K2), conditions turn by turn (K3), the assistant's volleys and barrages (K5), result",
    )
    .addOption(kit.dbOption())
    .addOption(kit.campaignOption())
    .addOption(kit.branchOption())
    .addOption(new Option("--as <player>", "show the sheet as this player may see it"))
    .option("--json", "print the sheet as JSON")
    .action(
      action(async (id: string, options: SeatCliOptions & { json?: boolean; branch?: string }) => {
        await withEngine(options, { createIfMissing: false }, async (engine) => {
          const seat = new Seat(engine, options);
          const campaign = await seat.campaign();
          const viewer = seatViewer(seat);
          const context = await stateContext(engine.store, campaign, viewer);
          const view = viewState(context.state, viewer, context);
          const sheet = battleSheet(view, id);
          if (!sheet) {
            const known = Object.keys(view.battles);
            throw new CliError(
              `battle: no battle "${id}" in this campaign${known.length ? ` (its battles: ${known.join(", ")})` : " (none has been fought yet)"}`,
              EXIT.refused,
            );
          }
          if (options.json) print(JSON.stringify(sheet, null, 2));
          else renderBattleSheet(sheet).forEach(print);
        });
      }),
    );
}
