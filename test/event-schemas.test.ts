/**
 * The published event schemas (docs/events/, `epicwar schema`): one JSON Schema file per event type and version, each
 * exactly what the catalogue gives now, so that a reader of a log who does not run this code needs no guessing.
 */
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { EVENT_DEFINITIONS } from "../events/index.js";
import { publishedSchemas, schemaText } from "../events/json-schemas.js";
import { runInProcess, show } from "./support/cli.js";

const FOLDER = fileURLToPath(new URL("../docs/events/", import.meta.url));
const REGENERATE = "regenerate them: npm run build && node dist/src/cli/main.js schema --out docs/events";

describe("the published event schemas", () => {
  const published = publishedSchemas();

  it("docs/events holds one file per event type and version, each as the catalogue gives it now", async () => {
    const files = (await readdir(FOLDER)).filter((file) => file.endsWith(".schema.json")).sort();
    expect(files, `docs/events is out of date: ${REGENERATE}`).toEqual(published.map((p) => p.file).sort());
    for (const schema of published)
      expect(await readFile(`${FOLDER}${schema.file}`, "utf8"), `${schema.file}: ${REGENERATE}`).toBe(
        schemaText(schema),
      );
  });

  it("every type has each version from 1 to its current one, and each is a JSON Schema that compiles", () => {
    for (const definition of EVENT_DEFINITIONS)
      expect(published.filter((p) => p.type === definition.type).map((p) => p.version)).toEqual(
        Array.from({ length: definition.version }, (_, i) => i + 1),
      );
    const ajv = new Ajv({ strict: true });
    for (const { schema } of published) expect(() => ajv.compile(schema), String(schema["$id"])).not.toThrow();
  });

  it("an earlier version is the shape written then: HitsAllocated v1 had the allocation, v2 writes none", () => {
    const ajv = new Ajv({ strict: true });
    const schemaOf = (version: number) =>
      published.find((p) => p.type === "HitsAllocated" && p.version === version)!.schema;
    const volley = {
      turn: 1,
      battle: "t1b1",
      player: "blue",
      volley: "t1b1v1",
      units: [{ id: "tank", kind: "armouredVehicle", distanceCm: 20, save: 4, eligible: true }],
      hits: ["AT"],
      unallocated: [],
    };
    const allocation = [{ hit: 0, kind: "AT", unit: "tank" }];
    expect(ajv.validate(schemaOf(1), { ...volley, allocation })).toBe(true);
    expect(ajv.validate(schemaOf(1), volley)).toBe(false);
    expect(ajv.validate(schemaOf(2), volley)).toBe(true);
  });
});

describe("epicwar schema", () => {
  it("prints one version of a type, or every version of it by <type>.v<n>", async () => {
    const one = await runInProcess(["schema", "HitsAllocated.v1"]);
    expect(one.code, show(one)).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({
      $id: "HitsAllocated.v1",
      required: expect.arrayContaining(["allocation"]),
    });
    const every = await runInProcess(["schema", "CampaignCreated"]);
    expect(every.code, show(every)).toBe(0);
    expect(Object.keys(JSON.parse(every.stdout) as object)).toEqual([
      "CampaignCreated.v1",
      "CampaignCreated.v2",
      "CampaignCreated.v3",
    ]);
  });

  it("refuses an unknown type or version, naming what there is", async () => {
    const type = await runInProcess(["schema", "HitsAlocated"]);
    expect(type.code).toBe(1);
    expect(type.stderr).toMatch(/no event type "HitsAlocated": the types are CampaignCreated, .*HitsAllocated/);
    const version = await runInProcess(["schema", "HitsAllocated.v3"]);
    expect(version.code).toBe(1);
    expect(version.stderr).toContain("HitsAllocated has no version 3: its versions are 1, 2");
  });
});
