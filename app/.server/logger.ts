import { type Logger, pino } from "pino";

export type { Logger } from "pino";

/** Structured JSON logs; secrets that could appear in headers are redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "site" },
    redact: {
      paths: ["req.headers.cookie", "req.headers.authorization", "password", "smtpUrl", "databaseUrl"],
      censor: "***",
    },
  });
}
