import { loadSetupFile } from "../../setup/setup-loader.js";
import { examplePath } from "../../setup/package-files.js";
import { withEngine } from "../session.js";
import type { DemoCampaign } from "./demo-campaigns.js";
import type { CliKit } from "./kit.js";
import { createCampaign } from "./new.js";
import { runServe } from "./serve.js";

/** Where `demo --serve` keeps its campaign unless --db says otherwise: apart from the played demo's folder. */
export const SERVED_DEMO_DB = "epicwar-web-demo";

/**
 * `demo --serve`: sets up the bundled example campaign, unplayed, in a folder of its own (once), and serves it, so
 * that the three seats' invite links it gives open the web page (docs/web.md): the players play it in their browsers.
 */
export async function serveDemo(
  options: { db: string; store?: string; port: string; host: string },
  demo: DemoCampaign,
  kit: Pick<CliKit, "print" | "io">,
): Promise<void> {
  await withEngine(options, { clock: kit.io.clock }, async (engine) => {
    if ((await engine.listCampaigns()).includes(demo.campaign)) {
      kit.print(
        `${options.db} already holds the demo campaign; its invites were given when it was first served (in its -server folder's invites.txt) (delete the folder and its -server and -secrets folders to start again).`,
      );
      return;
    }
    const setupPath = examplePath(demo.setupFile);
    for (const line of (await createCampaign(engine, setupPath, await loadSetupFile(setupPath))).lines) kit.print(line);
  });
  kit.print(
    "Open each seat's invite link in its own browser (or a private window): the host link is the organiser's. The links are kept in the file named below, and printed on a terminal.",
  );
  await runServe(
    {
      db: options.db,
      ...(options.store === undefined ? {} : { store: options.store }),
      hostChores: true,
      host: options.host,
      port: options.port,
    },
    kit,
  );
}
