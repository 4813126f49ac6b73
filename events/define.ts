import type { Static, TSchema } from "@sinclair/typebox";

/** Turns the data of version n of an event into the data of version n + 1. */
export type Upcaster = (data: unknown) => unknown;

export interface EventDefinition<T extends string = string, S extends TSchema = TSchema> {
  readonly type: T;
  /** Current schema version; stored events of older versions are upcast on read. */
  readonly version: number;
  /** JSON Schema of the event's data at the current version. */
  readonly schema: S;
  /** upcasters[n] lifts version n to n + 1, for every n below `version`. */
  readonly upcasters: Readonly<Record<number, Upcaster>>;
  /** JSON Schema of the data of each earlier version, as it was written then: published, not used to read. */
  readonly earlierSchemas: Readonly<Record<number, TSchema>>;
}

export function defineEvent<T extends string, S extends TSchema>(
  type: T,
  version: number,
  schema: S,
  upcasters: Record<number, Upcaster> = {},
  earlierSchemas: Record<number, TSchema> = {},
): EventDefinition<T, S> {
  for (let v = 1; v < version; v++) {
    if (!upcasters[v]) throw new Error(`${type} v${version} has no upcaster from v${v}`);
  }
  const earlier: Record<number, TSchema> = {};
  for (let v = 1; v < version; v++) {
    const published = earlierSchemas[v];
    if (!published) throw new Error(`${type} v${version} has no schema of v${v}`);
    earlier[v] = { ...published, $id: `${type}.v${v}` };
  }
  return { type, version, schema: { ...schema, $id: `${type}.v${version}` }, upcasters, earlierSchemas: earlier };
}

/** The data type of an event definition, derived from its schema. */
export type DataOf<D> = D extends EventDefinition<string, infer S> ? Static<S> : never;
