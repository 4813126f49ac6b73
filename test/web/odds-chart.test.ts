import { describe, expect, it } from "vitest";
import type { ForecastReport } from "../../src/forecast/forecast.js";
import { wilson } from "../../src/forecast/report.js";
import { oddsByTurn, renderOddsChart } from "../../src/web/odds-chart.js";

/** A forecast of 10 runs from turn 2: red wins 3 in turn 3 and 2 in turn 4, blue 1 in turn 4, 2 draws in turn 5. */
function report(more: Partial<ForecastReport> = {}): ForecastReport {
  return {
    seat: "red",
    from: { turn: 2, phase: "action", seq: 40 },
    seed: "1",
    policy: "scripted",
    runsAsked: 10,
    stopped: false,
    lastTurn: 6,
    players: [
      { id: "red", name: "Red <Host>" },
      { id: "blue", name: "Blue" },
    ],
    interval: "95% Wilson score interval",
    battles: "the model",
    runs: 10,
    win: { red: wilson(5, 10), blue: wilson(1, 10) },
    draw: wilson(2, 10),
    undecided: wilson(2, 10),
    endTurns: { 3: 3, 4: 3, 5: 2 },
    endings: { 3: { red: 3 }, 4: { red: 2, blue: 1 }, 5: { draw: 2 } },
    cvps: [2, 3, 4, 5, 6].map((turn) => ({ turn, players: {} })),
    objectives: [],
    turnsSimulated: 40,
    ...more,
  };
}

/** The points of the curve of one side of one line, as (turn index, share) read back from the chart's text. */
function curve(svg: string, line: string, side: string): string {
  const group = new RegExp(`<g data-line="${line}" data-side="${side}">\\s*<polyline points="([^"]+)"`).exec(svg);
  if (!group) throw new Error(`no curve of ${side} on ${line}`);
  return group[1]!;
}

describe("E2 the web page's chart of the odds by turn", () => {
  it("E2 gives each side's chance to have won by the end of each turn, from the forecast's first turn to its last", () => {
    expect(oddsByTurn(report())).toEqual([
      { turn: 2, win: { red: 0, blue: 0 }, draw: 0 },
      { turn: 3, win: { red: 0.3, blue: 0 }, draw: 0 },
      { turn: 4, win: { red: 0.5, blue: 0.1 }, draw: 0 },
      { turn: 5, win: { red: 0.5, blue: 0.1 }, draw: 0.2 },
      { turn: 6, win: { red: 0.5, blue: 0.1 }, draw: 0.2 },
    ]);
    // The last turn's chances are the report's own.
    const last = oddsByTurn(report()).at(-1)!;
    expect(last.win["red"]).toBe(report().win["red"]!.share);
  });

  it("E2 draws a curve per side and one for the draw, rising with the runs won, and its final chances with intervals", () => {
    const svg = renderOddsChart([{ name: "main", report: report() }]);
    expect(svg).toBe(renderOddsChart([{ name: "main", report: report() }]));
    expect(svg.startsWith("<svg ")).toBe(true);
    // From the plot's left (turn 2, 0%) to its right (turn 6), 240 px tall: 30% is 72 px up from 256.
    expect(curve(svg, "main", "red")).toBe("48,256 201,184 354,136 507,136 660,136");
    expect(curve(svg, "main", "blue")).toBe("48,256 201,256 354,232 507,232 660,232");
    expect(curve(svg, "main", "draw")).toBe("48,256 201,256 354,256 507,208 660,208");
    const red = wilson(5, 10);
    expect(svg).toContain(`Red &lt;Host&gt; 50% (${Math.round(red.low * 100)}%–${Math.round(red.high * 100)}%)`);
    expect(svg).not.toContain("<Host>");
    expect(svg).toContain("from what red may see");
    expect(svg).not.toContain("stroke-dasharray");
  });

  it("E2 draws a what-if branch over the main line, dashed, each named in the legend", () => {
    const branch = report({ win: { red: wilson(2, 10), blue: wilson(4, 10) }, endings: { 4: { red: 2, blue: 4 } } });
    const svg = renderOddsChart([
      { name: "main", report: report() },
      { name: "charge", report: branch },
    ]);
    expect(curve(svg, "charge", "blue")).toBe("48,256 201,256 354,160 507,160 660,160");
    expect(svg).toContain('data-line="charge" data-side="red"');
    expect(svg.match(/stroke-dasharray="6 4"/g)!.length).toBe(6);
    expect(svg).toContain("main: Red &lt;Host&gt; 50%");
    expect(svg).toContain("charge: Blue 40%");
  });

  it("E2 draws a forecast of a single turn at the middle of the plot", () => {
    const one = report({ from: { turn: 6, phase: "end", seq: 90 }, endings: { 6: { red: 10 } }, cvps: [] });
    expect(curve(renderOddsChart([{ name: "main", report: one }]), "main", "red")).toBe("354,16");
  });
});
