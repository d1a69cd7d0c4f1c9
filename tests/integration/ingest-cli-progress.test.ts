/**
 * Long work says where it is: `npm run platform -- ingest` without a terminal prints plain
 * progress lines (day, documents, rate, time left) on stderr while it runs; the replay server
 * refuses to start on a missing or empty fixtures folder, with a clear message and exit 1.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { projectRoot } from "../support/server.ts";

describe("ingestion progress off a terminal", () => {
  let replay: ReplayServer;
  const dataDir = mkdtempSync(path.join(tmpdir(), "ingest-cli-"));
  beforeAll(async () => {
    replay = await startReplayServer();
  });
  afterAll(async () => {
    await replay?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints progress lines while a recorded day is ingested, and the result", async () => {
    const child = spawn(
      process.execPath,
      ["scripts/platform.ts", "ingest", "--source", "boe", "--date", "2018-12-06"],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          LOG_LEVEL: "warn",
          BOE_API_URL: replay.url,
          EURLEX_URL: replay.url,
          CELLAR_URL: replay.url,
          CELLAR_SPARQL_URL: replay.sparqlUrl,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).not.toContain("\u001b["); // no terminal escape codes in a pipe
    const lines = stderr.split("\n").filter((line) => line.startsWith("progress: "));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/^progress: day 1\/1 boe 2018-12-06: 0\/55 documents \(0%\)/);
    expect(lines.at(-1)).toMatch(
      /^progress: day 1\/1 boe 2018-12-06: 55\/55 documents \(100%\), 55 new, 0 failed, [\d.]+ documents\/s, done$/,
    );
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/documents\/s, about .+ left$/);
    expect(stdout).toContain("boe 2018-12-06: listed 55, created 55");
    expect(code).toBe(0);
  }, 240_000);
});

describe("the replay server without fixtures", () => {
  const empty = mkdtempSync(path.join(tmpdir(), "replay-empty-"));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it("refuses a missing or empty folder with a clear message and exit code 1", async () => {
    await expect(startReplayServer({ root: path.join(empty, "nowhere") })).rejects.toThrow(
      /replay fixtures folder not found/,
    );
    mkdirSync(path.join(empty, "boe"));
    await expect(startReplayServer({ root: empty })).rejects.toThrow(/replay fixtures folder is empty/);
    for (const root of [path.join(empty, "nowhere"), empty]) {
      const run = spawnSync(process.execPath, ["scripts/sources-replay.ts", "--root", root], {
        cwd: projectRoot,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^sources:replay cannot start: replay fixtures folder (not found|is empty): /);
    }
  });
});
