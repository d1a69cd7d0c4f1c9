import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";

export type { Logger } from "pino";

/**
 * Path segments that are bearer secrets (invitation, password-reset, setup and better-auth's
 * own token links, calendar feeds, alert profiles' Atom feeds) and query parameters that carry one.
 */
const secretSegment =
  /(\/(?:invite|reset|setup|reset-password|verify-email|magic-link|accept-invitation|calendar|feeds)\/)([^/?#\s"'<>\\]+)/gi;
const secretParameter =
  /([?&;][\w.-]*(?:token|secret|password|passwd|code|key|signature|otp|sig)[\w.-]*=)([^&#\s"'<>\\]*)/gi;

export const redactedMark = "[redacted]";

/** The text with every secret path segment and secret query parameter replaced by [redacted]. */
export function redactSecrets(text: string): string {
  if (!text.includes("/") && !text.includes("=")) return text;
  return text.replace(secretSegment, `$1${redactedMark}`).replace(secretParameter, `$1${redactedMark}`);
}

/** Strings at any depth of a log record, errors (message, stack, cause) and URLs included. */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (value === null || typeof value !== "object" || depth > 8) return value;
  // pino's serialised error is not a plain object: copy its fields (type, message, stack, cause…).
  if (value instanceof Error) return redactDeep({ ...pino.stdSerializers.err(value) }, depth + 1);
  if (value instanceof URL) return redactSecrets(value.href);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, depth + 1);
  return out;
}

/**
 * Structured JSON logs. No secret at any level: headers that carry one are censored, and every
 * string of every record (message, fields, errors, child bindings) has its secret URL parts
 * redacted, whoever logged it (request log, error log, services).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: "site" },
    redact: {
      paths: ["req.headers.cookie", "req.headers.authorization", "password", "smtpUrl", "databaseUrl"],
      censor: "***",
    },
    formatters: {
      log: (record) => redactDeep(record) as Record<string, unknown>,
    },
    // Errors were serialised (and redacted) by the formatter above, which runs first.
    serializers: { err: (value: unknown) => (value instanceof Error ? redactDeep(value) : value) },
    hooks: {
      logMethod(args, method) {
        const redacted = args.map((arg) => (typeof arg === "string" ? redactSecrets(arg) : arg));
        // Without a message pino takes the error's own message, after this hook: give it the redacted one.
        const [first, second] = args as unknown[];
        if (first !== null && typeof first === "object" && typeof second !== "string") {
          const error = first instanceof Error ? first : (first as { err?: unknown }).err;
          if (error instanceof Error && !("msg" in first)) redacted.splice(1, 0, redactSecrets(error.message));
        }
        method.apply(this, redacted as typeof args);
      },
    },
  };
  const logger = destination ? pino(options, destination) : pino(options);
  // Child bindings are serialised once, outside the log formatter; children inherit this child().
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactDeep(bindings) as typeof bindings, childOptions);
  } as typeof logger.child;
  return logger;
}

const levelNames: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
/** Fields every record has, shown in the line's head rather than as key=value. */
const headFields = new Set(["level", "time", "msg", "service", "pid", "hostname"]);

/**
 * One JSON log line as a person reads it on a terminal: `18:22:11 INFO message key=value …`,
 * an error's stack on the lines after. The JSON is what pino wrote, redaction included.
 */
export function readableLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof record.time === "number" ? new Date(record.time).toISOString().slice(11, 19) : "";
  const level = levelNames[Number(record.level)] ?? String(record.level ?? "");
  const fields: string[] = [];
  let stack = "";
  for (const [key, value] of Object.entries(record)) {
    if (headFields.has(key) || value === undefined) continue;
    if (key === "err" && value && typeof value === "object" && "stack" in value) {
      stack = String((value as { stack: unknown }).stack);
      continue;
    }
    fields.push(`${key}=${typeof value === "string" && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  }
  const head = [time, level.padEnd(5), String(record.msg ?? "")].filter(Boolean).join(" ");
  return `${[head, ...fields].join(" ")}${stack ? `\n  ${stack.replaceAll("\n", "\n  ")}` : ""}\n`;
}

/**
 * Where the server's log goes: JSON lines when the output is a file or a pipe (a log collector,
 * the tests), readable lines on a terminal (docs/decisions/0129). LOG_FORMAT forces either.
 */
export function logDestination(
  output: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
  format?: "json" | "pretty",
): DestinationStream | undefined {
  const readable = format === "pretty" || (format !== "json" && output.isTTY === true);
  if (!readable) return undefined;
  return {
    write(chunk: string) {
      // pino writes one record per call, newline-terminated.
      let out = "";
      for (const line of chunk.split("\n")) if (line) out += readableLine(line);
      output.write(out);
    },
  };
}
