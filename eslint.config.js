// @ts-check
import js from "@eslint/js";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import tseslint from "typescript-eslint";

/** Imports that would break the layers: events <- projections <- rules <- replays <- CLI/server/web. */
const layer = (from, forbidden, why) => ({
  files: [from],
  rules: {
    "no-restricted-imports": ["error", { patterns: forbidden.map((group) => ({ group: [group], message: why })) }],
  },
});

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "**/*.js", "!eslint.config.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver()],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/extensions": [".ts", ".js"],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
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
    ["**/cli/**", "**/demo/**", "**/replays/**"],
    "the rules never import the CLI, the demo or replays",
  ),
  layer("replays/**/*.ts", ["**/src/cli/**", "**/src/demo/**"], "replays never import the CLI or the demo"),
);
