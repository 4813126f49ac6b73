/*
 * `epicwar audit --as SEAT` against a server (docs/signatures.md, Checking what a seat was shown): the seat's view
 * chain recomputed from the log as served, compared with every receipt the seat kept; the first event that differs
 * named, with a proof a third party checks (tools/verify_log.py --proof); and every command sent without a receipt
 * that the log lacks listed, with its signature.
 */
import { canonicalJson } from "../crypto/commitments.js";
import type { Receipt } from "../crypto/receipts.js";
import type { ViewContext } from "../views/view.js";
import { ViewChain, type ViewEntry } from "../views/chain.js";
import { landed } from "./landed.js";
import { receiptTextOf, type KeptReceipts, type SentCommands } from "./receipts.js";
import type { SeatEvent } from "./remote.js";

/** The proof file's format: a receipt, the entries it signed, and the log's entries at the same seqs. */
export const PROOF_FORMAT = "epicwar-view-proof/1";

/** What a third party checks: the receipt by the server's key, its entries against it, and the log against them. */
export interface ViewProof {
  format: typeof PROOF_FORMAT;
  campaign: string;
  line: string;
  seat: string;
  serverKey: string;
  /** The receipt (a checkpoint) the server signed. */
  receipt: Receipt;
  /** The entries of the events its answer showed the seat, which chain from its `from` head to its `view`. */
  entries: ViewEntry[];
  /** The entries at the same seqs of the log as served now (absent where the log has no such event). */
  served: ViewEntry[];
  /** The first event that differs, and how. */
  differs: { seq: number; what: string };
}

export interface ViewAudit {
  /** Receipts of this line compared, and entries of their answers. */
  receipts: number;
  entries: number;
  /** The latest checkpoint of this line, as kept. */
  checkpoint: { seq: number; view: string } | undefined;
  /** The first event of the log as served that differs from what a receipt signed; undefined when none does. */
  differs: { seq: number; what: string } | undefined;
  proof: ViewProof | undefined;
  /** Commands sent without a receipt that the log as served lacks (withheld), and those it holds. */
  withheld: SentCommands[];
  landedUnreceipted: SentCommands[];
}

export interface ViewAuditInput {
  campaign: string;
  line: string;
  seat: string;
  sealed: ViewContext;
  kept: KeptReceipts;
  /** The line's events as the server serves them now to the seat, from seq 1. */
  served: readonly SeatEvent[];
}

export function auditView({ campaign, line, seat, sealed, kept, served }: ViewAuditInput): ViewAudit {
  const chain = new ViewChain(seat, sealed);
  const entries = new Map<number, ViewEntry>();
  const heads = new Map<number, string>([[0, chain.head]]);
  for (const event of served)
    for (const entry of chain.advance([event])) {
      entries.set(entry.seq, entry);
      heads.set(entry.seq, chain.head);
    }
  const audit: ViewAudit = {
    receipts: 0,
    entries: 0,
    checkpoint: undefined,
    differs: undefined,
    proof: undefined,
    withheld: [],
    landedUnreceipted: [],
  };
  let agreed = 0;
  for (const { receipt, entries: shown } of kept.receipts) {
    const text = receiptTextOf(receipt);
    if (text.line !== line) continue;
    audit.receipts++;
    audit.checkpoint = { seq: text.seq, view: text.view };
    let differs: ViewProof["differs"] | undefined;
    for (const entry of shown) {
      audit.entries++;
      const now = entries.get(entry.seq);
      if (!differs && (!now || canonicalJson(now) !== canonicalJson(entry)))
        differs = { seq: entry.seq, what: describeDifference(entry, now, text.seq) };
    }
    if (!differs && heads.get(text.seq) !== text.view) {
      // Only a head differs: an event among agreed+1..seq, and the one an earlier receipt named is among them.
      if (audit.differs) continue;
      differs = {
        seq: agreed + 1,
        what:
          chain.seq < text.seq
            ? `the log as served ends at seq ${chain.seq}, before seq ${text.seq}, which the server's receipt signed as shown to ${seat}`
            : `the view head at seq ${text.seq} is not the one the server signed: an event among seqs ${agreed + 1}-${text.seq} differs from what ${seat} was shown`,
      };
    }
    if (!differs) {
      agreed = text.seq;
      continue;
    }
    if (audit.differs && audit.differs.seq <= differs.seq) continue;
    audit.differs = differs;
    const seqs = shown.length > 0 ? shown.map((e) => e.seq) : range(agreed + 1, text.seq);
    audit.proof = {
      format: PROOF_FORMAT,
      campaign,
      line,
      seat,
      serverKey: kept.serverKey ?? "",
      receipt,
      entries: shown,
      served: seqs.flatMap((seq) => entries.get(seq) ?? []),
      differs,
    };
  }
  for (const sent of kept.unreceipted.filter((s) => s.line === line)) {
    const after = served.filter((event) => event.seq > sent.expectedSeq);
    (landed(sent.commands, after) ? audit.landedUnreceipted : audit.withheld).push(sent);
  }
  return audit;
}

/** The proof file's name where none is given: `CAMPAIGN-SEAT-proof.json`. */
export const proofFileName = (campaign: string, seat: string): string => `${campaign}-${seat}-proof.json`;

/** The proof file's text, as `epicwar audit --proof` writes it and the page downloads it. */
export const proofFileText = (proof: ViewProof): string => `${JSON.stringify(proof, null, 2)}\n`;

/** Commands sent as a seat lists them: each type with its signature, when and on which seq they were sent. */
export function describeSent(sent: SentCommands): string {
  const commands = sent.commands.map((command) => {
    const { type, signature } = command as { type?: unknown; signature?: { value?: unknown } };
    return `${String(type)} signed ${typeof signature?.value === "string" ? signature.value : "(unsigned)"}`;
  });
  return `${commands.join(", ")} sent at ${sent.sentAt} on seq ${sent.expectedSeq}`;
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** How the event of the log as served differs from the one the seat was shown: the members that differ. */
function describeDifference(shown: ViewEntry, now: ViewEntry | undefined, receiptSeq: number): string {
  const signed = `the server's receipt of seq ${receiptSeq}`;
  if (!now) return `the log as served has no event ${shown.seq}, which ${signed} showed (${shown.type})`;
  const members = (Object.keys(shown) as Array<keyof ViewEntry>).filter(
    (member) => canonicalJson(shown[member]) !== canonicalJson(now[member]),
  );
  const said = members.map(
    (m) => `${m} ${canonicalJson(now[m]).slice(0, 80)} where ${signed} showed ${canonicalJson(shown[m]).slice(0, 80)}`,
  );
  return `event ${shown.seq} (${shown.type}) as served has ${said.join("; ")}`;
}
