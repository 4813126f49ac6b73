import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The query of the page's routes: any, ignored (a link to the page may carry a chat app's or a tracker's). */
const ANY_QUERY = Type.Object({}, { additionalProperties: true });

/**
 * The built web page (docs/web.md), `dist/web`: found from this module in the build (`dist/src/server/`) and in the
 * source tree (`src/server/`, run by the tests), or undefined when `npm run build` has not built it.
 */
export function builtWebPage(): string | undefined {
  const fromBuild = fileURLToPath(new URL("../../web/", import.meta.url));
  const fromSource = fileURLToPath(new URL("../../dist/web/", import.meta.url));
  return [fromBuild, fromSource].find((folder) => existsSync(`${folder}index.html`));
}

/**
 * Serves the page's files at `/`, and with the same page `/join` (where an invite link points: the invite is in the
 * fragment, which the browser keeps to itself) and `/new` (the start screen, where the operator creates a campaign). These routes are public: the page holds nothing of any campaign, and
 * everything it shows it reads with the session cookie. Only the files the build made are served (no wildcard).
 */
export async function webPageRoutes(app: FastifyInstance, root: string): Promise<void> {
  // Loaded only by a server that serves the page: every other command of the CLI starts without it.
  const { default: fastifyStatic } = await import("@fastify/static");
  await app.register(async (scope) => {
    scope.addHook("onRoute", (route) => {
      route.config = { ...route.config, public: true };
      route.schema = { ...route.schema, querystring: ANY_QUERY };
    });
    await scope.register(fastifyStatic, {
      root,
      wildcard: false,
      // `/` is the route below: @fastify/static's own index route finds no page for a browser that takes brotli.
      index: false,
      // The build's brotli and gzip copies (vite.web.config.ts), sent to a browser that takes them.
      preCompressed: true,
      cacheControl: false,
      // Assets are named by their content's hash: a browser keeps them for good. The page itself is asked again.
      setHeaders: (reply, path) =>
        reply.header(
          "cache-control",
          /[\\/]assets[\\/]/.test(path) ? "public, max-age=31536000, immutable" : "no-cache",
        ),
    });
    for (const path of ["/", "/join", "/new"]) scope.get(path, (_request, reply) => reply.sendFile("index.html"));
  });
}

/**
 * `/favicon.ico`, which every browser asks for: the page's own when the build made one (served with its files), else
 * 204, public like the page, so that a page never logs a refusal for it.
 */
export function faviconRoute(app: FastifyInstance, root: string | undefined): void {
  if (root !== undefined && existsSync(join(root, "favicon.ico"))) return;
  app.get("/favicon.ico", { config: { public: true }, schema: { querystring: ANY_QUERY } }, (_request, reply) =>
    reply.status(204).send(),
  );
}
