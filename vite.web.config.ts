import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const OUT = "dist/web";

/**
 * Writes a brotli and a gzip copy beside each text file the build made, once, at build: the server sends the one the
 * browser takes (@fastify/static's preCompressed) rather than compressing on every request.
 */
function precompress(): Plugin {
  return {
    name: "epicwar-precompress",
    apply: "build",
    closeBundle() {
      const files = readdirSync(OUT, { recursive: true, encoding: "utf8" }).filter((file) =>
        /\.(js|css|html|svg)$/.test(file),
      );
      for (const file of files) {
        const text = readFileSync(join(OUT, file));
        writeFileSync(
          join(OUT, `${file}.br`),
          brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(join(OUT, `${file}.gz`), gzipSync(text, { level: 9 }));
      }
    },
  };
}

/**
 * The web page (docs/web.md): src/web built into dist/web, which `epicwar serve` serves at `/`. Preact's JSX is
 * compiled by esbuild (no plugin needed); the page imports the engine's shared modules straight from src/. No source
 * map is built: the page's source is the repository's, and a public map would only weigh on the server.
 */
export default defineConfig({
  root: "src/web",
  base: "/",
  publicDir: false,
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  plugins: [precompress()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  logLevel: "warn",
});
