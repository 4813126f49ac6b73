import { signal } from "@preact/signals";
import type { ServerConnection } from "../client/server.js";
import { orderCommitment, seedCommitment } from "../crypto/commitments.js";
import type { CampaignView } from "../views/view.js";
import type { Connection } from "./connection.js";
import { Game } from "./game.js";
import { BrowserSecrets } from "./idb-secrets.js";
import type { SeatRef } from "./session.js";

/** The campaign's own line, as the server names it among its branches. */
export const MAIN = "main";

/**
 * The lines of the campaign the page plays: its own, or one of its branches (a what-if), switched between. Each line
 * has its own secrets in this browser; a branch starts with the secrets of the turn under way at its fork carried over.
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
      branch === undefined ? await this.main : await BrowserSecrets.open(`${this.seat.campaign}~${branch}`);
    const game = new Game(this.server, this.seat, secrets, this.connection, branch);
    const player = game.player;
    if (branch !== undefined && player) {
      const view = await game.remote.state(this.seat.campaign);
      await carrySeatKey(view, player, await this.main, secrets);
      await carryTurnSecrets(view, player, await this.main, secrets);
    }
    await game.refresh();
    this.game.value = game;
  }
}

/** D2: a branch's line inherits the main line's keys in force, so the player signs there with the key it holds. */
async function carrySeatKey(view: CampaignView, player: string, from: BrowserSecrets, to: BrowserSecrets) {
  const key = await from.seatKey(player);
  if (key && key.publicKey === view.seatKeys?.[player]?.publicKey) await to.keepSeatKey(player, key);
}

/**
 * A branch forked in a turn under way shares that turn's commitments with the main line: the player's orders and dice
 * seed they commit to are copied from the main line's secrets, each only if it matches its commitment in the branch.
 */
async function carryTurnSecrets(
  view: CampaignView,
  player: string,
  from: BrowserSecrets,
  to: BrowserSecrets,
): Promise<void> {
  const turn = view.turnState;
  if (turn) {
    for (const activation of Object.values(turn.activations)) {
      if (activation.player !== player || activation.order !== null) continue;
      const held = (await from.ordersKept(player, view.turn, activation.army)).find(
        (kept) =>
          orderCommitment({ campaign: view.campaign!, turn: view.turn, army: activation.army, ...kept }) ===
          activation.commitment,
      );
      if (held) await to.keepOrder(player, view.turn, activation.army, held);
    }
  }
  // The seed committed for this turn (not yet given) or for the next (committed before it starts).
  const committed = turn && !turn.playerSeeds[player] ? turn.playerSeedHashes[player] : view.seedCommitments[player];
  for (const seedTurn of [view.turn, view.turn + 1]) {
    const seed = await from.playerSeed(player, seedTurn);
    if (seed !== undefined && committed !== undefined && seedCommitment(seed) === committed)
      await to.keepPlayerSeed(player, seedTurn, seed);
  }
}
