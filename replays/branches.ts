/**
 * What-if branches of a campaign: names, creation (a new line of play: no secret of its parent reaches it), listing.
 *
 * A branch is a stream of the same folder that starts with its parent's prefix (src/log/store.ts createBranch):
 * creating one copies no event. Its stream id is "<campaign>.<name>"; the campaign's own line is called "main".
 * Branch names are unique within a campaign, whichever line they fork from.
 */
import type { CampaignState } from "../projections/state.js";
import { HOST, ID_PATTERN } from "../events/common.js";
import type { EventOf } from "../events/index.js";
import type { SecretKeeper } from "../src/client/secrets.js";
import { Table } from "../src/client/table.js";
import type { CommandHandler } from "../src/engine/engine.js";
import { openAtFork } from "../src/rules/line-fork.js";
import { describeRefusal } from "../src/rules/refusal.js";
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
  /** What was copied into the branch's secrets: the parties' seat keys in force, nothing else. */
  copied: string[];
  /** The branch's first event when the fork voided commitments open at it (LineForked), else undefined. */
  forked?: EventOf<"LineForked">;
}

/** What createBranch writes to: the store, and the command handler the host's ForkLine is taken by. */
export type BranchEngine = CommandHandler & { readonly store: EventStore };

/**
 * Makes branch `name` of `campaign`, forking `parent` (a campaign or one of its branches) at a position. No secret of
 * the parent line reaches the branch (docs/replays.md): with `secrets`, only the parties' seat keys in force are
 * copied into the branch's secrets, so that each party signs there as before (D2). Where a commitment is open at the
 * fork (a turn under way, seeds committed for the next, hidden orders), the host's ForkLine is the branch's first
 * event: it names what is void there, to be made afresh on the branch (D1, T5). Such a fork needs the host's secrets,
 * which sign it.
 */
export async function createBranch(
  engine: BranchEngine,
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
  const atFork = (await replays.stateAtSeq(options.parent, forkSeq)).state;
  const open = openAtFork(atFork);
  if (open && !options.secrets)
    throw new BranchError(
      `the fork at seq ${forkSeq} falls where commitments are open (turn ${open.data.turn}): the branch's first event voids them, signed by the host, so the host's secrets are needed`,
    );
  const meta = await engine.store.createBranch(stream, options.parent, forkSeq, { name: options.name });
  if (!options.secrets) return { meta, copied: [] };
  const copied = await copySeatKeys(atFork, options.secrets.parent, options.secrets.branch);
  if (!open) return { meta, copied };
  const host = new Table(engine, stream, {
    parties: new Set([HOST]),
    secrets: options.secrets.branch,
    chores: false,
  });
  const outcome = await host.submit({ actor: HOST, type: "ForkLine" });
  if (!outcome.ok) throw new BranchError(`the branch's ForkLine was refused: ${describeRefusal(outcome.refusal)}`);
  return { meta, copied, forked: open };
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
