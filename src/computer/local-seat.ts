import { performance } from "node:perf_hooks";
import type { SecretKeeper } from "../client/party-secrets.js";
import { Table } from "../client/table.js";
import type { Engine } from "../engine/engine.js";
import { MAX_SEARCH_ROUNDS } from "./search.js";
import { ComputerSeat, seatSees } from "./seat.js";
import type { ComputerSettings } from "./settings.js";

/**
 * The computer at its seat of a campaign in a log this process holds (the CLI's folder, a server's): its own Table on
 * the engine, its own secrets (a folder's `<campaign>/<seat>.json`, or sealed in a shared database), battles fought on
 * the table by the human.
 */
export function localComputerSeat(engine: Engine, campaign: string, settings: ComputerSettings, secrets: SecretKeeper) {
  const own = new Table(engine, campaign, { parties: new Set([settings.seat]), secrets });
  const now = () => performance.now();
  return new ComputerSeat(
    settings.seat,
    own,
    secrets,
    {
      level: settings.level,
      battles: "table",
      budget: { milliseconds: settings.thinkMs, rounds: MAX_SEARCH_ROUNDS, now },
    },
    now,
    seatSees(settings.seat),
  );
}
