/**
 * What-if branches of a campaign: names, creation (with the secrets a fork in the middle of a turn needs), listing.
 *
 * A branch is a stream of the same folder that starts with its parent's prefix (src/log/store.ts createBranch):
 * creating one copies no event. Its stream id is "<campaign>.<name>"; the campaign's own line is called "main".
 * Branch names are unique within a campaign, whichever line they fork from.
 */
import type { CampaignState } from "../projections/state.js";
import { turnToStart, turnUnderWay as isTurnUnderWay } from "../projections/turns.js";
import { ID_PATTERN } from "../events/common.js";
import type { StoredEvent } from "../events/index.js";
import type { SecretKeeper } from "../src/client/secrets.js";
import { orderCommitment, seedCommitment } from "../src/crypto/commitments.js";
import { BranchError, type BranchMeta, type EventStore } from "../src/log/index.js";
import { placeLabel, type Place, type Position } from "./positions.js";
import type { Replays } from "./replayer.js";

/** The name of a campaign's own line. */
export const MAIN = "main";

const BRANCH_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
const STREAM_ID = new RegExp(ID_PATTERN);

/** The stream id of a campaign's branch: "<campaign>.<name>". Refuses names that are not short ids without dots, and "main". */
export function branchStream(campaign: string, name: string): string {
  if (name === MAIN) throw new BranchError(`"${MAIN}" is the campaign's own line; choose another name for a branch`);
  if (!BRANCH_NAME.test(name))
    throw new BranchError(
      `a branch name is 1 to 32 letters, digits, _ or -, starting with a letter or digit: not "${name}"`,
    );
  const stream = `${campaign}.${name}`;
  if (!STREAM_ID.test(stream))
    throw new BranchError(
      `"${name}" is too long for a branch of ${campaign}: "${stream}" must be at most 64 characters`,
    );
  return stream;
}

/** The stream a line name of a campaign reads: the campaign itself for "main", else one of its branches. */
export async function lineStream(store: EventStore, campaign: string, name: string): Promise<string> {
  if (name === MAIN || name === campaign) return campaign;
  const stream = name.startsWith(`${campaign}.`) ? name : branchStream(campaign, name);
  const meta = await store.branch(stream);
  if (!meta || meta.root !== campaign) {
    const names = (await store.branches()).filter((b) => b.root === campaign).map((b) => b.name);
    throw new BranchError(
      `${campaign} has no branch "${name}" (${names.length ? `its branches: ${names.join(", ")}` : "it has no branches"}; its own line is "${MAIN}")`,
    );
  }
  return stream;
}

/** The name of a line: "main" for a campaign, the branch's name for a branch. */
export function lineName(meta: BranchMeta | undefined): string {
  return meta ? meta.name : MAIN;
}

export interface CreatedBranch {
  meta: BranchMeta;
  /** What was copied into the branch's secrets: the host seed and the hidden orders of the turn under way at the fork. */
  copied: string[];
}

/**
 * Makes branch `name` of `campaign`, forking `parent` (a campaign or one of its branches) at a position. With
 * `secrets`, a fork in the middle of a turn carries that turn's secrets over: the branch inherits the turn's host-seed
 * commitment and the orders already committed, so the host seed and those orders are copied from the parent's secrets
 * into the branch's, each only if it matches its commitment in the log. Nothing else of the parent's secrets is copied:
 * later turns of the branch get their own seeds and orders.
 */
export async function createBranch(
  store: EventStore,
  replays: Replays,
  options: {
    campaign: string;
    parent: string;
    from: Position;
    name: string;
    secrets?: { parent: SecretKeeper; branch: SecretKeeper };
  },
): Promise<CreatedBranch> {
  const stream = branchStream(options.campaign, options.name);
  const forkSeq = await replays.resolve(options.parent, options.from);
  if (forkSeq === 0) throw new BranchError("a branch forks after an event of its parent, at seq 1 or later");
  const meta = await store.createBranch(stream, options.parent, forkSeq, { name: options.name });
  const copied = options.secrets
    ? [
        ...(await copySeatKeys(
          (await replays.stateAtSeq(stream, forkSeq)).state,
          options.secrets.parent,
          options.secrets.branch,
        )),
        ...(await copyTurnSecrets(
          store,
          replays,
          options.campaign,
          stream,
          forkSeq,
          options.secrets.parent,
          options.secrets.branch,
        )),
      ]
    : [];
  return { meta, copied };
}

/** D2: a branch's line inherits its parent's keys in force, so each party held here signs on the branch as before. */
async function copySeatKeys(atFork: CampaignState, from: SecretKeeper, to: SecretKeeper): Promise<string[]> {
  const copied: string[] = [];
  for (const [party, { publicKey }] of Object.entries(atFork.seatKeys ?? {})) {
    const key = await from.seatKey(party);
    if (key?.publicKey !== publicKey) continue;
    await to.keepSeatKey(party, key);
    copied.push(`${party}'s seat key`);
  }
  return copied;
}

/** Copies the host seed and the unrevealed orders of the turn under way at `forkSeq` (if any) between secret keepers. */
async function copyTurnSecrets(
  store: EventStore,
  replays: Replays,
  campaign: string,
  stream: string,
  forkSeq: number,
  from: SecretKeeper,
  to: SecretKeeper,
): Promise<string[]> {
  const copied = await copySeedSecrets(replays, stream, forkSeq, from, to);
  const turn = await turnUnderWay(store, replays, stream, forkSeq);
  if (!turn) return copied;
  const hostSeed = await from.hostSeed(turn.turn);
  if (hostSeed !== undefined && seedCommitment(hostSeed) === turn.hostSeedHash) {
    await to.keepHostSeed(turn.turn, hostSeed);
    copied.push(`the host's dice seed for turn ${turn.turn}`);
  }
  for (const { army, player, commitment } of turn.hidden) {
    const held = await from.order(player, turn.turn, army);
    if (held && orderCommitment({ campaign, turn: turn.turn, army, ...held }) === commitment) {
      await to.keepOrder(player, turn.turn, army, held);
      copied.push(`${player}'s hidden order for ${army}`);
    }
  }
  return copied;
}

/** The players' dice seeds committed to at `forkSeq` and not yet given: those of the turn under way, or of the next. */
async function copySeedSecrets(
  replays: Replays,
  stream: string,
  forkSeq: number,
  from: SecretKeeper,
  to: SecretKeeper,
): Promise<string[]> {
  const { state } = await replays.stateAtSeq(stream, forkSeq);
  const turn = state.turnState;
  const underWay = isTurnUnderWay(state);
  const owed =
    underWay && turn
      ? Object.entries(turn.playerSeedHashes).filter(([player]) => turn.playerSeeds[player] === undefined)
      : Object.entries(state.seedCommitments);
  const seedTurn = underWay ? state.turn : turnToStart(state);
  const copied: string[] = [];
  for (const [player, seedHash] of owed) {
    const seed = await from.playerSeed(player, seedTurn);
    if (seed !== undefined && seedCommitment(seed) === seedHash) {
      await to.keepPlayerSeed(player, seedTurn, seed);
      copied.push(`${player}'s dice seed for turn ${seedTurn}`);
    }
  }
  return copied;
}

/** The turn begun and not ended at `seq`: its host-seed commitment and the orders committed and not yet revealed. */
async function turnUnderWay(store: EventStore, replays: Replays, stream: string, seq: number) {
  const started = await replays.lastTurnStart(stream, seq);
  if (started === undefined) return undefined;
  const events: StoredEvent[] = await store.readAll(stream, started, seq);
  const first = events[0];
  if (first?.type !== "TurnStarted" || events.some((e) => e.type === "TurnEnded")) return undefined;
  const data = first.data as { turn: number; hostSeedHash: string };
  const hidden = new Map<string, { army: string; player: string; commitment: string }>();
  for (const event of events) {
    const d = event.data as { army: string; player: string; commitment: string };
    if (event.type === "ArmyActivated")
      hidden.set(d.army, { army: d.army, player: d.player, commitment: d.commitment });
    if (event.type === "OrderRevealed") hidden.delete(d.army);
  }
  return { turn: data.turn, hostSeedHash: data.hostSeedHash, hidden: [...hidden.values()] };
}

export interface BranchInfo {
  name: string;
  stream: string;
  /** The parent's line name ("main" for the campaign itself). */
  parent: string;
  forkSeq: number;
  forkHash: string;
  /** Where the fork is: the turn and phase of the state at the fork seq. */
  forkPlace: string;
  /** The branch's last seq, and how many of its events are its own. */
  head: number;
  own: number;
  created: string;
}

/** The branches of a campaign, oldest fork first, with where they fork and how far they have gone. */
export async function listBranches(store: EventStore, replays: Replays, campaign: string): Promise<BranchInfo[]> {
  const metas = (await store.branches()).filter((meta) => meta.root === campaign);
  const byStream = new Map(metas.map((meta) => [meta.stream, meta]));
  const infos: BranchInfo[] = [];
  for (const meta of metas) {
    const head = (await store.head(meta.stream)).seq;
    const { state } = await replays.stateAtSeq(meta.parent, meta.forkSeq);
    const place: Place =
      state.phase === "setup" ? { turn: 0, phase: "setup" } : { turn: state.turn, phase: state.phase };
    infos.push({
      name: meta.name,
      stream: meta.stream,
      parent: lineName(byStream.get(meta.parent)),
      forkSeq: meta.forkSeq,
      forkHash: meta.forkHash,
      forkPlace: placeLabel(place),
      head,
      own: head - meta.forkSeq,
      created: meta.created,
    });
  }
  return infos.sort((a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name));
}
