import { describe, expect, it } from "vitest";
import { createLogger, redactSecrets } from "./logger.ts";

const token = "Zx8_k2Lq9Pw0-aB3cD4eF5gH6iJ7kL8m";

function captured(level = "trace") {
  const lines: string[] = [];
  const log = createLogger(level, { write: (line: string) => lines.push(line) });
  return { log, lines };
}

describe("secrets in logs", () => {
  it("redacts invitation, reset and setup links and secret query parameters", () => {
    expect(redactSecrets(`/app/invite/${token}`)).toBe("/app/invite/[redacted]");
    expect(redactSecrets(`http://h/app/reset/${token}?x=1`)).toBe("http://h/app/reset/[redacted]?x=1");
    expect(redactSecrets(`/app/setup/${token}/`)).toBe("/app/setup/[redacted]/");
    expect(redactSecrets(`/app/api/auth/reset-password/${token}?callbackURL=/app`)).toBe(
      "/app/api/auth/reset-password/[redacted]?callbackURL=/app",
    );
    expect(redactSecrets(`/app/api/auth/verify-email?token=${token}&next=1`)).toBe(
      "/app/api/auth/verify-email?token=[redacted]&next=1",
    );
    expect(redactSecrets("/app/reset")).toBe("/app/reset");
    expect(redactSecrets("/app/documents/42?q=ley")).toBe("/app/documents/42?q=ley");
  });

  it("keeps a token out of every field, message, error and binding, at every level", () => {
    const { log, lines } = captured();
    const child = log.child({ page: `/app/invite/${token}` });
    child.trace({ url: `/app/invite/${token}` }, "request");
    child.debug(`opened /app/setup/${token}`);
    log.info({ nested: { deep: [{ link: new URL(`https://x.example/app/reset/${token}`) }] } }, "mail");
    log.warn({ err: new Error(`fetch failed for /app/invite/${token}?token=${token}`) }, "failed");
    log.error(new Error(`boom /app/reset/${token}`));
    log.fatal({ query: `?code=${token}` }, "x");
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(line).not.toContain(token);
      expect(line).toContain("[redacted]");
    }
    expect(JSON.parse(lines[3] ?? "{}").err.message).toBe("fetch failed for /app/invite/[redacted]?token=[redacted]");
  });
});
