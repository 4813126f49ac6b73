/**
 * What the CLI and the rules say when something cannot be done: each message names the line, the rule or the field,
 * and what would be accepted, and never says that less (or more) was applied than was.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import * as common from "../events/common.js";
import { describeAjvError } from "../events/index.js";
import type { StoredEvent } from "../events/index.js";
import type { CampaignState } from "../projections/state.js";
import { applyCommands } from "../src/cli/commands/apply.js";
import { CliError } from "../src/cli/errors.js";
import type { Seat } from "../src/cli/seat.js";
import { unknownCommand } from "../src/cli/unknown-command.js";
import { MemorySecrets } from "../src/client/secrets.js";
import { ChoreRefusedError, Table } from "../src/client/table.js";
import { checkCommand } from "../src/engine/command-schemas.js";
import { Engine } from "../src/engine/engine.js";
import { setupCommands } from "../src/setup/setup-file.js";
import { Scenario } from "./battle-support.js";
import { runInProcess } from "./support/cli.js";
import { goldenSetup } from "./support/fixtures.js";
import { tempDir } from "./support/tmp.js";

describe("a field given a value outside its choices names every value it accepts", () => {
  it("RevealOrder's order: a misspelt order and a number both get the four orders", () => {
    const reveal = { type: "RevealOrder", actor: "red", army: "r1", salt: "ab".repeat(16) };
    const accepted = { ok: false, field: "order", message: "must be one of firstFire, advance, charge, fortify" };
    expect(checkCommand({ ...reveal, order: "chrge" })).toEqual(accepted);
    expect(checkCommand({ ...reveal, order: 3 })).toEqual(accepted);
  });

  it("a nested choice (a battle's outcome) is named by its path", () => {
    const side = { vp: 1, losses: {}, routed: {} };
    expect(
      checkCommand({
        type: "ReportBattleResult",
        actor: "red",
        battle: "t1b1",
        result: { outcome: "nobody", attacker: side, defender: side },
      }),
    ).toEqual({
      ok: false,
      field: "result.outcome",
      message: "must be one of attacker, defender, draw",
    });
  });

  // Every union of literals the commands and events are built from, found by shape, so that a new one is covered too.
  type Choice = TSchema & { anyOf: Array<{ const: unknown }> };
  const isChoice = (value: unknown): value is Choice =>
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { anyOf?: unknown }).anyOf) &&
    (value as { anyOf: object[] }).anyOf.every((branch) => "const" in branch);
  const choices = Object.entries(common as Record<string, unknown>).flatMap(([name, value]): Array<[string, Choice]> =>
    isChoice(value) ? [[name, value]] : [],
  );

  it("every enum-like field of events/common.ts says which values it accepts", () => {
    expect(choices.map(([name]) => name)).toEqual(
      expect.arrayContaining(["Order", "Edge", "BattleOutcome", "SupportKind"]),
    );
    const ajv = new Ajv({ strict: true, verbose: true });
    for (const [name, schema] of choices) {
      const validate = ajv.compile(Type.Object({ field: schema }));
      expect(validate({ field: "not-a-choice" }), name).toBe(false);
      expect(describeAjvError(validate.errors, ""), name).toEqual({
        field: "field",
        message: `must be one of ${schema.anyOf.map((branch) => String(branch.const)).join(", ")}`,
      });
    }
  });

  it("an unknown field is named with the fields the command has", () => {
    expect(
      checkCommand({
        type: "RevealOrder",
        actor: "red",
        army: "r1",
        order: "charge",
        salt: "ab".repeat(16),
        ordr: "charge",
      }),
    ).toEqual({
      ok: false,
      field: "ordr",
      message: "is not a known field (the fields are type, actor, army, order, salt, signature)",
    });
  });
});

describe("T5 a stall claimed where there is none says what the Action phase waits on", () => {
  it("T5 every army activated, orders hidden: the phase waits on the reveals at its end, which the host may close without", () => {
    const s = new Scenario()
      .startTurn()
      .activate("r1", "advance")
      .activate("b1", "firstFire")
      .activate("r2", "charge")
      .activate("b2", "fortify");
    const claim = s.decide({ actor: "red", type: "ClaimStall" });
    expect(claim.ok).toBe(false);
    if (claim.ok) return;
    expect(claim.refusal).toMatchObject({ kind: "rule", rule: "T5" });
    expect(claim.refusal.message).not.toContain("waits on no order and no reveal");
    expect(claim.refusal.message).toContain("every army is activated");
    expect(claim.refusal.message).toContain("r1 (red), b1 (blue), r2 (red), b2 (blue)");
    expect(claim.refusal.message).toContain("no stall to claim");
    expect(claim.refusal.message).toContain("CloseActionPhase");
  });

  it("T5 armies still to activate and nothing owed: the phase waits on activations, named", () => {
    const s = new Scenario().startTurn().activate("r1", "advance");
    const claim = s.decide({ actor: "blue", type: "ClaimStall" });
    expect(claim.ok).toBe(false);
    if (claim.ok) return;
    expect(claim.refusal).toMatchObject({ kind: "rule", rule: "T5" });
    expect(claim.refusal.message).toContain("only on activations (r2 (red), b1 (blue), b2 (blue))");
    expect(claim.refusal.message).toContain("no stall to claim");
  });
});

describe("epicwar with a command it does not have", () => {
  const known = ["new", "apply", "state"];

  it("is an error naming the known commands, with or without --help, and as `help NAME`", () => {
    for (const args of [
      ["teleport"],
      ["teleport", "--help"],
      ["--help", "teleport"],
      ["teleport", "-h"],
      ["help", "teleport"],
    ]) {
      expect(unknownCommand(args, known), args.join(" ")).toBe(
        "unknown command 'teleport' (the commands are new, apply, state, help; see epicwar --help)",
      );
    }
  });

  it("through the CLI: `epicwar teleport --help` exits 1 with one line naming the commands, and prints no help", async () => {
    for (const args of [["teleport", "--help"], ["teleport"]]) {
      const run = await runInProcess(args);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        /^epicwar: unknown command 'teleport' \(the commands are new, apply, computer, duel, state, map, log, .*timeline, export, import, serve, join, watch, schema, help; see epicwar --help\)\n$/,
      );
    }
    expect((await runInProcess(["state", "--help"])).code).toBe(0);
  });

  it("leaves known commands, help and the program's own options to commander", () => {
    for (const args of [
      [],
      ["--help"],
      ["-V"],
      ["help"],
      ["help", "state"],
      ["state", "--help"],
      ["apply", "teleport"],
      ["--db", "x", "state"],
    ]) {
      expect(unknownCommand(args, known), args.join(" ")).toBeUndefined();
    }
  });
});

describe("apply says what was applied", () => {
  /** A campaign set up but for its StartCampaign, whose chores (starting turn 1) then fail at this machine. */
  async function choresFail(): Promise<{ engine: Engine; seat: Seat }> {
    const engine = await Engine.open(await tempDir("epicwar-messages-"));
    const steps = setupCommands(goldenSetup("ready.json"));
    const created = await engine.create(steps.slice(0, -1).map((step) => step.command));
    if (!created.ok) throw new Error(`set-up refused: ${created.refusal.message}`);
    class FailingChores extends Table {
      override async takeChores(): Promise<CampaignState> {
        throw new ChoreRefusedError("host's StartTurn was refused: T1: (a chore made to fail)");
      }
    }
    const table = new FailingChores(engine, "golden", { secrets: new MemorySecrets() });
    return { engine, seat: { acting: undefined, table: async () => table } as unknown as Seat };
  }

  it("a line applied whose chore fails is reported as applied, with its events, and the lines after it are not applied", async () => {
    const { engine, seat } = await choresFail();
    const printed: string[] = [];
    const lines = [
      JSON.stringify({ actor: "host", type: "StartCampaign" }),
      JSON.stringify({ actor: "host", type: "StartCampaign" }),
    ].join("\n");
    const before = await engine.store.head("golden");
    try {
      const error = await applyCommands(seat, "start.jsonl", lines, (line) => printed.push(line)).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      const head = await engine.store.head("golden");
      expect(head.seq).toBe(before.seq + 1);
      const started = (await engine.store.readAll("golden", head.seq)) as StoredEvent[];
      expect(started.map((event) => event.type)).toEqual(["CampaignStarted"]);
      expect(error).toBeInstanceOf(CliError);
      const message = (error as CliError).message;
      expect(message).toBe(
        `start.jsonl:1: this line was applied (event #${head.seq} is in the log), but the step after it failed: ` +
          "host's StartTurn was refused: T1: (a chore made to fail); no line after it was applied",
      );
      expect(message).not.toContain("nothing from this line on was applied");
      expect(printed).toEqual([`#${head.seq} set-up complete: turn 1 begins`]);
    } finally {
      await engine.close();
    }
  });

  it("a refused line is reported as not applied, naming its line, its field and what is accepted", async () => {
    const { engine, seat } = await choresFail();
    try {
      const before = await engine.store.head("golden");
      const line = JSON.stringify({
        actor: "red",
        type: "RevealOrder",
        army: "r1",
        order: "chrge",
        salt: "ab".repeat(16),
      });
      await expect(applyCommands(seat, "reveal.jsonl", line, () => {})).rejects.toThrow(
        'reveal.jsonl:1: order: "chrge" is not an order (T4); write one of firstFire, advance, charge, fortify; nothing from this line on was applied',
      );
      expect(await engine.store.head("golden")).toEqual(before);
    } finally {
      await engine.close();
    }
  });
});
