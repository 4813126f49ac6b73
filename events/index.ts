import { Ajv, type ValidateFunction, type ErrorObject } from "ajv";
import { ArmyDeployed } from "./ArmyDeployed.js";
import { ArmyRegistered } from "./ArmyRegistered.js";
import { CampaignCreated } from "./CampaignCreated.js";
import { CampaignStarted } from "./CampaignStarted.js";
import type { DataOf, EventDefinition } from "./define.js";
import { HomeBasePlaced } from "./HomeBasePlaced.js";
import { ObjectivePlaced } from "./ObjectivePlaced.js";
import type { NewEvent, StoredEvent } from "./envelope.js";

/** Every event type the engine can write, at its current version. */
export const EVENT_DEFINITIONS = [
  CampaignCreated,
  ArmyRegistered,
  HomeBasePlaced,
  ObjectivePlaced,
  ArmyDeployed,
  CampaignStarted,
] as const;

type Definitions = (typeof EVENT_DEFINITIONS)[number];
export type EventType = Definitions["type"];

/** A domain event at its current version: the union of every type and its schema-derived data. */
export type DomainEvent = {
  [D in Definitions as D["type"]]: { type: D["type"]; data: DataOf<D> };
}[EventType];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

/** A stored event whose data has been upcast to the current version. */
export type CurrentEvent = Omit<StoredEvent, "type" | "data"> & DomainEvent;

export * from "./envelope.js";
export { defineEvent, type EventDefinition, type Upcaster } from "./define.js";

export interface SchemaProblem {
  field: string;
  message: string;
}

/** Turns ajv's first error into a field path and a sentence. */
export function describeAjvError(errors: ErrorObject[] | null | undefined, root: string): SchemaProblem {
  const error = errors?.[0];
  if (!error) return { field: root, message: "is invalid" };
  let field = root + error.instancePath.replace(/\/(\d+)/g, "[$1]").replace(/\//g, ".");
  if (error.keyword === "additionalProperties") {
    field += `.${String(error.params["additionalProperty"])}`;
    return { field, message: "is not a known field" };
  }
  if (error.keyword === "required") {
    field += `.${String(error.params["missingProperty"])}`;
    return { field, message: "is required" };
  }
  return { field, message: error.message ?? "is invalid" };
}

/** The event catalogue: compiled validators and upcasters for a set of event definitions. */
export class EventCatalogue {
  private readonly byType = new Map<string, { definition: EventDefinition; validate: ValidateFunction }>();

  constructor(definitions: readonly EventDefinition[]) {
    const ajv = new Ajv({ allErrors: false, strict: true });
    ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    for (const definition of definitions) {
      this.byType.set(definition.type, { definition, validate: ajv.compile(definition.schema) });
    }
  }

  definition(type: string): EventDefinition | undefined {
    return this.byType.get(type)?.definition;
  }

  /** Checks an event about to be written: a known type, at its current version, with valid data. */
  check(event: Pick<NewEvent, "type" | "version" | "data">): SchemaProblem | undefined {
    const entry = this.byType.get(event.type);
    if (!entry) return { field: "type", message: `unknown event type "${event.type}"` };
    if (event.version !== entry.definition.version) {
      return { field: "version", message: `${event.type} is written at version ${entry.definition.version}, not ${event.version}` };
    }
    if (!entry.validate(event.data)) return describeAjvError(entry.validate.errors, `${event.type}.data`);
    return undefined;
  }

  /** Lifts a stored event of any known version to the current version of its type. */
  upcast<E extends { type: string; version: number; data: unknown }>(event: E): E {
    const entry = this.byType.get(event.type);
    if (!entry) throw new Error(`unknown event type "${event.type}" at read`);
    const { definition } = entry;
    if (event.version === definition.version) return event;
    if (event.version > definition.version) {
      throw new Error(`${event.type} v${event.version} is newer than this engine (v${definition.version})`);
    }
    let data = event.data;
    for (let v = event.version; v < definition.version; v++) data = definition.upcasters[v]!(data);
    return { ...event, version: definition.version, data };
  }
}

export const catalogue = new EventCatalogue(EVENT_DEFINITIONS);

/** Reads a stored event as the current version of its type. */
export function toCurrent(event: StoredEvent): CurrentEvent {
  return catalogue.upcast(event) as CurrentEvent;
}
