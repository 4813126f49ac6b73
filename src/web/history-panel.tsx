import { useEffect, useState } from "preact/hooks";
import type { AuditReport, Finding } from "../../replays/audit-report.js";
import type { TimelineEntry } from "../../replays/timeline.js";
import type { CampaignView } from "../views/view.js";
import { BranchesPanel } from "./branches-panel.js";
import type { Game } from "./game.js";
import { MapPanel } from "./map-panel.js";
import { ViewAuditPanel } from "./view-audit-panel.js";

/** The entry a step of the given size leads to from `index`: the next (or previous) event, phase or turn. */
function stepFrom(entries: readonly TimelineEntry[], index: number, by: "event" | "phase" | "turn", way: 1 | -1) {
  if (by === "event") return Math.min(entries.length - 1, Math.max(0, index + way));
  const place = (entry: TimelineEntry) => (by === "turn" ? `${entry.turn}` : `${entry.turn}/${entry.phase}`);
  const here = place(entries[index]!);
  let at = index;
  if (way === 1) {
    while (at < entries.length - 1 && place(entries[at]!) === here) at++;
    return at;
  }
  // Back: to the first event of this phase (turn), or of the one before when already there.
  while (at > 0 && place(entries[at - 1]!) === here) at--;
  if (at !== index) return at;
  if (at === 0) return 0;
  const before = place(entries[at - 1]!);
  at--;
  while (at > 0 && place(entries[at - 1]!) === before) at--;
  return at;
}

/**
 * The campaign's history as the seat may see it: the timeline, stepped by event, phase or turn or with the slider,
 * the map at the moment chosen (read from the server's state-at endpoint: the page recomputes nothing hidden), the
 * audit with links from each finding to its event, the seat's check of what it was shown against its receipts, and
 * the branches.
 */
export function HistoryPanel({ game, onPlay }: { game: Game; onPlay: (branch: string) => void }) {
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  const [index, setIndex] = useState<number | null>(null);
  const [moment, setMoment] = useState<CampaignView | null>(null);
  const [audit, setAudit] = useState<AuditReport | null>(null);
  const { campaign } = game.seat;
  const version = game.version.value;

  useEffect(() => {
    void game.remote
      .timeline(campaign)
      .then((read) => {
        setEntries(read);
        setIndex((at) => (at === null ? read.length - 1 : Math.min(at, read.length - 1)));
      })
      .catch(game.report);
    void game.remote.audit(campaign).then(setAudit, game.report);
  }, [version]);

  const entry = index === null ? undefined : entries[index];
  useEffect(() => {
    if (!entry) return;
    // A moment stepped past while its state was on its way is not shown: only the one on screen's answer is kept.
    let onScreen = true;
    void game.remote.stateAt(campaign, { seq: entry.seq }).then((view) => onScreen && setMoment(view), game.report);
    return () => {
      onScreen = false;
    };
  }, [entry?.seq]);

  const goToSeq = (seq: number) => {
    const at = entries.findIndex((e) => e.seq === seq);
    if (at >= 0) setIndex(at);
  };
  const step = (by: "event" | "phase" | "turn", way: 1 | -1) =>
    index !== null && setIndex(stepFrom(entries, index, by, way));

  return (
    <section class="history" data-testid="history">
      <h2>Timeline</h2>
      {entry && (
        <>
          <div class="steps">
            {(["turn", "phase", "event"] as const).map((by) => (
              <button key={`b${by}`} data-step={`back-${by}`} onClick={() => step(by, -1)}>
                ◀ {by}
              </button>
            ))}
            <strong data-testid="timeline-position">
              #{entry.seq} {entry.label}
            </strong>
            {(["event", "phase", "turn"] as const).map((by) => (
              <button key={`f${by}`} data-step={`forward-${by}`} onClick={() => step(by, 1)}>
                {by} ▶
              </button>
            ))}
          </div>
          <input
            type="range"
            min={0}
            max={entries.length - 1}
            value={index!}
            aria-label="Moment of the campaign"
            onInput={(e) => setIndex(Number(e.currentTarget.value))}
          />
          <p data-testid="timeline-text">{entry.text}</p>
        </>
      )}
      <div class="history-columns">
        <div>
          {entry && moment && moment.seq === entry.seq && (
            <MapPanel view={moment} viewer={game.player} heldOrders={{}} />
          )}
        </div>
        <div>
          <ol class="timeline">
            {entries.map((e, at) => (
              <li
                key={e.seq}
                value={e.seq}
                class={at === index ? "current" : ""}
                ref={(item) => {
                  if (at === index) item?.scrollIntoView({ block: "nearest" });
                }}
              >
                <a href={`#seq-${e.seq}`} onClick={(event) => (event.preventDefault(), setIndex(at))}>
                  {e.label}: {e.text}
                </a>
              </li>
            ))}
          </ol>
          {audit && <AuditView report={audit} turn={entry?.turn} onSeq={goToSeq} />}
          <ViewAuditPanel game={game} onSeq={goToSeq} />
        </div>
      </div>
      <BranchesPanel game={game} seq={entry?.seq} onPlay={onPlay} />
    </section>
  );
}

/** The audit as the seat may see it: verdict, each turn's checks, findings linked to their events. */
function AuditView({ report, turn, onSeq }: { report: AuditReport; turn?: number; onSeq: (seq: number) => void }) {
  const link = (seq: number) => (
    <a key={seq} href={`#seq-${seq}`} onClick={(event) => (event.preventDefault(), onSeq(seq))}>
      #{seq}
    </a>
  );
  const finding = (f: Finding, at: number) => (
    <li key={at} class="finding">
      {f.verdict}
      {f.rule ? ` (${f.rule})` : ""}: {f.detail} {f.seqs.map(link)}
    </li>
  );
  return (
    <section class="audit" data-testid="audit">
      <h2>Audit</h2>
      <p data-testid="audit-verdict">
        {report.ok ? "Everything recomputes" : `${report.findings.length} finding(s)`}: {report.events} events,{" "}
        {report.turns.length === 1 ? "1 turn" : `${report.turns.length} turns`}, {report.pending} item(s) still pending
        (not yet revealed).
      </p>
      <p>
        {report.chain.ok && "headHash" in report.chain && report.chain.headHash ? (
          <>
            Chain head <code>{report.chain.headHash}</code>: compare it with your opponent&#39;s (
            <code>epicwar verify</code> prints it); the same hash means the same log.
          </>
        ) : (
          `Chain: ${report.chain.verdict}. A player's view carries no hashes: ask the organiser for the head hash and compare it with your opponent's (epicwar verify prints it).`
        )}
      </p>
      <ul>{report.findings.map(finding)}</ul>
      {report.turns.map((audited) => (
        <details key={audited.turn} open={audited.turn === turn}>
          <summary>
            Turn {audited.turn} ({audited.state}): host seed {audited.hostSeedVerdict}
          </summary>
          <p>Its first event: {link(audited.firstSeq)}</p>
          <p>
            Commitments: {audited.commitments.map((c) => link(c.seq))} host; players&#39; seeds{" "}
            {audited.playerSeeds.map((p) => (
              <span key={p.player}>
                {p.player} {link(p.seq)}{" "}
              </span>
            ))}
          </p>
          <p>
            Rolls:{" "}
            {audited.rolls.map((roll) => (
              <span key={roll.seq}>
                {link(roll.seq)} {roll.verdict};{" "}
              </span>
            ))}
            {audited.rolls.length === 0 && "none"}
          </p>
          <table>
            <thead>
              <tr>
                <th>army</th>
                <th>committed</th>
                <th>revealed</th>
                <th>moved (of allowed)</th>
                <th>verdict</th>
              </tr>
            </thead>
            <tbody>
              {audited.armies.map((army) => (
                <tr key={army.army}>
                  <td>{army.army}</td>
                  <td>{link(army.activation.seq)}</td>
                  <td>
                    {army.reveal ? (
                      <>
                        {army.reveal.order} {link(army.reveal.seq)}
                      </>
                    ) : (
                      "not yet"
                    )}
                  </td>
                  <td>
                    {army.squares}
                    {army.allowed === null ? "" : `/${army.allowed}`} sq. {army.moves.map((move) => link(move.seq))}
                  </td>
                  <td>{army.verdicts.join("; ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </section>
  );
}
