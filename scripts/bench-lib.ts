/** Helpers shared by the benchmark, the load test and the budget test: raw HTTP, server start, memory, forms. */
import { readFileSync } from "node:fs";
import http from "node:http";
import { freePort, type RunningServer, startServer } from "../tests/support/server.ts";

export interface RawResponse {
  status: number;
  statusMessage: string;
  /** Header names and values as sent, in order (Node's rawHeaders). */
  rawHeaders: string[];
  headers: http.IncomingHttpHeaders;
  /** The body bytes exactly as they came over the wire (never decompressed). */
  body: Buffer;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
  agent?: http.Agent | false;
}

/** One HTTP request with node:http, so compressed bodies stay compressed. */
export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? "GET",
        headers: options.headers,
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? "",
            rawHeaders: res.rawHeaders,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${url}`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface MeasuredServer {
  server: RunningServer;
  /** From spawn to the first 200 from /healthz, polled every 10 ms. */
  startToHealthyMs: number;
  memory: MemoryWatch;
}

/** Environment for measurement runs: quiet logs, contact rate limits out of the way. */
export const benchEnv: Record<string, string> = {
  LOG_LEVEL: "warn",
  RATE_LIMIT_PER_MINUTE: "100000000",
  RATE_LIMIT_PER_HOUR: "1000000000",
};

/** Starts the built server (tests/support/server.ts) and times it to its first healthy answer. */
export async function startMeasuredServer(
  env: Record<string, string | undefined> = {},
  dataDir?: string,
): Promise<MeasuredServer> {
  const port = await freePort();
  const spawnedAt = performance.now();
  // With a port given, startServer spawns before its first await: the clock starts at spawn.
  const server = await startServer({ port, dataDir, env: { ...benchEnv, ...env }, waitUntilHealthy: false });
  const memory = new MemoryWatch(server.child.pid!);
  // A first start creates the database (a helper process runs initdb): up to a minute on a busy machine.
  const deadline = spawnedAt + 60_000;
  while (performance.now() < deadline) {
    if (server.child.exitCode !== null) {
      memory.stop();
      throw new Error(`server exited with ${server.child.exitCode}:\n${server.output.join("\n")}`);
    }
    try {
      const res = await rawRequest(`${server.url}/healthz`, { timeoutMs: 1000 });
      if (res.status === 200) return { server, startToHealthyMs: performance.now() - spawnedAt, memory };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  memory.stop();
  await server.stop("SIGKILL");
  throw new Error(`server did not become healthy:\n${server.output.join("\n")}`);
}

/** Polls /proc/<pid>/status; the peak is the larger of the kernel's VmHWM and the largest VmRSS seen. */
/** A process's resident set now (VmRSS), 0 once it has exited. */
export function currentRss(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export class MemoryWatch {
  peakBytes = 0;
  private readonly pid: number;
  private readonly timer: NodeJS.Timeout;

  constructor(pid: number) {
    this.pid = pid;
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
  }

  sample(): void {
    let status: string;
    try {
      status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    } catch {
      return; // exited
    }
    for (const field of ["VmHWM", "VmRSS"]) {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
      if (match) this.peakBytes = Math.max(this.peakBytes, Number(match[1]) * 1024);
    }
  }

  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peakBytes;
  }
}

/**
 * Hidden inputs of the contact form in a rendered page (e.g. a signed time trap),
 * so scripted requests carry what a real form submission carries.
 */
export function contactFormHiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const form of html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/gi)) {
    if (!/action="[^"]*\/mail\/send/i.test(form[0])) continue;
    for (const input of (form[1] ?? "").matchAll(/<input\b[^>]*>/gi)) {
      const tag = input[0];
      if (!/type="hidden"/i.test(tag)) continue;
      const name = /name="([^"]*)"/i.exec(tag)?.[1];
      const value = /value="([^"]*)"/i.exec(tag)?.[1] ?? "";
      if (name) fields[name] = decodeEntities(value);
    }
  }
  return fields;
}

function decodeEntities(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

const givenNames = ["Ana", "Luis", "Marta", "Jorge", "Lucía", "Pablo", "Elena", "Sergio", "Carmen", "Diego"];
const surnames = ["García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Ruiz", "Díaz", "Moreno", "Álvarez"];
const companies = ["Banco Ejemplo", "Seguros Norte", "Energía Sur", "Farma Centro", "Logística Este"];

/** A valid contact request, different for every n; the email address is unique per run and n. */
export function contactRequest(runId: string, n: number, hidden: Record<string, string> = {}): Record<string, string> {
  const locale = n % 2 === 0 ? "es" : "en";
  return {
    ...hidden,
    name: givenNames[n % givenNames.length]!,
    firstName: surnames[Math.floor(n / givenNames.length) % surnames.length]!,
    email: contactEmail(runId, n),
    company: companies[n % companies.length]!,
    comments: locale === "es" ? `Solicitud de demostración número ${n}.` : `Demo request number ${n}.`,
    locale,
  };
}

export function contactEmail(runId: string, n: number): string {
  return `bench-${runId}-${n}@example.com`;
}

/** Request headers for a JSON contact request as the page's script sends it. */
export function contactHeaders(origin: string): Record<string, string> {
  return { "content-type": "application/json", accept: "application/json", origin };
}

/** The n-th percentile (0..100) of unsorted values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** A Markdown table with aligned columns: readable in a terminal, pasteable into the README. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) => Math.max(3, title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}
