/** The server process with an open /app/events stream: SIGTERM ends the stream at once and exits 0 without waiting out the grace period. */
import { describe, expect, it } from "vitest";
import { readSse } from "../support/alerts-fixtures.ts";
import { setupOwnerOverHttp } from "../support/http-session.ts";
import { startServer } from "../support/server.ts";

describe("alert streams at shutdown", () => {
  it("ends open event streams when shutdown begins, then exits 0", async () => {
    const server = await startServer({ waitUntilHealthy: false });
    const deadline = Date.now() + 100_000;
    while ((await fetch(`${server.url}/healthz`).catch(() => null))?.status !== 200) {
      if (Date.now() > deadline) throw new Error(`server did not start:\n${server.output.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    const owner = await setupOwnerOverHttp(server.url, server.dataDir);
    const response = await fetch(`${server.url}/app/events`, { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readSse(response.body as ReadableStream<Uint8Array>);
    const started = Date.now();
    server.child.kill("SIGTERM");
    await stream.pump;
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    const messages = server.logs().map((line) => line.msg);
    expect(messages).toContain("stopped");
    expect(messages).not.toContain("in-flight requests did not finish in time; closing them");
  }, 130_000);
});
