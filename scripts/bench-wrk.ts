/**
 * GET throughput with wrk (Debian package `wrk`): a C load generator that outruns both
 * our server and the bare node:http baseline on this machine, where autocannon (one
 * Node process) topped out near 10k req/s for either. Headers go in through a Lua
 * script written to a temporary file; every run is bounded in time.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface WrkOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  threads: number;
  /** Measured seconds. */
  duration: number;
  /** wrk executable; `wrk` on PATH when not given. */
  wrk?: string;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses with a status outside 2xx and 3xx. */
  non2xx: number;
  /** Socket errors: connect, read, write and timeouts. */
  errors: number;
}

export const wrkInstallHint = "wrk is not installed: apt-get install -y wrk (Debian/Ubuntu package `wrk`)";

/** The generator as named in the benchmark's output, e.g. "wrk, 50 connections, 2 threads, 10 s". */
export function describeGenerator(options: Pick<WrkOptions, "connections" | "threads" | "duration">): string {
  return `wrk, ${options.connections} connections, ${options.threads} threads, ${options.duration} s`;
}

/** Throws with the install command when wrk cannot be run. */
export function checkWrk(wrk = "wrk"): string {
  const probe = spawnSync(wrk, ["--version"], { encoding: "utf8", timeout: 5_000 });
  if (probe.error) throw new Error(wrkInstallHint);
  // wrk prints its version (and usage) and exits 1.
  const version = `${probe.stdout}${probe.stderr}`.match(/^wrk \S+/m)?.[0];
  if (!version) throw new Error(wrkInstallHint);
  return version;
}

/** A Lua string literal for an ASCII header name or value. */
function luaString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`header text must be printable ASCII: ${JSON.stringify(value)}`);
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

const marker = "WRK-RESULT ";

/** The Lua script: the request headers, and a done() that prints the figures as one JSON line. */
export function wrkScript(headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  return `${lines.join("\n")}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${marker}{"requests":%.0f,"durationUs":%.0f,"p50Us":%.0f,"p99Us":%.0f,"status":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,"timeout":%.0f}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect, e.read, e.write, e.timeout))
end
`;
}

/** Reads the line the script's done() printed. */
export function parseWrkOutput(stdout: string): WrkResult {
  const line = stdout.split("\n").find((l) => l.startsWith(marker));
  if (!line) throw new Error(`wrk printed no result line:\n${stdout.slice(0, 2000)}`);
  const raw = JSON.parse(line.slice(marker.length)) as Record<string, number>;
  const n = (key: string) => {
    const value = raw[key];
    if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`wrk result without ${key}: ${line}`);
    return value;
  };
  const seconds = n("durationUs") / 1e6;
  return {
    requests: n("requests"),
    seconds,
    rps: seconds > 0 ? n("requests") / seconds : 0,
    p50: n("p50Us") / 1000,
    p99: n("p99Us") / 1000,
    non2xx: n("status"),
    errors: n("connect") + n("read") + n("write") + n("timeout"),
  };
}

/** One wrk run; killed if it outlives its duration by more than 15 s. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-wrk-"));
  const script = path.join(dir, "headers.lua");
  writeFileSync(script, wrkScript(options.headers ?? {}));
  const threads = Math.max(1, Math.min(options.threads, options.connections));
  const args = [
    "-c",
    String(options.connections),
    "-t",
    String(threads),
    "-d",
    `${options.duration}s`,
    "--timeout",
    "5s",
    "-s",
    script,
    options.url,
  ];
  try {
    return await new Promise<WrkResult>((resolve, reject) => {
      const child = spawn(options.wrk ?? "wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const limitMs = (options.duration + 15) * 1000;
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`wrk did not finish within ${limitMs / 1000} s`));
      }, limitMs);
      child.once("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(error.code === "ENOENT" ? new Error(wrkInstallHint) : error);
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        if (code !== 0) {
          reject(new Error(`wrk exited with ${code}: ${stderr.trim() || stdout.trim()}`));
          return;
        }
        try {
          resolve(parseWrkOutput(stdout));
        } catch (error) {
          reject(error);
        }
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Below this bare/ours factor the load generator, not our server, may be the limit. */
export const saturationFactor = 1.2;

/** A warning when bare is not clearly faster than ours: the ratio then says little about the server. */
export function saturationWarning(page: string, oursRps: number, bareRps: number): string | undefined {
  if (bareRps >= saturationFactor * oursRps) return undefined;
  return (
    `GET ${page}: bare (${bareRps.toFixed(0)} req/s) is less than ${saturationFactor}× ours (${oursRps.toFixed(0)} req/s): ` +
    "the load generator may have saturated, so the ours/bare ratio is not meaningful"
  );
}
