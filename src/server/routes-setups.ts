import type { FastifyInstance } from "fastify";
import { COMPUTER_LEVELS } from "../computer/decide.js";
import { DEFAULT_THINK_MS, MAX_THINK_MS } from "../computer/settings.js";
import { examplePath } from "../setup/package-files.js";
import { loadSetupFile } from "../setup/setup-loader.js";
import { requireOperator } from "./auth.js";

/** The set-ups the server offers for a new campaign: the package's examples, each as POST /campaigns takes it. */
export const OFFERED_SETUPS = ["ashfall.setup.json", "emberfall.setup.json"] as const;

/**
 * `GET /setups` (docs/server.md): what a new campaign may be made of, for the page's start screen: the example
 * set-ups with their catalogues in them, the computer's levels and the bounds of its thinking time. The operator's
 * alone, as creating campaigns is.
 */
export function setupRoutes(app: FastifyInstance): void {
  // Read once, on the first request: the package's files do not change while the server runs.
  let offered: Promise<unknown[]> | undefined;
  app.get("/setups", { preValidation: requireOperator }, async () => {
    offered ??= Promise.all(
      OFFERED_SETUPS.map(async (file) => ({ file, setup: await loadSetupFile(examplePath(file)) })),
    );
    return {
      setups: await offered,
      computer: { levels: COMPUTER_LEVELS, thinkMs: { default: DEFAULT_THINK_MS, max: MAX_THINK_MS } },
    };
  });
}
