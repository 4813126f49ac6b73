import { hash } from "node:crypto";

/**
 * SHA-256 as 64 hex characters (crypto.hash: one call, no Hash object, about three times faster for an event). The
 * chain runs only where the log is, so it keeps node:crypto; what a player's client computes is src/crypto/commitments.ts.
 */
export function sha256Hex(text: string | Buffer): string {
  return hash("sha256", text, "hex");
}

/** A value that is not plain JSON data: a function, symbol, bigint, NaN or an infinity, or an object of a class. */
export class NotPlainDataError extends TypeError {
  override readonly name = "NotPlainDataError";
}

/**
 * RFC 8785 canonical JSON of plain data (what JSON.parse can give back): the same text as canonicalJson
 * (src/crypto/commitments.ts), written in one pass for the append path, and strict about what it takes. Object properties
 * that are undefined are left out, as JSON.stringify and canonicalJson do; anything else that JSON cannot hold exactly
 * is refused.
 */
export function canonicalPlainJson(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new NotPlainDataError("a number that is not finite");
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          out += (i === 0 ? "" : ",") + (item === undefined ? "null" : canonicalPlainJson(item));
        }
        return `${out}]`;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null)
        throw new NotPlainDataError("an object that is not a plain object");
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = "{";
      let first = true;
      for (const key of keys) {
        const item = record[key];
        if (item === undefined) continue;
        out += `${first ? "" : ","}${JSON.stringify(key)}:${canonicalPlainJson(item)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new NotPlainDataError(`a ${typeof value}`);
  }
}
