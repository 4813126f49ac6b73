/**
 * The host's secrets sealed in a shared store (src/server/sealed-secrets.ts): what the store holds reads as nothing
 * without the key, opens only with the key and for the line and party it was sealed for, and a seed kept once is kept.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SeedKeptError } from "../../src/client/party-secrets.js";
import type { SealedTexts } from "../../src/log/index.js";
import { readSecretsKey, SealedSecrets, SealedSecretsError } from "../../src/server/sealed-secrets.js";
import { tempDir } from "../support/tmp.js";

/** Sealed texts in memory, as a database would hold them: line/party -> text. */
function memoryTexts(): SealedTexts & { rows: Map<string, string> } {
  const rows = new Map<string, string>();
  return {
    rows,
    read: async (stream, party) => rows.get(`${stream}/${party}`),
    update: async (stream, party, change) =>
      void rows.set(`${stream}/${party}`, change(rows.get(`${stream}/${party}`))),
  };
}

describe("the host's secrets sealed in a shared store", () => {
  const seed = "ab".repeat(32);

  it("holds nothing readable without the key, and gives the seed back with it", async () => {
    const texts = memoryTexts();
    const key = randomBytes(32);
    await new SealedSecrets(texts, key, "ashfall").keepHostSeed(1, seed);
    const [stored] = [...texts.rows.values()];
    expect([...texts.rows.keys()]).toEqual(["ashfall/host"]);
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(seed);
    expect(Buffer.from(stored!.slice(3), "base64url").toString("latin1")).not.toContain("hostSeeds");
    // Another instance with the same key reads it.
    expect(await new SealedSecrets(texts, key, "ashfall").hostSeed(1)).toBe(seed);
    await expect(new SealedSecrets(texts, key, "ashfall").keepHostSeed(1, "cd".repeat(32))).rejects.toThrow(
      SeedKeptError,
    );
  });

  it("refuses another key, and a row moved to another line, naming the key as what to check", async () => {
    const texts = memoryTexts();
    await new SealedSecrets(texts, randomBytes(32), "ashfall").keepHostSeed(1, seed);
    await expect(new SealedSecrets(texts, randomBytes(32), "ashfall").hostSeed(1)).rejects.toThrow(
      /host's secrets of ashfall in the database do not open with this secrets key: every instance must be given the same key/,
    );
    const key = randomBytes(32);
    const moved = memoryTexts();
    await new SealedSecrets(moved, key, "ashfall").keepHostSeed(2, seed);
    moved.rows.set("emberfall/host", moved.rows.get("ashfall/host")!);
    await expect(new SealedSecrets(moved, key, "emberfall").hostSeed(2)).rejects.toThrow(SealedSecretsError);
  });

  it("reads a key of 64 hex digits or base64 from its file, and refuses anything else", async () => {
    const dir = await tempDir("epicwar-sealed-");
    const key = randomBytes(32);
    for (const [name, text] of [
      ["hex.key", `${key.toString("hex")}\n`],
      ["b64.key", key.toString("base64")],
    ]) {
      await writeFile(join(dir, name!), text!);
      expect((await readSecretsKey(join(dir, name!))).equals(key)).toBe(true);
    }
    await writeFile(join(dir, "short.key"), "abcd");
    await expect(readSecretsKey(join(dir, "short.key"))).rejects.toThrow(
      /holds no secrets key: it must hold 32 random bytes/,
    );
  });
});
