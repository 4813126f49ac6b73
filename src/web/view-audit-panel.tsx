import { useState } from "preact/hooks";
import { auditView, describeSent, proofFileName, proofFileText, type ViewAudit } from "../client/view-audit.js";
import { sealedContext } from "../views/chain.js";
import { problemWords } from "./connection.js";
import { downloadFile } from "./download.js";
import type { Game } from "./game.js";

/**
 * The seat's audit of what it was shown (docs/signatures.md): its view chain recomputed from the log as the server
 * serves it now and compared with the receipts this browser kept (src/client/view-audit.ts, as `epicwar audit --as`
 * does); on a difference the first event that differs, linked, and the proof file to download; and every command sent
 * with no receipt, with its signature.
 */
export function ViewAuditPanel({ game, onSeq }: { game: Game; onSeq: (seq: number) => void }) {
  const [audit, setAudit] = useState<ViewAudit | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  /** Checks made so far: each one's verdict is new, even when its words are the last one's. */
  const [checks, setChecks] = useState(0);
  const { campaign, seat } = game.seat;

  const check = async () => {
    setChecking(true);
    try {
      const view = game.view.value ?? (await game.remote.stateAt(campaign, {}));
      const [kept, { events }] = await Promise.all([game.remote.receipts.read(), game.remote.log(campaign)]);
      setAudit(auditView({ campaign, line: game.line, seat, sealed: sealedContext(view), kept, served: events }));
      setProblem(null);
    } catch (error) {
      setProblem(`The check could not be made: ${problemWords(error)}`);
    } finally {
      setChecking(false);
      setChecks((made) => made + 1);
    }
  };

  return (
    <section class="view-audit" data-testid="view-audit" data-checks={checks}>
      <h2>What you were shown</h2>
      <p>
        Every answer to a command you give carries the server&#39;s signed receipt of what you had been shown; this
        browser keeps them. Check the log as the server serves it now against them: an event rewritten since, or one
        dropped or added, is named, with a proof anyone can check (<code>python3 tools/verify_log.py --proof FILE</code>
        ).
      </p>
      <button data-testid="check-view" disabled={checking} onClick={() => void check()}>
        Check the log against your receipts
      </button>
      {problem && <p role="alert">{problem}</p>}
      {audit && <ViewAuditResult audit={audit} onSeq={onSeq} proofName={proofFileName(campaign, seat)} />}
    </section>
  );
}

function ViewAuditResult({
  audit,
  onSeq,
  proofName,
}: {
  audit: ViewAudit;
  onSeq: (seq: number) => void;
  proofName: string;
}) {
  const { differs, proof, checkpoint } = audit;
  return (
    <>
      <p data-testid="view-audit-verdict" role="status">
        {differs ? (
          <>
            The log as served differs from what the server signed as shown to you, first at event{" "}
            <a href={`#seq-${differs.seq}`} onClick={(event) => (event.preventDefault(), onSeq(differs.seq))}>
              #{differs.seq}
            </a>
            : {differs.what}.
          </>
        ) : checkpoint ? (
          `The log as served holds what you were shown: ${audit.receipts} receipts checked (${audit.entries} events they showed), latest checkpoint at event #${checkpoint.seq}, view ${checkpoint.view.slice(0, 16)}.`
        ) : (
          "No receipt is kept in this browser yet: the first comes with the answer to your first command."
        )}
      </p>
      {proof && (
        <p>
          <button data-testid="download-proof" onClick={() => downloadFile(proofName, proofFileText(proof))}>
            Download the proof file
          </button>{" "}
          ({proofName}: the server&#39;s receipt, the events it signed as shown, and the log&#39;s events at the same
          seqs)
        </p>
      )}
      {audit.withheld.length + audit.landedUnreceipted.length > 0 && (
        <ul data-testid="unreceipted">
          {audit.withheld.map((sent) => (
            <li key={`w${sent.sentAt}`} class="finding">
              Sent with no receipt and not in the log: {describeSent(sent)}
            </li>
          ))}
          {audit.landedUnreceipted.map((sent) => (
            <li key={`l${sent.sentAt}`}>Sent with no receipt, in the log: {describeSent(sent)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
