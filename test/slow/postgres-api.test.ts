/**
 * The public API on PostgreSQL: CampaignFolder.open takes a postgres:// URL as it takes a folder, and two processes'
 * worth of folders on one database see each other's campaigns.
 */
import { describe, expect, it } from "vitest";
import { CampaignFolder, examplePath } from "../../src/api/index.js";
import { freshDatabase } from "../support/postgres.js";

describe("CampaignFolder on PostgreSQL", () => {
  it("creates a campaign in a database that another opening of it reads, verifies and exports", async () => {
    const url = await freshDatabase("api");
    const writer = await CampaignFolder.open(url);
    const reader = await CampaignFolder.open(url);
    try {
      const campaign = await writer.create(examplePath("ashfall.setup.json"));
      expect(await reader.campaigns()).toEqual([campaign]);
      const verified = await reader.verify(campaign);
      expect(verified).toMatchObject({ ok: true });
      const lines: string[] = [];
      for await (const line of reader.export(campaign)) lines.push(line);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        kind: "epicwar-export",
        campaign,
        head: { seq: lines.length - 2 },
      });
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});
