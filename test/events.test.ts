import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { catalogue, defineEvent, EVENT_DEFINITIONS, EventCatalogue } from "../events/index.js";

const RenamedV2 = defineEvent(
  "Renamed",
  2,
  Type.Object({ army: Type.String(), label: Type.String() }, { additionalProperties: false }),
  // v1 called the field "name"; v2 calls it "label".
  {
    1: (data) => {
      const { name, ...rest } = data as { name: string };
      return { ...rest, label: name };
    },
  },
  { 1: Type.Object({ army: Type.String(), name: Type.String() }, { additionalProperties: false }) },
);

describe("event catalogue", () => {
  it("names every event type in the past tense with a schema and a version", () => {
    for (const definition of EVENT_DEFINITIONS) {
      const lastWord = definition.type.match(/[A-Z][a-z]*$/)![0];
      expect(
        lastWord.endsWith("ed") || ["Given", "Chosen", "Withdrew", "Down", "Built", "Set"].includes(lastWord),
        definition.type,
      ).toBe(true);
      expect(definition.version).toBeGreaterThanOrEqual(1);
      expect(definition.schema.$id).toBe(`${definition.type}.v${definition.version}`);
    }
  });

  it("compiles every type's schema under ajv's strict mode (validators are compiled on a type's first check)", () => {
    for (const definition of EVENT_DEFINITIONS) {
      expect(
        () => catalogue.check({ type: definition.type, version: definition.version, data: {} }),
        definition.type,
      ).not.toThrow();
    }
  });

  it("upcasts a stored old version to the current one on read", () => {
    const events = new EventCatalogue([RenamedV2]);
    const stored = { type: "Renamed", version: 1, data: { army: "a1", name: "Iron Tide" } };
    expect(events.upcast(stored)).toEqual({ type: "Renamed", version: 2, data: { army: "a1", label: "Iron Tide" } });
  });

  it("refuses to write anything but the current version", () => {
    const events = new EventCatalogue([RenamedV2]);
    expect(events.check({ type: "Renamed", version: 1, data: { army: "a1", name: "x" } })).toMatchObject({
      field: "version",
    });
    expect(events.check({ type: "Renamed", version: 2, data: { army: "a1", label: "x" } })).toBeUndefined();
  });

  it("will not read an event newer than the engine knows", () => {
    const events = new EventCatalogue([RenamedV2]);
    expect(() => events.upcast({ type: "Renamed", version: 3, data: {} })).toThrow(/newer than this engine/);
  });

  it("cannot define a version without an upcaster from every older one", () => {
    expect(() => defineEvent("Broken", 3, Type.Object({}), { 1: (d) => d })).toThrow(/no upcaster from v2/);
  });

  it("cannot define a version without the schema of every older one: each is published", () => {
    expect(() => defineEvent("Unpublished", 2, Type.Object({}), { 1: (d) => d })).toThrow(/no schema of v1/);
  });

  it("names the field of invalid event data", () => {
    expect(catalogue.check({ type: "ArmyDeployed", version: 1, data: { army: "a1", at: [1, -2] } })).toEqual({
      field: "ArmyDeployed.data.at[1]",
      message: "must be >= 0",
    });
    expect(catalogue.check({ type: "ArmyDeployed", version: 1, data: { army: "a1", at: [1, 2], extra: 1 } })).toEqual({
      field: "ArmyDeployed.data.extra",
      message: "is not a known field (the fields are army, at)",
    });
    expect(catalogue.check({ type: "ArmyMarched", version: 1, data: {} })).toMatchObject({ field: "type" });
  });
});
