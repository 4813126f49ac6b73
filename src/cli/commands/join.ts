import type { Command } from "commander";
import { redeemInvite, serverBase } from "../../client/server.js";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { keepToken, remoteSecretsDir } from "../remote.js";
import type { CliKit } from "./kit.js";

/** The server and the invite of an invite link, `<server>/join#<invite>`, as `epicwar serve` prints it. */
export function parseInviteLink(link: string): { server: string; invite: string } {
  const match = /^(.*)\/join#([A-Za-z0-9_-]+)$/.exec(link.trim());
  if (!match)
    throw new CliError(
      "the invite link must be the line the organiser sent, <server>/join#<invite>, e.g. http://192.168.1.5:4100/join#Qm9...",
    );
  return { server: serverBase(match[1]!), invite: match[2]! };
}

/**
 * `epicwar join LINK`: redeems an invite (POST /session) and keeps the seat's token in the player's secrets folder,
 * readable by the player only, where the commands played on that server find it. The token is not printed: it is a
 * password, and a terminal's scrollback or a shell's history is no place for one.
 */
export async function joinCampaign(
  link: string,
  options: { secrets?: string },
  io: CliIo,
  print: (line: string) => void,
): Promise<void> {
  const { server, invite } = parseInviteLink(link);
  const dir = remoteSecretsDir(server, options.secrets, io.env);
  const seated = await redeemInvite(server, invite);
  const path = await keepToken(dir, { server, ...seated });
  const secrets = options.secrets === undefined ? "" : ` --secrets ${options.secrets}`;
  const play = `epicwar --server ${server}`;
  print(`Seated as ${seated.seat} in campaign ${seated.campaign} on ${server}.`);
  print(`Your token is kept in ${path} (readable by you only); your orders and dice seeds are kept beside it.`);
  print("Keep a copy of that folder: an order lost before its reveal cannot be recovered.");
  print("Play with:");
  for (const example of ["state", "apply orders.jsonl", "watch"]) print(`  ${play} ${example}${secrets}`);
}

/** Registers `join`: redeem an invite link for a seat's token. */
export function registerJoin(program: Command, { action, print, io, secretsOption }: CliKit): void {
  program
    .command("join")
    .description(
      "redeem an invite link from the organiser and keep this seat's token for the commands played on its server",
    )
    .argument("<link>", "the invite link, <server>/join#<invite>")
    .addOption(secretsOption())
    .addHelpText(
      "after",
      "\nThe token is kept in <secrets>/<campaign>/.token.json (mode 0600); the default secrets folder for a server is ~/.epicwar/servers/<host>_<port>. See docs/remote-play.md.",
    )
    .action(action((link: string, options: { secrets?: string }) => joinCampaign(link, options, io, print)));
}
