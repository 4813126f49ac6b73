/**
 * D1: the first 64 bits of a host seed commitment. A reused commitment has the same print; a fresh one shares an earlier
 * print by chance with odds below one in 10^13 over a thousand turns.
 */
const SEED_PRINT_LENGTH = 16;
export const seedPrint = (hostSeedHash: string): string => hostSeedHash.slice(0, SEED_PRINT_LENGTH);

/** D1: the turn whose host seed commitment had this one's print, in prints run together (CampaignState), or null. */
export function turnOfSeedPrint(prints: string, hostSeedHash: string): number | null {
  const print = seedPrint(hostSeedHash);
  for (let at = prints.indexOf(print); at >= 0; at = prints.indexOf(print, at + 1)) {
    if (at % SEED_PRINT_LENGTH === 0) return at / SEED_PRINT_LENGTH + 1;
  }
  return null;
}
