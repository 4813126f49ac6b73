import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The slow tier has its own config (vitest.slow.config.ts).
    exclude: ["test/slow/**", "**/node_modules/**"],
    testTimeout: 30000,
    hookTimeout: 30000,
  },
});
