/**
 * GET throughput with wrk (Debian's `wrk`), a C load generator that outruns a Node server
 * on the same machine; autocannon, in Node, topped out near our server's own rate and
 * measured itself (docs/decisions/0030). One wrk thread: the other core serves.
 */
import { spawn, spawnSync } from "node:child_process";

export interface WrkResult {
  rps: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  requests: number;
  seconds: number;
  /** Answers other than 2xx/3xx, plus socket errors. */
  errors: number;
}

export const wrkPath = process.env.WRK_PATH ?? "wrk";

/** Whether wrk can run here; the benchmark names the Debian package otherwise. */
export function wrkAvailable(): boolean {
  return spawnSync(wrkPath, ["--version"], { encoding: "utf8" }).error === undefined;
}

export function describeWrk(connections: number, threads: number, seconds: number): string {
  return `wrk, ${connections} connections, ${threads} thread${threads === 1 ? "" : "s"}, ${seconds} s`;
}

export async function runWrk(
  url: string,
  options: { connections: number; threads: number; seconds: number; headers: Record<string, string> },
): Promise<WrkResult> {
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    "--timeout",
    "5s",
    ...Object.entries(options.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    url,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(wrkPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    // Bounded: the run's own duration plus a margin.
    const timer = setTimeout(() => child.kill("SIGKILL"), (options.seconds + 15) * 1000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(text);
      else reject(new Error(`wrk exited with ${code}:\n${text}`));
    });
  });
  return parseWrk(output, options.seconds);
}

const unitMs: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(text: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(text);
  return match ? Number(match[1]) * (unitMs[match[2] ?? "ms"] ?? 1) : Number.NaN;
}

/** Reads wrk's report: requests, duration, latency distribution, errors. */
export function parseWrk(text: string, seconds: number): WrkResult {
  const summary = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(text);
  const requests = Number(summary?.[1] ?? 0);
  const elapsed = summary ? (Number(summary[2]) * (unitMs[summary[3] ?? "s"] ?? 1000)) / 1000 : seconds;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1, 5).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rps: elapsed > 0 ? requests / elapsed : 0,
    p50: latencyMs(text, "50"),
    p99: latencyMs(text, "99"),
    requests,
    seconds: elapsed,
    errors: non2xx + socketErrors,
  };
}
