import { signal } from "@preact/signals";
import { ORGANISER } from "../../events/common.js";
import type { ServerConnection } from "../client/server.js";
import type { CampaignView } from "../views/view.js";
import type { Connection } from "./connection.js";
import { Game } from "./game.js";
import { lineRecords } from "./idb.js";
import { BrowserSecrets } from "./idb-secrets.js";
import type { SeatRef } from "./session.js";

/** The campaign's own line, as the server names it among its branches. */
export const MAIN = "main";

/**
 * The lines of the campaign the page plays: its own, or one of its branches (a what-if), switched between. Each line
 * has its own secrets in this browser. A branch starts with the player's seat key only: no secret of the main line
 * reaches it (what was open at its fork is void there and made afresh: docs/replays.md).
 */
export class Lines {
  readonly game = signal<Game | null>(null);
  private readonly main: Promise<BrowserSecrets>;

  constructor(
    private readonly server: ServerConnection,
    private readonly seat: SeatRef,
    private readonly connection: Connection,
  ) {
    this.main = BrowserSecrets.open(seat.campaign);
  }

  /** Plays the campaign's own line (no branch), or the branch named. */
  async play(branch?: string): Promise<void> {
    const secrets =
      branch === undefined ? await this.main : await BrowserSecrets.open(lineRecords(this.seat.campaign, branch));
    const game = new Game(this.server, this.seat, secrets, this.connection, branch);
    if (branch !== undefined) {
      const view = await game.remote.state(this.seat.campaign);
      // The key this seat signs with: its player's, or on the organiser's page the organiser's own.
      await carrySeatKey(view, game.player ?? ORGANISER, await this.main, secrets);
    }
    await game.refresh();
    this.game.value = game;
  }
}

/** D2: a branch's line inherits the main line's keys in force, so the seat signs there with the key it holds. */
async function carrySeatKey(view: CampaignView, party: string, from: BrowserSecrets, to: BrowserSecrets) {
  const key = await from.seatKey(party);
  if (key && key.publicKey === view.seatKeys?.[party]?.publicKey) await to.keepSeatKey(party, key);
}
