/** Which failures mean "the database cannot be reached right now" (503) rather than a bug (500). */
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (name === "DatabaseUnavailableError") return true;
    if (typeof code === "string" && (unavailableCodes.has(code) || code.startsWith("08"))) return true;
    if (
      typeof message === "string" &&
      /Connection terminated|timeout exceeded when trying to connect|Cannot use a pool after calling end|connect ECONNREFUSED|Client has encountered a connection error|PGlite is closed/i.test(
        message,
      )
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
}
