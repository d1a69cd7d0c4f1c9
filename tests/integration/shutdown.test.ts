/** Graceful shutdown: in-flight requests finish, new ones are refused, exit 0; a second signal exits at once. */
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { limits } from "../../server/limits.ts";
import { startServer } from "../support/server";

describe("shutdown", () => {
  it("finishes an in-flight request after SIGTERM, then exits 0", async () => {
    const server = await startServer();
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    // A POST whose body arrives slowly is in flight when the signal comes.
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/mail/send`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": "2" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write("{");
      setTimeout(() => {
        server.child.kill("SIGTERM");
        setTimeout(() => req.end("}"), 300);
      }, 200);
    });
    const status = await answer;
    expect(status).toBeGreaterThan(0);
    expect(status).not.toBe(502);
    expect(await exited).toBe(0);
    const messages = server.logs().map((line) => line.msg);
    expect(messages).toContain("shutting down");
    expect(messages).toContain("stopped");
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  }, 120_000);

  it("exits at once on a second signal", async () => {
    const server = await startServer();
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    const hanging = request(`${server.url}/mail/send`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "100" },
    });
    hanging.on("error", () => {});
    hanging.write("{");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill("SIGINT");
    expect(await exited).toBe(1);
    // The request in flight never completes: the graceful path would wait out the whole grace
    // period for it. (A fixed 5 s bound failed once in a whole run: the loaded machine took 5.4 s
    // to deliver the signals and exit.)
    expect(Date.now() - started).toBeLessThan(limits.shutdownGraceMs);
    const messages = server.logs().map((line) => line.msg);
    expect(messages).toContain("second signal: exiting now");
    expect(messages).not.toContain("stopped");
    hanging.destroy();
    // A server start on a loaded machine can take half a minute: the test's own steps take seconds.
  }, 120_000);
});
