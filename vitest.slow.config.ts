import { defineConfig } from "vitest/config";

/**
 * The slow tier: kill -9 soaks, long runs and the PostgreSQL store, which CI runs after the fast tier
 * (`npm run test:slow`). The global setup starts a PostgreSQL cluster of the tier's own on loopback.
 */
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    globalSetup: ["test/slow/postgres-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
