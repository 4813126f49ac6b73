import type { DomainEvent, EventData } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import type { Command } from "../src/engine/command-schemas.js";
import { decide } from "../src/engine/decide.js";
import { canonicalJson } from "../src/crypto/commitments.js";
import { describeRefusal, type Refusal } from "../src/rules/refusal.js";
import { allocateBeforeDice } from "../src/rules/hit-allocation.js";
import type { AdvancedCheck, CheckedEvent } from "./audit-advanced.js";
import { DERIVED_VERDICTS, type Finding, type TurnAudit } from "./audit-report.js";

/**
 * What the rules derive, recomputed (S4, B5, B6, E1-E6, T5, A6-A8): a log rewritten and re-hashed whole verifies, so
 * the audit cannot take the log's word for anything the rules decide rather than a player. Every event that is a
 * consequence of another (captures, battles started, CVP awards, outcomes, routs, In Transit and Reserves, the End
 * phase's arrivals and income, the turn's totals, the winner and the turn it was won) is recomputed by replaying the
 * decision that wrote it: the command is rebuilt from the log's own event (the move, the reveal, the confirmation, the
 * host's end of the turn...), decided again with the same rules (`decide`) on the campaign as it stood, and what the
 * rules give is compared, event by event, with what the log holds. A derived event whose data differs, one the rules
 * give that the log lacks, one the log holds that the rules do not give, a decision the rules refuse, and any event
 * after the campaign finished (E2) are findings.
 *
 * Decisions whose events are all the player's own words (seeds, rolls, results reported, purchases) are not replayed
 * here; the other checks of the audit recompute those. Nothing here trusts the log's order of derived events beyond
 * what the rules give: the events of one decision follow one another, since a decision is appended at once.
 */

const V = DERIVED_VERDICTS;

/** Events only ever written as the consequence of another event of the same decision, never first. */
const CONSEQUENCES: ReadonlySet<string> = new Set([
  "ArmyMoved",
  "ObjectiveCaptured",
  "CityCaptured",
  "BattleStarted",
  "OrderViolated",
  "BattlePhaseEnded",
  "TransitArrived",
  "WarChestIncomeRecorded",
  "SupportExpended",
  "TitanDamageCarried",
  "ArmyRouted",
  "ArmyWithdrew",
  "ArmyOccupied",
  "CommanderKilled",
  "CommanderPromoted",
  "CommanderStoodDown",
  "CampaignFinished",
]);

/** Events written first by one command and as a consequence by another. */
const EITHER: ReadonlySet<string> = new Set([
  "OrderRevealed",
  "ActionPhaseEnded",
  "FormationReplaced",
  "CommanderAppointed",
  "DefencesBuilt",
  "TurnEnded",
]);

/** The rule that derives each event, named in findings about it. */
const RULE_OF: Record<string, string> = {
  ArmyActivated: "T3",
  ArmyMoved: "M1",
  BattleStarted: "M3",
  OrderRevealed: "T5",
  RevealRejected: "T5",
  ActionPhaseEnded: "T5",
  ActionDeadlineEnforced: "O2",
  StallClaimed: "T5",
  BattlePhaseEnded: "T1",
  TransitArrived: "E4",
  WarChestIncomeRecorded: "A8",
  BattleResolved: "S4",
  ArmyRouted: "B5",
  ArmyWithdrew: "B5",
  ArmyOccupied: "B5",
  SupportExpended: "A7",
  TitanDamageCarried: "A8",
  CommanderKilled: "A6",
  CommanderPromoted: "A6",
  CommanderStoodDown: "A6",
  CommanderAppointed: "A6",
  DefencesBuilt: "E3",
  TurnEnded: "E2",
  CampaignFinished: "E2",
  FormationsBrokenDown: "E5",
  ArmyDisbanded: "E5",
  ArmyRaised: "E6",
  FormationReinforced: "E6",
  FormationReplaced: "E6",
  FormationsTraded: "E6",
  ArmyRegistered: "S8",
  ArmyPurchased: "A8",
  ScoutingAnswered: "A3",
};

function ruleOf(event: DomainEvent): string | undefined {
  if (event.type === "CityCaptured") return event.data.how === "battle" ? "B6" : "A8";
  if (event.type === "ObjectiveCaptured") return event.data.how === "battle" ? "B6" : "E1";
  if (event.type === "OrderViolated") return event.data.rule;
  return RULE_OF[event.type];
}

interface Entry {
  event: CheckedEvent;
  /** The campaign as it stood before the event. */
  state: CampaignState;
}

type Kind = "mismatch" | "missing" | "unexpected" | "refused";

interface DerivedFinding {
  kind: Kind;
  finding: Omit<Finding, "turn">;
  turn: number | null;
}

/** The turn a finding belongs to: the turn under way or just ended, none during set-up. */
const turnOf = (state: CampaignState): number | null => (state.turnState ? state.turn : null);

/** The army and player an event is about, where its data names them. */
function about(event: DomainEvent): { army?: string; player?: string } {
  const data = event.data as { army?: unknown; player?: unknown };
  return {
    ...(typeof data.army === "string" ? { army: data.army } : {}),
    ...(typeof data.player === "string" ? { player: data.player } : {}),
  };
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);
const json = (value: unknown) => clip(value === undefined ? "nothing" : canonicalJson(value));

/** Where two JSON values differ: the paths of their first differing leaves (a few), with both values. */
function differences(logged: unknown, derived: unknown, path = "", out: string[] = []): string[] {
  if (out.length >= 4 || canonicalJson(logged ?? null) === canonicalJson(derived ?? null)) return out;
  const plain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (plain(logged) && plain(derived)) {
    for (const key of [...new Set([...Object.keys(logged), ...Object.keys(derived)])].sort()) {
      differences(logged[key], derived[key], path ? `${path}.${key}` : key, out);
    }
    return out;
  }
  out.push(`${path || "data"} ${json(logged)} where the rules give ${json(derived)}`);
  return out;
}

/** K2, K3: the host's command behind each kit roll that names only its battle. */
const KIT_ROLLS = {
  ScenarioRolled: "RollScenario",
  BattleConditionsRolled: "RollBattleConditions",
  GravityFluxRolled: "RollGravityFlux",
  WhiteOutRolled: "RollWhiteOut",
} as const;
const faces = (dice: ReadonlyArray<{ face: number }>) => dice.map((die) => die.face);

/** JSON as the log stores it: undefined fields left out. */
const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/**
 * The command a decision was made on, rebuilt from its first event (and, for a move, a break-down or the end of a
 * turn, the events of the same decision that carry the rest of it). Null for events not replayed here.
 */
function commandAt(chunk: readonly Entry[], i: number): { command: Command; primary: number[] } | null {
  const { event } = chunk[i]!;
  const { actor } = event;
  const one = (command: Command) => ({ command, primary: [event.seq] });
  switch (event.type) {
    case "ArmyActivated": {
      const next = chunk[i + 1]?.event;
      const moved = next?.type === "ArmyMoved" && next.data.army === event.data.army ? next : null;
      const command: Command = {
        type: "ActivateArmy",
        actor,
        army: event.data.army,
        commitment: event.data.commitment,
        path: moved?.data.path ?? [],
      };
      return { command, primary: moved ? [event.seq, moved.seq] : [event.seq] };
    }
    case "OrderRevealed":
    case "RevealRejected":
      return one({ type: "RevealOrder", actor, army: event.data.army, order: event.data.order, salt: event.data.salt });
    case "ScoutingAnswered":
      return one({
        type: "AnswerScouting",
        actor,
        scouting: event.data.scouting,
        ...(event.data.firstFire ? { firstFire: event.data.firstFire } : {}),
      });
    case "ActionDeadlineEnforced":
    case "ActionPhaseEnded":
      return one({ type: "CloseActionPhase", actor });
    case "StallClaimed":
      return one({ type: "ClaimStall", actor });
    case "BattleResolved": {
      const { battle, resolvedBy, dice, result } = event.data;
      return resolvedBy === "model"
        ? one({ type: "ResolveBattleByModel", actor, battle, dice: dice ?? [], result })
        : one({ type: "ConfirmBattleResult", actor, battle });
    }
    case "DefencesBuilt":
    case "TurnEnded": {
      // E3: the defences built at the end of a turn come before its TurnEnded, in the same decision.
      let j = i;
      while (chunk[j]?.event.type === "DefencesBuilt") j++;
      const ended = chunk[j]?.event;
      if (ended?.type !== "TurnEnded") return null;
      return { command: { type: "EndTurn", actor: ended.actor, hostSeed: ended.data.hostSeed }, primary: [ended.seq] };
    }
    case "FormationsBrokenDown": {
      const next = chunk[i + 1]?.event;
      const replaced =
        next?.type === "FormationReplaced" &&
        next.data.army === event.data.army &&
        event.data.formations.includes(next.data.replaced)
          ? next
          : null;
      const replacement = replaced
        ? { replacement: { id: replaced.data.formation.id, formation: replaced.data.formation.formation } }
        : {};
      const command: Command = {
        type: "BreakDown",
        actor,
        army: event.data.army,
        formations: event.data.formations,
        ...replacement,
      };
      return { command, primary: replaced ? [event.seq, replaced.seq] : [event.seq] };
    }
    case "ArmyDisbanded":
      return one({ type: "DisbandArmy", actor, army: event.data.army });
    case "ArmyRaised":
    case "ArmyPurchased": {
      // Raised from the Reserves or bought from the war chest (A8), a new army is given by the same fields.
      const { army, name, formations, commander, at } = event.data;
      return one({
        type: event.type === "ArmyRaised" ? "RaiseArmy" : "BuyArmy",
        actor,
        army,
        name,
        formations: formations.map(({ id, formation }) => ({ id, formation })),
        commander,
        at,
      });
    }
    case "ArmyRegistered": {
      const { army, name, formations, commander } = event.data;
      return one({
        type: "RegisterArmy",
        actor,
        army,
        name,
        formations: formations.map(({ id, formation }) => ({ id, formation })),
        commander,
      });
    }
    case "FormationReinforced":
      return one({ type: "ReinforceFormation", actor, army: event.data.army, formation: event.data.formation });
    case "FormationReplaced": {
      const { army, replaced, formation } = event.data;
      return one({
        type: "ReplaceFormation",
        actor,
        army,
        formation: replaced,
        with: { id: formation.id, formation: formation.formation },
      });
    }
    case "FormationsTraded":
      return one({ type: "TradeFormations", actor, tradeIn: event.data.tradedIn, buy: event.data.bought });
    case "CommanderAppointed":
      return one({ type: "AppointCommander", actor, army: event.data.army, commander: event.data.commander });
    // K2, K3, K5: every kit decision and roll, decided again from the players' words and the host's dice.
    case "ScenarioProposed":
    case "ScenarioChosen": {
      const { battle, scenario, target } = event.data;
      const type = event.type === "ScenarioProposed" ? "ProposeScenario" : "ChooseScenario";
      return one({ type, actor, battle, scenario, ...(target && { target }) });
    }
    case "ScenarioAnswered":
      return one({ type: "AnswerScenario", actor, battle: event.data.battle, accept: event.data.accepted });
    case "EnclosedAgreed":
      return one({ type: "AgreeEnclosed", actor, battle: event.data.battle });
    case "BattleTurnEnded":
      return one({ type: "EndBattleTurn", actor, battle: event.data.battle, battleTurn: event.data.battleTurn });
    case "HitsAllocated": {
      const { battle, volley, units, hits } = event.data;
      return one({ type: "AllocateHits", actor, battle, volley, units, hits });
    }
    case "BarrageCalled": {
      const { battle, barrage, barragePoints, models } = event.data;
      return one({ type: "CallBarrage", actor, battle, barrage, barragePoints, models });
    }
    case "ScenarioRolled":
    case "BattleConditionsRolled":
    case "GravityFluxRolled":
    case "WhiteOutRolled":
      return one({ type: KIT_ROLLS[event.type], actor, battle: event.data.battle, dice: faces(event.data.dice) });
    case "SavesRolled":
      return one({
        type: "RollSaves",
        actor,
        battle: event.data.battle,
        volley: event.data.volley,
        dice: faces(event.data.dice),
      });
    case "BarrageRolled":
      return one({
        type: "RollBarrage",
        actor,
        battle: event.data.battle,
        barrage: event.data.barrage,
        dice: faces(event.data.dice),
      });
    default:
      return null;
  }
}

/**
 * What the rules derive as the event's version wrote it: a version 1 volley (HitsAllocated with an `allocation`)
 * was allocated whole before its dice, which the rules derive again that way; a version 1 scouting event made an
 * order public that its owner then revealed separately (`separateReveal`), as it was played.
 */
function asWritten(logged: CheckedEvent, derived: DomainEvent): DomainEvent {
  if (logged.type === "HitsAllocated" && derived.type === "HitsAllocated") {
    if ((logged.data as EventData<"HitsAllocated">).allocation === undefined) return derived;
    const { units, hits } = derived.data;
    return { ...derived, data: { ...derived.data, allocation: allocateBeforeDice(units, hits) } };
  }
  if (
    (derived.type === "ScoutingDeclared" || derived.type === "ScoutingAnswered") &&
    logged.type === derived.type &&
    (logged.data as { separateReveal?: true }).separateReveal
  )
    return { ...derived, data: { ...derived.data, separateReveal: true } } as DomainEvent;
  return derived;
}

const describeCommand = (command: Command) => `${command.type} by ${command.actor}`;

/**
 * The derived-events check: it keeps each event with the campaign before it until the next event that can only
 * open a decision, then replays the decisions of that stretch. `file` adds its findings to the report's, leaving out
 * those another check already made about the same event.
 */
export class DerivedAudit implements AdvancedCheck {
  private chunk: Entry[] = [];
  private readonly found: DerivedFinding[] = [];
  private finished: { seq: number; turn: number; winner: string | null } | null = null;
  private trailing: { first: CheckedEvent; count: number; turn: number | null } | null = null;

  before(event: CheckedEvent, state: CampaignState): void {
    if (state.status === "finished" && this.finished) {
      // E2: a finished campaign accepts no more commands, so the rules derive nothing after it either.
      if (this.trailing) this.trailing.count++;
      else this.trailing = { first: event, count: 1, turn: turnOf(state) };
      return;
    }
    if (event.type === "CampaignFinished" && state.status !== "finished")
      this.finished = { seq: event.seq, turn: event.data.turn, winner: event.data.winner };
    if (!CONSEQUENCES.has(event.type) && !EITHER.has(event.type)) this.flush();
    this.chunk.push({ event, state });
  }

  /** The findings, filed into the report's turns and campaign-wide findings; call once every event has been seen. */
  file(turns: readonly TurnAudit[], loose: Finding[]): void {
    this.flush();
    const others = [...loose, ...turns.flatMap((t) => t.findings)];
    const byTurn = new Map(turns.map((t) => [t.turn, t]));
    const findings: Finding[] = this.found
      .filter((f) => !alreadyFound(f, others))
      .map((f) => ({ ...f.finding, turn: f.turn !== null && byTurn.has(f.turn) ? f.turn : null }));
    if (this.trailing && this.finished) {
      const { first, count, turn } = this.trailing;
      const won = this.finished.winner === null ? "a draw" : `won by ${this.finished.winner}`;
      findings.push({
        verdict: V.afterFinish,
        rule: "E2",
        turn: turn !== null && byTurn.has(turn) ? turn : null,
        seqs: [first.seq, this.finished.seq],
        detail:
          `the campaign finished in turn ${this.finished.turn} (CampaignFinished seq ${this.finished.seq}, ${won}), yet ${count === 1 ? "an event follows" : `${count} events follow`} it, ` +
          `from ${first.type} seq ${first.seq}: a finished campaign accepts no more commands`,
      });
    }
    const bySeq = (a: Finding, b: Finding) => (a.seqs[0] ?? 0) - (b.seqs[0] ?? 0);
    for (const finding of findings) (finding.turn === null ? loose : byTurn.get(finding.turn)!.findings).push(finding);
    for (const turn of turns) turn.findings.sort(bySeq);
    loose.sort(bySeq);
  }

  private flush(): void {
    const chunk = this.chunk;
    this.chunk = [];
    for (let i = 0; i < chunk.length;) i = this.decision(chunk, i);
  }

  private report(kind: Kind, state: CampaignState, finding: Omit<Finding, "turn">): void {
    this.found.push({ kind, finding, turn: turnOf(state) });
  }

  /** Replays the decision that opens at chunk[i]; returns where the next one opens. */
  private decision(chunk: readonly Entry[], i: number): number {
    const { event, state } = chunk[i]!;
    const rebuilt = commandAt(chunk, i);
    if (!rebuilt) {
      if (CONSEQUENCES.has(event.type) || event.type === "DefencesBuilt") {
        this.report("unexpected", state, {
          verdict: V.derivedUnexpected,
          rule: ruleOf(event),
          ...about(event),
          seqs: [event.seq],
          detail: `${event.type} (seq ${event.seq}) is written by the rules only as a consequence of another event, and none before it derives it`,
        });
      }
      return i + 1;
    }
    let decision: ReturnType<typeof decide>;
    try {
      // At the event's own recorded time: a close at the Action phase's deadline (O2) is judged by it.
      decision = decide(state, rebuilt.command, event.at);
    } catch (error) {
      decision = {
        ok: false,
        refusal: {
          kind: "field",
          field: "type",
          message: `it cannot be decided on the campaign as it stood: ${(error as Error).message}`,
        },
      };
    }
    if (!decision.ok) {
      this.refused(event, state, rebuilt, decision.refusal);
      // What the refused decision wrote cannot be derived: its consequences are passed over with it.
      let next = i + 1;
      while (chunk[next] && CONSEQUENCES.has(chunk[next]!.event.type)) next++;
      return next;
    }
    return this.compare(
      chunk,
      i,
      rebuilt.command,
      decision.events.map((derived) => asWritten(event, derived)),
    );
  }

  private refused(
    event: CheckedEvent,
    state: CampaignState,
    rebuilt: { command: Command; primary: number[] },
    refusal: Refusal,
  ): void {
    this.report("refused", state, {
      verdict: V.derivedRefused,
      ...(refusal.kind === "rule" ? { rule: refusal.rule } : {}),
      ...about(event),
      seqs: rebuilt.primary,
      detail: `${event.type} (seq ${rebuilt.primary.join(", ")}) records ${describeCommand(rebuilt.command)}, which the rules refuse on the campaign as it stood: ${describeRefusal(refusal)}`,
    });
  }

  /** Lines up what the rules give with the log from chunk[i] on; returns the index after the decision's last event. */
  private compare(chunk: readonly Entry[], i: number, command: Command, derived: readonly DomainEvent[]): number {
    const opener = chunk[i]!;
    const cause = `${opener.event.type} seq ${opener.event.seq} (${describeCommand(command)})`;
    let k = i;
    for (let j = 0; j < derived.length;) {
      const expected = derived[j]!;
      const entry = chunk[k];
      const logged = entry?.event;
      if (logged && logged.type === expected.type) {
        if (!same(logged.data, expected.data)) {
          this.report("mismatch", entry.state, {
            verdict: V.derivedMismatch,
            rule: ruleOf(expected),
            ...about(logged),
            seqs: logged.seq === opener.event.seq ? [logged.seq] : [logged.seq, opener.event.seq],
            detail:
              `${logged.type} (seq ${logged.seq}) records ${differences(logged.data, expected.data).join("; ")}: ` +
              (logged.seq === opener.event.seq
                ? `${describeCommand(command)} decided again on the campaign as it stood`
                : `derived from ${cause} on the campaign as it stood`),
          });
        }
        j++;
        k++;
      } else if (logged && k === i && !derived.some((e) => e.type === logged.type)) {
        // The command gives another event than the one the log records for it (a reveal that does not match, say).
        this.report("mismatch", entry.state, {
          verdict: V.derivedMismatch,
          rule: ruleOf(expected),
          ...about(logged),
          seqs: [logged.seq],
          detail: `${logged.type} (seq ${logged.seq}) is recorded for ${describeCommand(command)}, but on the campaign as it stood the rules give ${expected.type} ${json(expected.data)}`,
        });
        j++;
        k++;
      } else if (
        logged &&
        k > i &&
        CONSEQUENCES.has(logged.type) &&
        !derived.slice(j + 1).some((e) => e.type === logged.type)
      ) {
        this.unexpected(entry, cause, opener.event.seq);
        k++;
      } else {
        this.report("missing", opener.state, {
          verdict: V.derivedMissing,
          rule: ruleOf(expected),
          ...about(expected),
          seqs: [opener.event.seq],
          detail: `the rules derive ${expected.type} ${json(expected.data)} from ${cause}, but the log has no such event${logged ? ` (seq ${logged.seq} is ${logged.type})` : ""}`,
        });
        j++;
      }
    }
    // Consequences the rules did not give, written after the decision's own events.
    while (chunk[k] && CONSEQUENCES.has(chunk[k]!.event.type)) this.unexpected(chunk[k++]!, cause, opener.event.seq);
    return Math.max(k, i + 1);
  }

  private unexpected(entry: Entry, cause: string, causeSeq: number): void {
    const { event, state } = entry;
    this.report("unexpected", state, {
      verdict: V.derivedUnexpected,
      rule: ruleOf(event),
      ...about(event),
      seqs: [event.seq, causeSeq],
      detail: `${event.type} (seq ${event.seq}) ${json(event.data)} follows ${cause}, but the rules derive no such event from it`,
    });
  }
}

/**
 * Whether another check already reported the event: a refusal is left out when any finding names one of its events,
 * a derived event that does not recompute or should not be there when a finding is about that same event, and a
 * missing one when a finding of the same rule names its cause (A6, A7 and A8 report their own missing events).
 */
function alreadyFound(found: DerivedFinding, others: readonly Finding[]): boolean {
  const { seqs, rule } = found.finding;
  const main = seqs[0];
  switch (found.kind) {
    case "refused":
      return others.some((other) => other.seqs.some((seq) => seqs.includes(seq)));
    case "missing":
      return others.some((other) => other.seqs[0] === main && other.rule === rule);
    default:
      return others.some((other) => other.seqs[0] === main);
  }
}
