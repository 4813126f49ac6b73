import { useState } from "preact/hooks";
import type { Comparison, ForecastReport } from "../forecast/forecast.js";
import type { Difference } from "../forecast/report.js";
import { MAIN } from "./lines.js";
import { FieldError, type Values } from "./fields.js";
import { forecastRequest } from "./forecast-request.js";
import { problemWords } from "./connection.js";
import type { Game, Verdict } from "./game.js";
import { renderOddsChart, type ChartLine } from "./odds-chart.js";
import { RefusalNote } from "./refusal.js";

/** Fewer than the CLI's 1,000: the page waits for the whole answer while the server plays the runs. */
const DEFAULT_RUNS = "200";
/** The runs of a first estimate, shown at once while the whole forecast is played. */
const FIRST_RUNS = 10;
const FIELDS = [
  { name: "runs", label: "Runs", placeholder: DEFAULT_RUNS },
  { name: "turns", label: "Turns to play on", placeholder: "to the end" },
  { name: "seed", label: "Seed", placeholder: "1" },
];
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const signed = (d: Difference) =>
  `${d.difference >= 0 ? "+" : ""}${percent(d.difference)} (${percent(d.low)} to ${percent(d.high)})`;

/**
 * The odds of the line played (docs/forecast.md), as the server forecasts them from what the seat may see
 * (`POST /campaigns/:id/forecast`): a chart of each side's chance to have won by each turn, and the what-if
 * comparison of the main line against a branch from the same seed, with the difference in each chance. The runs'
 * progress comes on the seat's feed while the server plays them.
 */
export function ForecastPanel({ game, branches }: { game: Game; branches: readonly string[] }) {
  const [values, setValues] = useState<Values>({ runs: DEFAULT_RUNS });
  const [against, setAgainst] = useState("");
  const [answer, setAnswer] = useState<{ lines: ChartLine[]; comparison?: Comparison; final: boolean } | null>(null);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [playing, setPlaying] = useState(false);
  const base = `/campaigns/${encodeURIComponent(game.seat.campaign)}`;
  const line = game.branch ?? MAIN;

  const run = async (event: Event) => {
    event.preventDefault();
    let body: Record<string, unknown>;
    try {
      body = forecastRequest(values, line, against);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      setVerdict({ kind: "field", field: error.field, message: error.message });
      return;
    }
    setPlaying(true);
    setVerdict(null);
    setAnswer(null);
    game.forecastProgress.value = {};
    // A first estimate from a few runs comes at once, then the whole forecast narrows it: the same seed, more runs.
    const runs = Number(body["runs"]);
    const stages = runs > FIRST_RUNS * 2 ? [FIRST_RUNS, runs] : [runs];
    try {
      for (const stage of stages) {
        const reply = await game.server.send("POST", `${base}/forecast`, { ...body, runs: stage });
        if (reply.status !== 200) {
          const refused = (reply.body ?? {}) as { field?: string; message?: string };
          setVerdict({
            kind: "field",
            field: refused.field ?? "forecast",
            message: refused.message ?? `${reply.status}`,
          });
          return;
        }
        const final = stage === runs;
        if (against) {
          const comparison = reply.body as Comparison;
          setAnswer({
            lines: [
              { name: MAIN, report: comparison.a },
              { name: against, report: comparison.b },
            ],
            comparison,
            final,
          });
        } else setAnswer({ lines: [{ name: line, report: reply.body as ForecastReport }], final });
      }
    } catch (error) {
      setVerdict({ kind: "unanswered", message: problemWords(error) });
    } finally {
      setPlaying(false);
    }
  };

  const progress = Object.values(game.forecastProgress.value);
  const done = progress.reduce((sum, p) => sum + p.runs, 0);
  const asked = progress.reduce((sum, p) => sum + p.of, 0) || Number(values["runs"]) * (against ? 2 : 1);
  return (
    <section class="forecast" data-testid="forecast">
      <h2>Odds: a forecast of {line}</h2>
      <form onSubmit={run}>
        {FIELDS.map(({ name, label, placeholder }) => (
          <label key={name}>
            {label}{" "}
            <input
              name={name}
              placeholder={placeholder}
              value={values[name] ?? ""}
              onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
            />{" "}
          </label>
        ))}
        {branches.length > 0 && (
          <label>
            What-if: compare {MAIN} with{" "}
            <select name="against" value={against} onChange={(e) => setAgainst(e.currentTarget.value)}>
              <option value="">no branch</option>
              {branches.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}{" "}
        <button type="submit" disabled={playing}>
          Forecast the odds
        </button>
        <RefusalNote verdict={verdict} />
      </form>
      {playing && (
        <p data-testid="forecast-progress">
          Playing the campaign on: <progress max={asked} value={done} /> {done} of {asked} runs
        </p>
      )}
      {answer && <ForecastAnswer {...answer} />}
    </section>
  );
}

/** The chart, each side's final chances with their intervals, and for a comparison the differences. */
function ForecastAnswer({ lines, comparison, final }: { lines: ChartLine[]; comparison?: Comparison; final: boolean }) {
  const report = lines[0]!.report;
  return (
    <div data-testid="forecast-answer" data-final={String(final)}>
      {!final && (
        <p class="waiting">
          A first estimate from {report.runs} runs: its intervals are wide; it narrows once the rest are played.
        </p>
      )}
      <div class="odds-chart" dangerouslySetInnerHTML={{ __html: renderOddsChart(lines) }} />
      <p>
        {lines
          .map(({ name, report: line }) => `${name} from turn ${line.from.turn} (${line.from.phase ?? "set-up"})`)
          .join(", ")}
        : {report.runs} runs each, {report.seat === null ? "from the whole truth" : `from what ${report.seat} may see`};
        battles by {report.battles}; chances with their {report.interval}.
      </p>
      {comparison && (
        <table data-testid="forecast-differences">
          <thead>
            <tr>
              <th>chance</th>
              <th>{lines[0]!.name}</th>
              <th>{lines[1]!.name}</th>
              <th>difference (95%)</th>
            </tr>
          </thead>
          <tbody>
            {report.players.map((player) => (
              <tr key={player.id}>
                <td>{player.name} win</td>
                <td>{percent(comparison.a.win[player.id]!.share)}</td>
                <td>{percent(comparison.b.win[player.id]!.share)}</td>
                <td>{signed(comparison.differences.win[player.id]!)}</td>
              </tr>
            ))}
            <tr>
              <td>draw</td>
              <td>{percent(comparison.a.draw.share)}</td>
              <td>{percent(comparison.b.draw.share)}</td>
              <td>{signed(comparison.differences.draw)}</td>
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}
