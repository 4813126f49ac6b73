import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Transport, TransportRequest } from "./server.js";

/**
 * A request on which nothing comes for this long is given up as cut (ETIMEDOUT), for its caller to try again: a
 * server, or a network, gone without a word never holds a client for good.
 */
export const REQUEST_SILENCE_MS = 60_000;

/**
 * Requests over Node's own http client, on its global agent (keep-alive). A client on Node sends one short request
 * after another to one server, and fetch costs about three times as much per request on loopback as this does.
 */
export const nodeHttpTransport: Transport = (given: TransportRequest) => nodeHttpRequest(given, REQUEST_SILENCE_MS);

/** One request over Node's http client, given up once nothing has come on it for `silenceMs`. */
export function nodeHttpRequest(given: TransportRequest, silenceMs: number): ReturnType<Transport> {
  return new Promise((resolve, reject) => {
    const url = new URL(given.url);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const headers = { ...given.headers };
    if (given.body !== undefined) headers["content-length"] = String(Buffer.byteLength(given.body));
    const outgoing = send(url, { method: given.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const { "retry-after": retryAfter, etag } = response.headers;
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString("utf8"),
          ...(retryAfter ? { retryAfter } : {}),
          ...(etag ? { etag } : {}),
        });
      });
      response.on("error", reject);
    });
    // The shape fetch fails with, so that a caller reads the network's reason (ECONNREFUSED...) the same way.
    outgoing.on("error", (cause) => reject(Object.assign(new TypeError("request failed"), { cause })));
    outgoing.setTimeout(silenceMs, () =>
      outgoing.destroy(Object.assign(new Error(`nothing came for ${silenceMs} ms`), { code: "ETIMEDOUT" })),
    );
    outgoing.end(given.body);
  });
}
