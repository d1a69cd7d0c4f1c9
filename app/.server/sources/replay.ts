/**
 * Replay server: serves the recorded payloads of fixtures/sources at the real URL
 * paths (see that folder's README) on a loopback port, so the clients talk to it exactly as
 * to the sources. One server answers every source; point BOE_API_URL, EURLEX_URL and
 * CELLAR_URL at its base URL and CELLAR_SPARQL_URL at `${base}/webapi/rdf/sparql`.
 *
 * Faults for tests: `setFaults([...])` makes requests whose path matches a pattern wait,
 * time out (never answer), answer a status (5xx), a malformed body or a replacement body;
 * `times` limits how often a fault fires.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sourcesFixturesDir } from "../fixtures-path.ts";

export interface ReplayFault {
  /** Matched against the request path with its query string. */
  pattern: RegExp;
  kind: "delay" | "hang" | "status" | "malformed" | "body";
  delayMs?: number;
  status?: number;
  /** For kind "body": served instead of the recording. */
  body?: string;
  /** How many times the fault fires; unlimited when absent. */
  times?: number;
}

export interface ReplayServer {
  url: string;
  sparqlUrl: string;
  setFaults(faults: ReplayFault[]): void;
  /** Requests served, by path (for assertions). */
  requests: string[];
  close(): Promise<void>;
}

export interface ReplayOptions {
  /** The fixtures folder; default fixtures/sources (app/.server/fixtures-path.ts). */
  root?: string;
  port?: number;
}

export const DEFAULT_REPLAY_ROOT = sourcesFixturesDir;

const CELEX_IN_TEXT = /\b[0-9CE][0-9]{4}[A-Z]{1,2}[0-9]{4}\b/g;

function contentType(file: string): string {
  if (file.endsWith(".json")) return "application/json; charset=utf-8";
  if (file.endsWith(".xhtml")) return "application/xhtml+xml; charset=utf-8";
  if (file.endsWith(".rss") || file.endsWith(".xml")) return "application/xml; charset=utf-8";
  return "application/octet-stream";
}

/** Resolves a request to a fixture file (or a SPARQL merge); undefined = 404. */
function resolve(
  root: string,
  method: string,
  url: URL,
  accept: string,
  body: string,
): { file?: string; text?: string; type: string } | undefined {
  const p = decodeURIComponent(url.pathname);
  const inside = (rel: string) => {
    const full = path.resolve(root, rel);
    return full.startsWith(root + path.sep) && existsSync(full) ? full : undefined;
  };
  let m = /^\/datosabiertos\/api\/(boe|borme)\/sumario\/(\d{8})$/.exec(p);
  if (m && method === "GET") {
    const wantsXml = /xml/.test(accept) && !/json/.test(accept);
    const file = inside(`boe/datosabiertos/api/${m[1]}/sumario/${m[2]}.${wantsXml ? "xml" : "json"}`);
    return file ? { file, type: contentType(file) } : undefined;
  }
  if (p === "/diario_boe/xml.php" && method === "GET") {
    const id = url.searchParams.get("id") ?? "";
    if (!/^[A-Z]+-[A-Z0-9]+-\d{4}-[\d-]+$/.test(id)) return undefined;
    const file = inside(`boe/diario_boe/xml.php/${id}.xml`);
    return file ? { file, type: "application/xml; charset=utf-8" } : undefined;
  }
  m = /^\/([A-Za-z]{2})\/display-feed\.rss$/.exec(p);
  if (m && method === "GET") {
    const rssId = url.searchParams.get("rssId") ?? "";
    if (!/^\d+$/.test(rssId)) return undefined;
    const file = inside(`eurlex/ES/display-feed.rss/${rssId}.xml`);
    return file ? { file, type: "application/rss+xml; charset=utf-8" } : undefined;
  }
  m = /^\/resource\/celex\/([0-9A-Z()_-]+)$/i.exec(p);
  if (m && method === "GET") {
    const file = inside(`cellar/resource/celex/${m[1]}.xhtml`);
    return file ? { file, type: "application/xhtml+xml; charset=utf-8" } : undefined;
  }
  if (p.endsWith("/sparql") && (method === "POST" || method === "GET")) {
    const query =
      method === "POST"
        ? body.startsWith("query=")
          ? (new URLSearchParams(body).get("query") ?? "")
          : body
        : (url.searchParams.get("query") ?? "");
    const vars = ["celex", "eli", "title", "date", "entryForce", "endValidity", "force", "rtype", "author"];
    const bindings: unknown[] = [];
    for (const celex of new Set(query.match(CELEX_IN_TEXT) ?? [])) {
      const file = inside(`cellar/sparql/${celex}.json`);
      if (!file) continue;
      const recorded = JSON.parse(readFileSync(file, "utf8")) as { results?: { bindings?: unknown[] } };
      bindings.push(...(recorded.results?.bindings ?? []));
    }
    return {
      text: JSON.stringify({ head: { link: [], vars }, results: { distinct: false, ordered: true, bindings } }),
      type: "application/sparql-results+json; charset=utf-8",
    };
  }
  return undefined;
}

/** The replay's fixtures folder is missing or holds no recording: nothing to serve. */
export class ReplayFixturesError extends Error {
  readonly root: string;
  constructor(root: string, problem: "missing" | "empty") {
    super(
      problem === "missing"
        ? `replay fixtures folder not found: ${root} (the recorded payloads live in fixtures/sources; set FIXTURES_DIR or --root to another copy)`
        : `replay fixtures folder is empty: ${root} (expected the recorded payloads, e.g. expected.json and boe/; npm run fixtures:refresh restores them)`,
    );
    this.name = "ReplayFixturesError";
    this.root = root;
  }
}

/** Throws ReplayFixturesError unless `root` is a folder with at least one recording in it. */
export function checkReplayRoot(root: string): void {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new ReplayFixturesError(root, "missing");
  const recorded = readdirSync(root, { recursive: true, withFileTypes: true }).some(
    (entry) => entry.isFile() && !entry.name.startsWith(".") && entry.name !== "README.md",
  );
  if (!recorded) throw new ReplayFixturesError(root, "empty");
}

export async function startReplayServer(options: ReplayOptions = {}): Promise<ReplayServer> {
  const root = path.resolve(options.root ?? DEFAULT_REPLAY_ROOT);
  checkReplayRoot(root);
  let faults: Array<ReplayFault & { fired: number }> = [];
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://replay.local");
    const target = url.pathname + url.search;
    requests.push(`${req.method} ${target}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const fault = faults.find((f) => f.pattern.test(target) && (f.times === undefined || f.fired < f.times));
    if (fault) fault.fired++;
    if (fault?.kind === "hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (fault?.kind === "delay") await new Promise((r) => setTimeout(r, fault.delayMs ?? 1000));
    if (fault?.kind === "status") {
      res.writeHead(fault.status ?? 503, { "content-type": "text/plain" }).end("Service Unavailable");
      return;
    }
    const found = resolve(root, req.method ?? "GET", url, String(req.headers.accept ?? ""), body);
    if (!found) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    }
    let text = found.text ?? readFileSync(found.file ?? "", "utf8");
    if (fault?.kind === "malformed") text = text.slice(0, Math.floor(text.length / 2));
    if (fault?.kind === "body") text = fault.body ?? "";
    res.writeHead(200, { "content-type": found.type }).end(text);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    sparqlUrl: `${url}/webapi/rdf/sparql`,
    requests,
    setFaults(next) {
      faults = next.map((f) => ({ ...f, fired: 0 }));
    },
    close: () =>
      new Promise<void>((done) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
