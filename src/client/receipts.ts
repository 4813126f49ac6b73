/*
 * A seat's side of receipts (docs/signatures.md, Receipts): the server's key pinned, every receipt checked and kept
 * with the entries of the events its answer showed, and every command sent that has no receipt yet. Kept with the
 * party's secrets; nothing here is secret, but all of it is the seat's evidence of what it sent and was shown.
 */
import { checkReceipt, ReceiptError, type Receipt, type ReceiptText, type TextVerifier } from "../crypto/receipts.js";
import type { ViewContext } from "../views/view.js";
import { ViewChain, type ViewEntry } from "../views/chain.js";
import type { SeatEvent } from "./seat-event.js";

/** Commands as sent, before their answer: the line, the seq they were decided on, and when. */
export interface SentCommands {
  line: string;
  expectedSeq: number;
  commands: unknown[];
  sentAt: string;
}

/** A receipt checked, with the entries of the seat's view chain its answer showed (none for a refusal). */
export interface KeptReceipt {
  receipt: Receipt;
  entries: ViewEntry[];
}

/** What a seat keeps of a campaign's receipts. */
export interface KeptReceipts {
  /** The server's key, pinned before the first command. */
  serverKey?: string;
  /** Every receipt, in the order they came: the last is the latest checkpoint. */
  receipts: KeptReceipt[];
  /** Commands sent whose answer, with its receipt, never came. */
  unreceipted: SentCommands[];
}

/** Where a seat keeps its receipts: a file beside its secrets (the CLI), or memory. */
export interface ReceiptBook {
  read(): Promise<KeptReceipts>;
  /** Changes what is kept, durably before it returns. */
  update(change: (kept: KeptReceipts) => void): Promise<void>;
}

export const noReceipts = (): KeptReceipts => ({ receipts: [], unreceipted: [] });

/** A ReceiptBook in memory: a library's default, and the tests'. */
export class MemoryReceiptBook implements ReceiptBook {
  private kept = noReceipts();
  read(): Promise<KeptReceipts> {
    return Promise.resolve(structuredClone(this.kept));
  }
  update(change: (kept: KeptReceipts) => void): Promise<void> {
    change(this.kept);
    return Promise.resolve();
  }
}

/** The latest signed checkpoint kept for a line: what its last receipt says. */
export function latestCheckpoint(kept: KeptReceipts, line: string): (ReceiptText & KeptReceipt) | undefined {
  for (let i = kept.receipts.length - 1; i >= 0; i--) {
    const text = receiptTextOf(kept.receipts[i]!.receipt);
    if (text.line === line) return { ...text, ...kept.receipts[i]! };
  }
  return undefined;
}

export const receiptTextOf = (receipt: Receipt): ReceiptText => JSON.parse(receipt.signed) as ReceiptText;

/** What a client expects of an answer's receipt. */
export interface AnswerToCheck {
  serverKey: string;
  campaign: string;
  line: string;
  seat: string;
  expectedSeq: number;
  /** The line's set-up, which the seat's view chain is judged with (sealedContext). */
  sealed: ViewContext;
  /** An accepted answer's seq and events; undefined for a refusal. */
  accepted?: { seq: number; events: readonly SeatEvent[] };
  /** How the receipt's signature is checked: Web Crypto's unless given. */
  verify?: TextVerifier;
}

/**
 * Checks an answer's receipt: signed by the pinned key, for this campaign, line and seat, saying what the answer
 * says; for an accepted answer, its events, as the seat's view chain takes them from the head the receipt gives at
 * `expectedSeq`, must reach the head it signed. What to keep of it, or a ReceiptError.
 */
export async function checkAnswer(receipt: unknown, answer: AnswerToCheck): Promise<KeptReceipt> {
  const { serverKey, campaign, line, seat, accepted } = answer;
  // An accepted command's actor is the token's seat; a refusal may be of a command in another seat's name.
  const text = await checkReceipt(
    serverKey,
    receipt,
    { campaign, line, accepted: accepted !== undefined, ...(accepted ? { seat, seq: accepted.seq } : {}) },
    answer.verify,
  );
  if (!accepted) return { receipt: receipt as Receipt, entries: [] };
  if (text.from?.seq !== answer.expectedSeq)
    throw new ReceiptError(`the receipt's view starts at seq ${text.from?.seq}, not at ${answer.expectedSeq}`);
  const chain = new ViewChain(seat, answer.sealed, text.from.seq, text.from.view);
  const entries = chain.advance(accepted.events);
  if (chain.seq !== text.seq || chain.head !== text.view)
    throw new ReceiptError(
      `the answer's events (to seq ${chain.seq}) do not reach the view head the receipt signed at seq ${text.seq}`,
    );
  return { receipt: receipt as Receipt, entries };
}
