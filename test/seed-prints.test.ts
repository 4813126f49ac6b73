import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seedPrint, turnOfSeedPrint } from "../projections/seed-prints.js";

const hash = fc.stringMatching(/^[0-9a-f]{64}$/);

describe("D1 host seed prints", () => {
  it("D1 a commitment used before is found at its turn; one never used is not, even where its print straddles two others", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(hash, { minLength: 1, maxLength: 40, selector: seedPrint }),
        fc.nat(),
        (hashes, pick) => {
          const prints = hashes.map(seedPrint).join("");
          const turn = (pick % hashes.length) + 1;
          expect(turnOfSeedPrint(prints, hashes[turn - 1]!)).toBe(turn);
          // A print made of the end of one turn's and the start of the next: in the string, but not a turn's print.
          const straddling = prints.slice(8, 24).padEnd(64, "0");
          const isTurnPrint = hashes.some((h) => seedPrint(h) === seedPrint(straddling));
          expect(turnOfSeedPrint(prints, straddling) !== null).toBe(isTurnPrint);
        },
      ),
    );
  });
});
