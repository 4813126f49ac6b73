import type { CampaignState } from "../projections/state.js";
import type { CheckedEvent } from "./audit-advanced.js";
import { VERDICTS } from "./audit-report.js";
import type { BasicCheck, TurnBook, TurnSection, TurnWork } from "./audit-turns.js";

/**
 * T3, activations: each army that stood on the map when the turn began is activated once, by its owner, within the
 * Action phase, the players alternating from the one the initiative winner chose (the run-out ruling: a player with no
 * army left passes); an engaged defender gives its order out of sequence. An army never activated is a finding, unless
 * the host's close of a claimed stall, or at the Action phase's deadline (O2), kept it from its activation.
 */
export class ActivationCheck implements BasicCheck {
  constructor(private readonly book: TurnBook) {}

  before(event: CheckedEvent, state: CampaignState): void {
    if (event.type === "ArmyActivated") this.activated(event.seq, event.actor, event.data, state);
  }

  finishTurn(turn: TurnWork, section: TurnSection): void {
    const { closing } = section;
    if (closing === null) return;
    for (const [army, player] of turn.acting) {
      if (turn.activations.has(army)) continue;
      // Stall ruling: an army the close of a claimed stall (or at a deadline) lists as not activated was kept from it.
      const keptByStall =
        turn.stallClaimed !== null && turn.stallClaimed < closing && turn.actionEnded?.notActivated.includes(army);
      if (keptByStall) continue;
      this.book.report(turn, {
        verdict: VERDICTS.neverActivated,
        army,
        player,
        seqs: [closing],
        detail: `${army} (${player}) stood on the map but was not activated before the Action phase of turn ${turn.turn} ended (seq ${closing}): each army is activated once a turn`,
      });
    }
  }

  private activated(
    seq: number,
    actor: string,
    data: { turn: number; army: string; player: string; engaged: boolean },
    state: CampaignState,
  ): void {
    const turn = this.book.current;
    const work = this.book.activation!;
    const army = state.armies[data.army];
    const outOfTurn = (why: string, seqs: number[] = []) => {
      work.failures.push(VERDICTS.outOfTurn);
      this.book.report(turn ?? null, {
        verdict: VERDICTS.outOfTurn,
        army: data.army,
        player: data.player,
        seqs: [seq, ...seqs],
        detail: `${data.army} (${data.player}) was activated at seq ${seq} ${why}`,
      });
    };

    if (!turn || turn.ended || turn.actionEnded) {
      outOfTurn(
        turn?.actionEnded
          ? `after the Action phase of turn ${turn.turn} ended (seq ${turn.actionEnded.seq})`
          : "outside a turn's Action phase",
      );
      if (turn && !turn.activations.has(data.army)) turn.activations.set(data.army, work);
      return;
    }
    const before = turn.activations.get(data.army);
    if (before) {
      outOfTurn(`a second time this turn (first at seq ${before.seq}): each army is activated once a turn`, [
        before.seq,
      ]);
      before.failures.push(VERDICTS.outOfTurn);
      return;
    }
    turn.activations.set(data.army, work);

    if (data.turn !== turn.turn) return outOfTurn(`naming turn ${data.turn} during turn ${turn.turn}`);
    if (!army || army.player !== data.player)
      return outOfTurn(
        army ? `by ${data.player}, but it belongs to ${army.player}` : "but no such army is on the roster",
      );
    if (actor !== data.player) return outOfTurn(`by ${actor}, on behalf of its owner ${data.player}`);
    if (!turn.acting.has(data.army)) return outOfTurn(`but it was not on the map when turn ${turn.turn} began`);
    if (!turn.first) return outOfTurn("before the initiative winner chose who activates first");

    // Engaged-activation ruling: the defender of a battle started this turn gives its order out of sequence.
    const battle = turn.battles.find((b) => b.defender === data.army);
    if (battle) {
      work.engaged = true;
      return;
    }
    if (data.engaged) return outOfTurn("as an engaged defender, but no battle this turn was started against it");

    const remaining = new Map<string, number>();
    for (const [id, owner] of turn.acting)
      if (!turn.activations.has(id) || id === data.army) remaining.set(owner, (remaining.get(owner) ?? 0) + 1);
    const expected = alternate(this.book.players, turn.first.first, turn.lastActivator, remaining);
    if (expected !== data.player) {
      const why =
        turn.lastActivator === null
          ? `${turn.first.first} opens (chosen at seq ${turn.first.seq})`
          : `${turn.lastActivator} activated last and players alternate`;
      outOfTurn(`when it was ${expected ?? "nobody"}'s turn to activate: ${why}`, [turn.first.seq]);
    }
    // A forged activation still happened: the alternation goes on from it.
    turn.lastActivator = data.player;
  }
}

/** T3 with the run-out ruling, restated: first opens, then the other player, unless it has no army left to activate. */
function alternate(
  players: readonly string[],
  first: string,
  last: string | null,
  remaining: ReadonlyMap<string, number>,
): string | null {
  const left = (player: string) => (remaining.get(player) ?? 0) > 0;
  const candidate = last === null ? first : (players.find((p) => p !== last) ?? first);
  if (left(candidate)) return candidate;
  const other = players.find((p) => p !== candidate);
  return other !== undefined && left(other) ? other : null;
}
