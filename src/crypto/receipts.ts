/*
 * Receipts (docs/signatures.md): the server's signature over what it accepted or refused of a seat's commands and
 * over the head of that seat's view chain. Made by the server, checked by every client, the same code in Node and in
 * a browser page.
 */
import { canonicalJson } from "./commitments.js";
import { verifyText } from "./signatures.js";

/** Domain separation: these bytes are a receipt's and nothing else's. */
export const RECEIPT_DOMAIN = "epicwar-receipt/1";

/** What a receipt says, as signed. */
export interface ReceiptText {
  domain: typeof RECEIPT_DOMAIN;
  campaign: string;
  /** The stream the commands went to: the campaign's own, or a branch's. */
  line: string;
  /** The seat whose token sent the commands. */
  seat: string;
  /** The line's seq when the answer was given: the last event written, or the head a refusal left as it was. */
  seq: number;
  /** The head of the seat's view chain at `seq` (src/views/chain.ts). */
  view: string;
  /** For accepted commands, the seq they were decided on and the seat's view head there; null for a refusal. */
  from: { seq: number; view: string } | null;
  /** The seqs of the events the commands wrote (the host's steps after them are not the seat's), or null. */
  accepted: { from: number; to: number } | null;
  /** The commands as sent and why they were refused (the error code and message of the answer), or null. */
  refused: { commands: unknown[]; error: string; message: string } | null;
}

/** A receipt as an answer carries it: the exact text signed, and the server's signature over its UTF-8 bytes. */
export interface Receipt {
  signed: string;
  signature: string;
}

/** The checkpoint a client keeps: the latest receipt it checked, with what it says. */
export interface Checkpoint extends Receipt {
  seq: number;
  view: string;
}

/** The text of a receipt: RFC 8785 canonical JSON of what it says. */
export const receiptText = (text: Omit<ReceiptText, "domain">): string =>
  canonicalJson({ ...text, domain: RECEIPT_DOMAIN });

/** A receipt that is not the server's, or not for what was sent: the client keeps the commands as unreceipted. */
/**
 * Whether `signature` is `publicKey`'s over a text (all as hex but the text): Web Crypto's verifyText wherever it
 * runs, node:crypto's synchronous verifySignature (src/crypto/verify-node.ts) for a client on Node, a thread hop less.
 */
export type TextVerifier = (publicKey: string, text: string, signature: string) => boolean | Promise<boolean>;

export class ReceiptError extends Error {
  override readonly name = "ReceiptError";
}

/** What the client expects a receipt to say: the campaign, line and seat it sent from, and whether it was accepted. */
export interface ExpectedReceipt {
  campaign: string;
  line: string;
  /** The seat that sent them, where the client knows it. */
  seat?: string;
  accepted: boolean;
  /** The seq of the answer's last event (an accepted command). */
  seq?: number;
}

/**
 * Checks a receipt against the server's key the client pinned and against what the client sent: what it says, or a
 * ReceiptError naming what is wrong.
 */
export async function checkReceipt(
  serverKey: string,
  receipt: unknown,
  expected: ExpectedReceipt,
  verify: TextVerifier = verifyText,
): Promise<ReceiptText> {
  const given = receipt as Partial<Receipt> | undefined;
  if (typeof given?.signed !== "string" || typeof given.signature !== "string")
    throw new ReceiptError("the answer carries no receipt (docs/server.md): the server signed nothing");
  if (!(await verify(serverKey, given.signed, given.signature)))
    throw new ReceiptError(`the receipt is not signed by the server's key ${serverKey.slice(0, 12)}`);
  let text: ReceiptText;
  try {
    text = JSON.parse(given.signed) as ReceiptText;
  } catch {
    throw new ReceiptError("the receipt's signed text is not JSON");
  }
  const says = (member: keyof ExpectedReceipt, value: unknown) => {
    if (text[member as keyof ReceiptText] !== value)
      throw new ReceiptError(
        `the receipt's ${member} is ${String(text[member as keyof ReceiptText])}, not ${String(value)}`,
      );
  };
  if (text.domain !== RECEIPT_DOMAIN) throw new ReceiptError(`the receipt's domain is not ${RECEIPT_DOMAIN}`);
  says("campaign", expected.campaign);
  says("line", expected.line);
  if (expected.seat !== undefined) says("seat", expected.seat);
  if (expected.seq !== undefined) says("seq", expected.seq);
  if (expected.accepted !== (text.accepted !== null) || (text.accepted === null) === (text.refused === null))
    throw new ReceiptError(`the receipt says ${text.accepted ? "accepted" : "refused"}, not what the answer says`);
  if (typeof text.seq !== "number" || !/^[0-9a-f]{64}$/.test(String(text.view)))
    throw new ReceiptError("the receipt names no seq and view head");
  return text;
}
