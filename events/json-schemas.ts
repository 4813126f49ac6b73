import type { EventDefinition } from "./define.js";
import { EVENT_DEFINITIONS } from "./index.js";

/** One event type at one version, as a JSON Schema document of its data. */
export interface PublishedSchema {
  type: string;
  version: number;
  /** Its file name among the published schemas (docs/events/). */
  file: string;
  /** The JSON Schema (draft 7) of the event's `data` at that version, `$id` `<type>.v<version>`. */
  schema: Record<string, unknown>;
}

/**
 * The event catalogue as JSON Schema, for readers of a log who do not run this code: every event type at every
 * version it was ever written at (docs/events/, `epicwar schema`), in the catalogue's order, oldest version first.
 */
export function publishedSchemas(definitions: readonly EventDefinition[] = EVENT_DEFINITIONS): PublishedSchema[] {
  return definitions.flatMap((definition) =>
    Array.from({ length: definition.version }, (_, i) => {
      const version = i + 1;
      const schema = version === definition.version ? definition.schema : definition.earlierSchemas[version]!;
      return {
        type: definition.type,
        version,
        file: `${definition.type}.v${version}.schema.json`,
        // JSON text drops TypeBox's symbol keys: what is left is the plain JSON Schema.
        schema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          title: `${definition.type} version ${version}: the event's data`,
          ...(JSON.parse(JSON.stringify(schema)) as Record<string, unknown>),
        },
      };
    }),
  );
}

/** A published schema as its file holds it: two-space JSON and a final newline. */
export const schemaText = (published: PublishedSchema) => `${JSON.stringify(published.schema, null, 2)}\n`;
