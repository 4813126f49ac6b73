import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSecrets } from "../../src/client/secrets.js";
import { parseSecretsFile } from "../../src/web/secrets-file.js";

const SALT = "0123456789abcdef0123456789abcdef";
const SEED = "f".repeat(31) + "e".repeat(33);

describe("the page's secrets file is the CLI's (docs/web.md, docs/secrets.md)", () => {
  it("T5 D1 reads a secrets file the CLI wrote, order for order and seed for seed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "epicwar-web-secrets-"));
    try {
      const secrets = new FileSecrets(dir, "ashfall");
      await secrets.keepOrder("concord", 2, "first-vigil", { order: "charge", salt: SALT });
      await secrets.keepPlayerSeed("concord", 3, SEED);
      // T5: an order given again for the army, the first kept beside it (the log may commit to either).
      await secrets.keepOrder("concord", 2, "first-vigil", { order: "fortify", salt: SALT });
      const text = await readFile(join(dir, "ashfall", "concord.json"), "utf8");
      expect(parseSecretsFile(text)).toEqual({
        orders: { "2/first-vigil": { order: "fortify", salt: SALT } },
        earlierOrders: { "2/first-vigil": [{ order: "charge", salt: SALT }] },
        playerSeeds: { "3": SEED },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names the first member that is wrong, and takes nothing", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ orders: { "2/a": { order: "retreat", salt: SALT } } }, /^orders\["2\/a"\]\.order: must be one of/],
      [{ orders: { "2/a": { order: "charge", salt: "00" } } }, /^orders\["2\/a"\]\.salt: must be 32 to 128/],
      [{ orders: { "x/a": { order: "charge", salt: SALT } } }, /^orders\["x\/a"\]: the key must be turn\/army/],
      [
        { earlierOrders: { "2/a": [{ order: "charge", salt: SALT }] } },
        /^earlierOrders\["2\/a"\]: orders has no order/,
      ],
      [
        { orders: { "2/a": { order: "charge", salt: SALT } }, earlierOrders: { "2/a": [{ order: "x", salt: SALT }] } },
        /^earlierOrders\["2\/a"\]\[0\]\.order: must be one of/,
      ],
      [{ playerSeeds: { "1": "ABC" } }, /^playerSeeds\["1"\]: must be 32 to 128/],
      [{ tokens: {} }, /^tokens: not a part of a secrets file/],
      [[], /must hold one object/],
    ];
    for (const [value, message] of cases) expect(() => parseSecretsFile(JSON.stringify(value))).toThrow(message);
    expect(() => parseSecretsFile("{")).toThrow(/not JSON/);
  });
});
