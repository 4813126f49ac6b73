/**
 * The slow tier's soak of the leak-proof property over the wire (test/server/leak-proof.ts): more random campaigns,
 * played longer, read at more points, than the fast tier has time for.
 */
import { describe, it } from "vitest";
import { checkRandomCampaigns } from "../server/leak-proof.js";

describe("S8 D1 T5 A2 soak: no answer of the server ever holds a secret its seat may not have", () => {
  it("S8 D1 T5 A2 over 20 random campaigns of up to 5 turns, read by every seat at up to 8 points each", async () => {
    await checkRandomCampaigns({ numRuns: 20, maxTurns: 5, stops: 8 });
  });
});
