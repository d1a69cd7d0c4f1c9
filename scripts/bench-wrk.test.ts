import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkWrk,
  describeGenerator,
  parseWrkOutput,
  runWrk,
  saturationWarning,
  wrkInstallHint,
  wrkScript,
} from "./bench-wrk.ts";

// The runner needs the wrk binary (Debian package `wrk`); without it these say so and are skipped.
const hasWrk = (() => {
  try {
    checkWrk();
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasWrk)("wrk runner (needs wrk: apt-get install -y wrk)", () => {
  let server: http.Server;
  let url: string;
  const seen: { encoding?: string; language?: string; status: number }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const fail = req.url === "/fail";
      seen.push({
        encoding: req.headers["accept-encoding"],
        language: req.headers["accept-language"],
        status: fail ? 500 : 200,
      });
      res.writeHead(fail ? 500 : 200, { "content-type": "text/plain" }).end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("sends the headers through its Lua script and reports requests, rate and latency", async () => {
    const result = await runWrk({
      url: `${url}/`,
      headers: { "Accept-Encoding": "br", "Accept-Language": "en-US,en;q=0.9" },
      connections: 2,
      threads: 1,
      duration: 1,
    });
    expect(result.requests).toBeGreaterThan(10);
    expect(result.seconds).toBeGreaterThan(0.9);
    expect(result.rps).toBeCloseTo(result.requests / result.seconds, 5);
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    expect(result.non2xx).toBe(0);
    expect(seen.length).toBeGreaterThanOrEqual(result.requests);
    expect(seen.every((r) => r.encoding === "br" && r.language === "en-US,en;q=0.9")).toBe(true);
  });

  it("counts answers outside 2xx and 3xx", async () => {
    const result = await runWrk({ url: `${url}/fail`, connections: 1, threads: 1, duration: 1 });
    expect(result.requests).toBeGreaterThan(0);
    expect(result.non2xx).toBe(result.requests);
  });
});

describe("wrk missing", () => {
  it("says how to install wrk", async () => {
    expect(() => checkWrk("/nonexistent/wrk")).toThrow(wrkInstallHint);
    await expect(
      runWrk({ url: "http://127.0.0.1:9/", connections: 1, threads: 1, duration: 1, wrk: "/nonexistent/wrk" }),
    ).rejects.toThrow("apt-get install -y wrk");
  });
});

describe("wrk helpers", () => {
  it("names the generator with its settings", () => {
    expect(describeGenerator({ connections: 50, threads: 2, duration: 10 })).toBe(
      "wrk, 50 connections, 2 threads, 10 s",
    );
  });

  it("escapes header text for Lua and refuses what it cannot carry", () => {
    expect(wrkScript({ "X-A": 'say "hi" \\' })).toContain('wrk.headers["X-A"] = "say \\"hi\\" \\\\"');
    expect(() => wrkScript({ "X-A": "a\nb" })).toThrow(/printable ASCII/);
  });

  it("reads the result line and fails loudly without one", () => {
    const result = parseWrkOutput(
      'Running 1s test\nWRK-RESULT {"requests":500,"durationUs":2000000,"p50Us":1500,"p99Us":9000,"status":3,"connect":1,"read":2,"write":0,"timeout":1}\n',
    );
    expect(result).toEqual({ requests: 500, seconds: 2, rps: 250, p50: 1.5, p99: 9, non2xx: 3, errors: 4 });
    expect(() => parseWrkOutput("Running 1s test\n")).toThrow(/no result line/);
  });

  it("warns when bare is not clearly faster than ours", () => {
    expect(saturationWarning("/", 10_000, 10_400)).toMatch(/may have saturated.*not meaningful/);
    expect(saturationWarning("/", 6_000, 15_000)).toBeUndefined();
  });
});
