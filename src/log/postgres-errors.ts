/**
 * PostgreSQL errors that say the database cannot be reached or used right now (restarting, failing over, a standby
 * that takes no writes, too many connections, a connect or statement timeout), as opposed to a query or the log being
 * wrong. Such an error leaves nothing acknowledged: the work may be sent again once the database answers.
 */

/** SQLSTATE classes and codes of a database that is away: connection exceptions (08), shutdowns, read-only standbys. */
const AWAY_CODES = new Set([
  "57P01", // admin_shutdown: pg_ctl stop or restart in fast mode, a failover
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "57014", // query_canceled: a statement timeout
  "53300", // too_many_connections
  "25006", // read_only_sql_transaction: a standby, or a primary demoted
  "40001", // serialization_failure: a standby cancelling a read that conflicts with recovery
]);

/** Node's own codes of a connection that failed or was cut. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** What node-postgres says of a connection that ended, timed out or failed before or while it was used. */
const CLIENT_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** Whether an error is PostgreSQL (or the way to it) being away: the database restarting, unreachable or read-only. */
export function databaseAway(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (AWAY_CODES.has(code) || code.startsWith("08") || SOCKET_CODES.has(code)))
    return true;
  return CLIENT_MESSAGES.test(error.message);
}

/** What PostgreSQL said, as a client may be shown it (no host, user or path): "57P01 terminating connection ...". */
export function awayReason(error: Error): string {
  const code = (error as { code?: unknown }).code;
  const said = error.message.split("\n")[0]!.replace(/ \d{1,3}(\.\d{1,3}){3}:\d+$/, "");
  return typeof code === "string" && !said.startsWith(code) ? `${code} ${said}` : said;
}
