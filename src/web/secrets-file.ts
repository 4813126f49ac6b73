import { ID_PATTERN, NONCE_PATTERN } from "../../events/common.js";
import type { HeldOrder, PartySecrets } from "../client/party-secrets.js";
import { ORDER_NAMES } from "../words/orders.js";

const ORDERS = Object.keys(ORDER_NAMES);
const HEX = new RegExp(NONCE_PATTERN);
const TURN = /^[1-9][0-9]{0,5}$/;
const ID = new RegExp(ID_PATTERN);
const KEY = /^[0-9a-f]{64}$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const PARTS = ["orders", "earlierOrders", "playerSeeds", "hostSeeds", "seatKey"];

/** One kept order of a secrets file, under its turn/army key, checked; `where` names it in an error. */
function heldOrder(where: string, key: string, held: unknown): HeldOrder {
  const [turn, army, ...more] = key.split("/");
  if (!TURN.test(turn ?? "") || !ID.test(army ?? "") || more.length > 0)
    throw new Error(`${where}: the key must be turn/army, as 2/ash-1`);
  if (!isRecord(held) || !ORDERS.includes(String(held["order"])))
    throw new Error(`${where}.order: must be one of ${ORDERS.join(", ")}`);
  if (typeof held["salt"] !== "string" || !HEX.test(held["salt"]))
    throw new Error(`${where}.salt: must be 32 to 128 lower-case hex characters`);
  return { order: held["order"] as never, salt: held["salt"] };
}

/**
 * A secrets file as the CLI writes it (docs/secrets.md), checked member by member: the first thing wrong is named, as
 * `orders["2/ash-1"].salt: must be 32 to 128 lower-case hex characters`, and nothing is imported.
 */
export function parseSecretsFile(text: string): PartySecrets {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`the file is not JSON (${(error as Error).message}): export it again from the CLI or the page`);
  }
  if (!isRecord(value))
    throw new Error("the file must hold one object: {orders, earlierOrders, playerSeeds, hostSeeds, seatKey}");
  for (const name of Object.keys(value))
    if (!PARTS.includes(name)) throw new Error(`${name}: not a part of a secrets file (${PARTS.join(", ")})`);
  const secrets: PartySecrets = {};
  if (value["orders"] !== undefined) {
    if (!isRecord(value["orders"])) throw new Error("orders: must be an object of orders by turn/army");
    secrets.orders = {};
    for (const [key, held] of Object.entries(value["orders"]))
      secrets.orders[key] = heldOrder(`orders[${JSON.stringify(key)}]`, key, held);
  }
  if (value["earlierOrders"] !== undefined) {
    if (!isRecord(value["earlierOrders"]))
      throw new Error("earlierOrders: must be an object of lists of orders by turn/army");
    secrets.earlierOrders = {};
    for (const [key, list] of Object.entries(value["earlierOrders"])) {
      const where = `earlierOrders[${JSON.stringify(key)}]`;
      if (!Array.isArray(list)) throw new Error(`${where}: must be a list of orders`);
      if (secrets.orders?.[key] === undefined) throw new Error(`${where}: orders has no order for ${key}`);
      secrets.earlierOrders[key] = list.map((held, index) => heldOrder(`${where}[${index}]`, key, held));
    }
  }
  for (const part of ["playerSeeds", "hostSeeds"] as const) {
    const seeds = value[part];
    if (seeds === undefined) continue;
    if (!isRecord(seeds)) throw new Error(`${part}: must be an object of seeds by turn`);
    secrets[part] = {};
    for (const [turn, seed] of Object.entries(seeds)) {
      if (!TURN.test(turn)) throw new Error(`${part}[${JSON.stringify(turn)}]: the key must be a turn number`);
      if (typeof seed !== "string" || !HEX.test(seed))
        throw new Error(`${part}[${JSON.stringify(turn)}]: must be 32 to 128 lower-case hex characters`);
      secrets[part][turn] = seed;
    }
  }
  // D2: the party's key pair (docs/signatures.md), as the CLI keeps it.
  const key = value["seatKey"];
  if (key !== undefined) {
    if (!isRecord(key) || Object.keys(key).some((name) => !["publicKey", "privateKey"].includes(name)))
      throw new Error("seatKey: must be {publicKey, privateKey}");
    for (const name of ["publicKey", "privateKey"] as const)
      if (typeof key[name] !== "string" || !KEY.test(key[name]))
        throw new Error(`seatKey.${name}: must be 64 lower-case hex characters`);
    secrets.seatKey = { publicKey: key["publicKey"] as string, privateKey: key["privateKey"] as string };
  }
  return secrets;
}
