import { describe, expect, it, test } from "vitest";
import { createLogger, logDestination, readableLine, redactSecrets } from "./logger.ts";

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

describe("log lines on a terminal (readable) and through a pipe (JSON)", () => {
  function terminal(isTTY: boolean) {
    const lines: string[] = [];
    return { isTTY, lines, write: (chunk: string) => lines.push(chunk) };
  }

  test("a terminal gets `time LEVEL message key=value`, the error's stack below, secrets still redacted", () => {
    const output = terminal(true);
    const destination = logDestination(output as unknown as NodeJS.WritableStream);
    expect(destination).toBeDefined();
    const log = createLogger("info", destination);
    log.info({ port: 3000, url: "http://localhost:3000/app/invite/abc123" }, "listening");
    log.error({ err: new Error("boom") }, "request failed");
    const [first, second] = output.lines;
    expect(first).toMatch(
      /^\d\d:\d\d:\d\d INFO {2}listening port=3000 url=http:\/\/localhost:3000\/app\/invite\/\[redacted\]\n$/,
    );
    expect(first).not.toContain("{");
    expect(second).toMatch(/^\d\d:\d\d:\d\d ERROR request failed\n {2}Error: boom\n {6}at /);
  });

  test("a pipe or a file keeps JSON lines (no destination of its own); LOG_FORMAT forces either", () => {
    expect(logDestination(terminal(false) as unknown as NodeJS.WritableStream)).toBeUndefined();
    expect(logDestination(terminal(true) as unknown as NodeJS.WritableStream, "json")).toBeUndefined();
    expect(logDestination(terminal(false) as unknown as NodeJS.WritableStream, "pretty")).toBeDefined();
    expect(readableLine("not json")).toBe("not json");
  });
});
