import type { ForecastReport } from "../forecast/forecast.js";
import { element, group, num, title, xml } from "../map/svg.js";

/** A line of the campaign forecast: its name (main, or a branch) and its report. */
export interface ChartLine {
  name: string;
  report: ForecastReport;
}

/** At the end of a turn: each side's chance to have won by then, and of a draw by then. */
export interface OddsAtTurn {
  turn: number;
  win: Record<string, number>;
  draw: number;
}

/** Each side's chance to have won by the end of each turn, from the turn the forecast starts to the last one played. */
export function oddsByTurn(report: ForecastReport): OddsAtTurn[] {
  const first = report.from.turn;
  const turns = [...Object.keys(report.endings).map(Number), ...report.cvps.map((c) => c.turn), first];
  const last = Math.min(report.lastTurn, Math.max(...turns));
  const runs = Math.max(report.runs, 1);
  const players = report.players.map((p) => p.id);
  const won: Record<string, number> = Object.fromEntries(players.map((p) => [p, 0]));
  let drawn = 0;
  const odds: OddsAtTurn[] = [];
  for (let turn = first; turn <= last; turn++) {
    const ended = report.endings[turn] ?? {};
    for (const player of players) won[player]! += ended[player] ?? 0;
    drawn += ended["draw"] ?? 0;
    odds.push({
      turn,
      win: Object.fromEntries(players.map((p) => [p, won[p]! / runs])),
      draw: drawn / runs,
    });
  }
  return odds;
}

const WIDTH = 680;
const PLOT = { left: 48, top: 16, right: 660, bottom: 256 };
/** The legend's rows under the plot, one a curve. */
const LEGEND = { top: PLOT.bottom + 60, row: 18 };
/** The sides' colours in set-up order, and the draw's. */
const COLOURS = ["#b22222", "#1f5fa8", "#2e7d32", "#8e24aa"];
const DRAW_COLOUR = "#777777";
/** The main line drawn solid, the line compared with it dashed. */
const DASHES = ["", "6 4"];

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * The odds by turn as an SVG chart (a pure function of the reports: the same reports give the same text): for each
 * line, each side's chance to have won by the end of each turn and the chance of a draw, with the 95% interval of each
 * final chance as a bar at the last turn; under it a legend with the final chances. Two lines (a what-if against the main line)
 * are drawn over each other, the second dashed.
 */
export function renderOddsChart(lines: readonly ChartLine[]): string {
  const series = lines.map((line) => ({ ...line, odds: oddsByTurn(line.report) }));
  const turns = series.flatMap((s) => s.odds.map((o) => o.turn));
  const first = Math.min(...turns);
  const last = Math.max(...turns);
  const x = (turn: number) =>
    last === first
      ? (PLOT.left + PLOT.right) / 2
      : PLOT.left + ((turn - first) / (last - first)) * (PLOT.right - PLOT.left);
  const y = (share: number) => PLOT.bottom - share * (PLOT.bottom - PLOT.top);
  const parts: string[] = [title(chartTitle(lines))];
  parts.push(axes(first, last, x, y));
  const legend: string[] = [];
  series.forEach(({ name, report, odds }, index) => {
    const dash: Record<string, string> = DASHES[index] ? { "stroke-dasharray": DASHES[index] } : {};
    const curves = [
      ...report.players.map((player, at) => ({
        key: player.id,
        label: player.name,
        colour: COLOURS[at % COLOURS.length]!,
        shares: odds.map((o) => o.win[player.id]!),
        final: report.win[player.id]!,
      })),
      { key: "draw", label: "draw", colour: DRAW_COLOUR, shares: odds.map((o) => o.draw), final: report.draw },
    ];
    for (const curve of curves) {
      const points = odds.map((o, at) => `${num(x(o.turn))},${num(y(curve.shares[at]!))}`).join(" ");
      const end = x(odds.at(-1)!.turn) + index * 4;
      parts.push(
        group({ "data-line": name, "data-side": curve.key }, [
          element("polyline", { points, fill: "none", stroke: curve.colour, "stroke-width": 2, ...dash }),
          ...odds.map((o, at) =>
            element("circle", { cx: x(o.turn), cy: y(curve.shares[at]!), r: 2.5, fill: curve.colour }),
          ),
          element("line", {
            x1: end,
            x2: end,
            y1: y(curve.final.low),
            y2: y(curve.final.high),
            stroke: curve.colour,
            "stroke-width": 1,
          }),
        ]),
      );
      const at = LEGEND.top + legend.length * LEGEND.row;
      legend.push(
        element("line", {
          x1: PLOT.left,
          x2: PLOT.left + 24,
          y1: at,
          y2: at,
          stroke: curve.colour,
          "stroke-width": 2,
          ...dash,
        }) +
          element(
            "text",
            { x: PLOT.left + 30, y: at + 4, "font-size": 12 },
            xml(
              `${lines.length > 1 ? `${name}: ` : ""}${curve.label} ${percent(curve.final.share)} (${percent(curve.final.low)}–${percent(curve.final.high)})`,
            ),
          ),
      );
    }
  });
  parts.push(group({ class: "legend" }, legend));
  const height = LEGEND.top + legend.length * LEGEND.row;
  return element(
    "svg",
    {
      xmlns: "http://www.w3.org/2000/svg",
      viewBox: `0 0 ${WIDTH} ${height}`,
      width: WIDTH,
      height,
      role: "img",
    },
    `\n${parts.join("\n")}\n`,
  );
}

function chartTitle(lines: readonly ChartLine[]): string {
  const report = lines[0]!.report;
  const seat = report.seat === null ? "the whole truth" : `what ${report.seat} may see`;
  const which = lines.map((line) => `${line.name} from turn ${line.report.from.turn}`).join(" against ");
  return `Each side's chance to have won by the end of each turn (${which}), ${report.runs} runs each, from ${seat}; bars: 95% intervals`;
}

/** The frame: chances from 0 to 100% up the side, the turns along the bottom. */
function axes(first: number, last: number, x: (turn: number) => number, y: (share: number) => number): string {
  const marks: string[] = [];
  for (const share of [0, 0.25, 0.5, 0.75, 1]) {
    marks.push(element("line", { x1: PLOT.left, x2: PLOT.right, y1: y(share), y2: y(share), stroke: "#dddddd" }));
    marks.push(
      element("text", { x: PLOT.left - 6, y: y(share) + 4, "font-size": 11, "text-anchor": "end" }, percent(share)),
    );
  }
  for (let turn = first; turn <= last; turn++)
    marks.push(
      element("text", { x: x(turn), y: PLOT.bottom + 16, "font-size": 11, "text-anchor": "middle" }, `T${turn}`),
    );
  marks.push(
    element(
      "text",
      { x: (PLOT.left + PLOT.right) / 2, y: PLOT.bottom + 34, "font-size": 11, "text-anchor": "middle" },
      "end of turn",
    ),
  );
  return group({ class: "axes" }, marks);
}
