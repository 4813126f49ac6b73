// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { noCycle } from "./scripts/eslint-no-cycle.js";

/** Imports that would break the layers: events <- projections <- rules <- replays <- CLI/server (side by side)/web. */
const layer = (from, forbidden, why) => ({
  files: [from].flat(),
  rules: {
    "no-restricted-imports": ["error", { patterns: forbidden.map((group) => ({ group: [group], message: why })) }],
  },
});

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "coverage/**",
      "**/*.js",
      "!eslint.config.js",
      "!scripts/eslint-no-cycle.js",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local: { rules: { "no-cycle": noCycle } } },
    rules: {
      "local/no-cycle": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  layer(
    "events/**/*.ts",
    ["**/projections/**", "**/src/**", "**/replays/**", "**/bench/**", "**/test/**"],
    "events/ is the catalogue: it imports nothing of ours",
  ),
  layer(
    "projections/**/*.ts",
    ["**/src/**", "**/replays/**", "**/bench/**"],
    "projections/ folds events: it imports only events/",
  ),
  layer(
    "src/rules/**/*.ts",
    ["**/cli/**", "**/demo/**", "**/replays/**", "**/server/**"],
    "the rules never import the CLI, the demo, replays or the server",
  ),
  layer(
    "replays/**/*.ts",
    ["**/src/cli/**", "**/src/demo/**", "**/src/server/**"],
    "replays never import the CLI, the demo or the server",
  ),
  layer(
    [
      ...["client", "crypto", "demo", "engine", "forecast", "log", "setup", "views", "words"].map(
        (folder) => `src/${folder}/**/*.ts`,
      ),
    ],
    ["**/server/**"],
    "the server sits at the CLI's level: nothing below it imports it",
  ),
  layer(
    "src/computer/**/*.ts",
    ["**/cli/**", "**/server/**"],
    "the computer plays through the client's Table beside a person: the CLI and the server drive it, never the reverse",
  ),
  layer(
    "src/map/**/*.ts",
    ["node:*", "**/cli/**", "**/server/**", "**/demo/**", "**/replays/**", "**/log/**", "**/client/**", "**/rules/**"],
    "the map renderer runs in the browser too: it draws a view and imports no Node module, log, rules or CLI",
  ),
  {
    files: ["src/web/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "**/cli/**", "**/server/**", "**/demo/**", "**/client/secrets.js"],
              message: "the web page runs in a browser: it imports no Node module, CLI, server or demo",
            },
            {
              group: ["**/replays/**", "**/log/**"],
              allowTypeImports: true,
              message: "the page reads replays from the server: their types only, never their code (Node's)",
            },
          ],
        },
      ],
    },
  },
  layer(
    "src/api/**/*.ts",
    ["**/cli/**", "**/server/**"],
    "the public API stands beside the CLI and the server: it is what they offer, not what they are",
  ),
  layer(
    "src/sheet/**/*.ts",
    ["node:*", "**/cli/**", "**/server/**", "**/demo/**", "**/replays/**", "**/log/**", "**/client/**", "**/rules/**"],
    "the battle sheet runs in the browser too: it reads a view and imports no Node module, log, rules or CLI",
  ),
  layer(
    "src/server/**/*.ts",
    ["**/cli/**"],
    "the server and the CLI stand side by side: neither's modules are the other's",
  ),
);
