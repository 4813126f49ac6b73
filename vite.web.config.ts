import { defineConfig } from "vite";

/**
 * The web page (docs/web.md): src/web built into dist/web, which `epicwar serve` serves at `/`. Preact's JSX is
 * compiled by esbuild (no plugin needed); the page imports the engine's shared modules straight from src/.
 */
export default defineConfig({
  root: "src/web",
  base: "/",
  publicDir: false,
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
  },
  logLevel: "warn",
});
