/**
 * Replay server: serves the recorded payloads of fixtures/sources at the real URL
 * paths (see that folder's README) on a loopback port, so the clients talk to it exactly as
 * to the sources. One server answers every source; point BOE_API_URL, EURLEX_URL and
 * CELLAR_URL at its base URL and CELLAR_SPARQL_URL at `${base}/webapi/rdf/sparql`.
 *
 * Faults for tests: `setFaults([...])` makes requests whose path matches a pattern wait,
 * time out (never answer), answer a status (5xx), a malformed body or a replacement body;
 * `times` limits how often a fault fires.
 *
 * Politeness and timing (issue 20): every request is logged with its arrival time and source
 * (`log`; `busiestWindow` counts the most requests of one source inside any window, so a test
 * fails above 2 per second). `publish({ date, from, at })` serves a recorded day's summary as
 * another day's (today's), 404 until the moment `at`: a publication at a chosen moment.
 * `moveEuTo(date)` (control: POST /__replay/eu-date `{ "date" }`) hides EU consolidated versions
 * dated after it (eu-consolidated/replay.ts). Control: POST /__replay/faults sets the faults
 * (patterns as regular expression sources).
 * Summaries carry an ETag and a Last-Modified and honour If-None-Match / If-Modified-Since
 * with a 304, as a source that honours conditional requests.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sourcesFixturesDir } from "../fixtures-path.ts";
import { type LawReplayState, newLawReplayState, resolveConsolidated } from "./consolidated/replay.ts";
import {
  consolidatedVersionsAnswer,
  euCatalogueAnswer,
  isCatalogueQuery,
  isConsolidationQuery,
  isHiddenVersion,
} from "./eu-consolidated/replay.ts";

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

export type ReplaySource = "boe" | "eurlex" | "cellar" | "other";

export interface ReplayRequest {
  /** Arrival, ms since the epoch. */
  at: number;
  source: ReplaySource;
  method: string;
  /** Path with its query string. */
  path: string;
  /** The answer's status (0 while unanswered, e.g. a hanging fault). */
  status: number;
  /** The request carried If-None-Match or If-Modified-Since. */
  conditional: boolean;
}

export interface ReplayPublication {
  /** The day it is published as (YYYY-MM-DD), e.g. today. */
  date: string;
  /** The recorded day whose summary is served (YYYY-MM-DD). */
  from: string;
  /** From this moment (ms since the epoch; default now); 404 before. */
  at?: number;
}

export interface ReplayServer {
  url: string;
  sparqlUrl: string;
  setFaults(faults: ReplayFault[]): void;
  /** Requests served, by path (for assertions). */
  requests: string[];
  /** Every request with its arrival time and source, in arrival order. */
  log: ReplayRequest[];
  /** Serves a recorded day's summary as `date`'s from the moment `at`. */
  publish(publication: ReplayPublication): void;
  /** EU consolidated versions dated after `date` (YYYY-MM-DD) hidden; null shows them all. */
  moveEuTo(date: string | null): void;
  /** Consolidated laws as they stood on `date` (YYYY-MM-DD; null: as recorded), for one law or all (consolidated/replay.ts). */
  setLawDate(date: string | null, lawId?: string): void;
  /** The consolidated-legislation change list answers (default) or 404s. */
  setLawChangeList(enabled: boolean): void;
  close(): Promise<void>;
}

/** Which source a request path belongs to (one politeness budget each). */
export function sourceOfPath(p: string): ReplaySource {
  if (p.startsWith("/datosabiertos/") || p.startsWith("/diario_boe/")) return "boe";
  if (/^\/[A-Za-z]{2}\/display-feed\.rss/.test(p)) return "eurlex";
  if (p.startsWith("/resource/") || /\/sparql(\?|$)/.test(p)) return "cellar";
  return "other";
}

/** The most requests of `source` inside any window of `windowMs` (arrival times), and where. */
export function busiestWindow(
  log: readonly ReplayRequest[],
  source: ReplaySource,
  windowMs = 1000,
): { count: number; from: number; paths: string[] } {
  const hits = log.filter((r) => r.source === source).sort((a, b) => a.at - b.at);
  let best = { count: 0, from: 0, paths: [] as string[] };
  for (let i = 0, j = 0; i < hits.length; i++) {
    const start = hits[i] as ReplayRequest;
    while (j < hits.length && (hits[j] as ReplayRequest).at < start.at + windowMs) j++;
    if (j - i > best.count) best = { count: j - i, from: start.at, paths: hits.slice(i, j).map((h) => h.path) };
  }
  return best;
}

export interface ReplayOptions {
  /** The fixtures folder; default fixtures/sources (app/.server/fixtures-path.ts). */
  root?: string;
  port?: number;
  /**
   * Control routes for a replay in its own process (scripts/sources-replay.ts --control), so
   * that the app's busy event loop cannot skew the arrival times: GET /__replay/log (the log
   * as JSON), POST /__replay/publish (a ReplayPublication as JSON), POST /__replay/reset.
   */
  control?: boolean;
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
  laws: LawReplayState,
  euAsOf: string | null = null,
): { file?: string; text?: string; type: string } | undefined {
  const p = decodeURIComponent(url.pathname);
  const law = method === "GET" ? resolveConsolidated(root, laws, url, p, accept) : "not-mine";
  if (law !== "not-mine") return law;
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
    if (isCatalogueQuery(query)) {
      return { text: euCatalogueAnswer(root, query), type: "application/sparql-results+json; charset=utf-8" };
    }
    if (isConsolidationQuery(query)) {
      const text = consolidatedVersionsAnswer(root, query, euAsOf);
      return { text, type: "application/sparql-results+json; charset=utf-8" };
    }
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

const compact = (date: string) => date.replaceAll("-", "");

/** A published day's summary: the recorded one with its publication date rewritten. */
function publishedSummary(
  root: string,
  publication: ReplayPublication,
  wantsXml: boolean,
): { text: string; type: string } | undefined {
  const base = path.join(root, "boe/datosabiertos/api/boe/sumario", compact(publication.from));
  const file = wantsXml && existsSync(`${base}.xml`) ? `${base}.xml` : `${base}.json`;
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8")
    .replace(/("fecha_publicacion"\s*:\s*")\d{8}"/g, `$1${compact(publication.date)}"`)
    .replace(
      /<fecha_publicacion>\d{8}<\/fecha_publicacion>/g,
      `<fecha_publicacion>${compact(publication.date)}</fecha_publicacion>`,
    );
  return { text, type: contentType(file) };
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
  const log: ReplayRequest[] = [];
  const publications = new Map<string, Required<ReplayPublication>>();
  let euAsOf: string | null = null;
  const hanging = new Set<ServerResponse>();
  const laws = newLawReplayState();

  const handleControl = async (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (pathname === "/__replay/log" && req.method === "GET") return json(200, log);
    if (pathname === "/__replay/reset" && req.method === "POST") {
      log.length = 0;
      requests.length = 0;
      return json(200, {});
    }
    if (pathname === "/__replay/eu-date" && req.method === "POST") {
      const { date } = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { date?: string | null };
      if (date != null && !/^\d{4}-\d{2}-\d{2}$/.test(date)) return json(422, {});
      euAsOf = date ?? null;
      return json(200, {});
    }
    if (pathname === "/__replay/publish" && req.method === "POST") {
      const p = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReplayPublication;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(p.date) || !/^\d{4}-\d{2}-\d{2}$/.test(p.from)) return json(422, {});
      publications.set(p.date, { date: p.date, from: p.from, at: p.at ?? Date.now() });
      return json(200, {});
    }
    if (pathname === "/__replay/faults" && req.method === "POST") {
      // [{ "pattern": "regexp source", "kind", "status"?, "delayMs"?, "times"? }]: setFaults over HTTP.
      const list = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Array<
        Omit<ReplayFault, "pattern"> & { pattern: string }
      >;
      faults = list.map((f) => ({ ...f, pattern: new RegExp(f.pattern), fired: 0 }));
      return json(200, {});
    }
    if (pathname === "/__replay/law-date" && req.method === "POST") {
      // { "date": "YYYY-MM-DD" | null, "lawId"?: "BOE-A-…" }: consolidated laws as they stood that day.
      const p = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { date: string | null; lawId?: string };
      if (p.date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(p.date)) return json(422, {});
      if (p.date === null) laws.asOf.delete(p.lawId ?? "*");
      else laws.asOf.set(p.lawId ?? "*", p.date);
      return json(200, {});
    }
    return json(404, {});
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://replay.local");
    if (options.control && url.pathname.startsWith("/__replay/")) return handleControl(req, res, url.pathname);
    const target = url.pathname + url.search;
    requests.push(`${req.method} ${target}`);
    const entry: ReplayRequest = {
      at: Date.now(),
      source: sourceOfPath(url.pathname),
      method: req.method ?? "GET",
      path: target,
      status: 0,
      conditional: req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined,
    };
    log.push(entry);
    res.on("finish", () => {
      entry.status = res.statusCode;
    });
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
    const accept = String(req.headers.accept ?? "");
    const summaryDay = /^\/datosabiertos\/api\/boe\/sumario\/(\d{4})(\d{2})(\d{2})$/.exec(url.pathname);
    const publication = summaryDay ? publications.get(`${summaryDay[1]}-${summaryDay[2]}-${summaryDay[3]}`) : undefined;
    let found: { file?: string; text?: string; type: string } | undefined;
    let modified: number | undefined;
    if (publication) {
      found =
        Date.now() >= publication.at
          ? publishedSummary(root, publication, /xml/.test(accept) && !/json/.test(accept))
          : undefined;
      modified = publication.at;
    } else {
      found = isHiddenVersion(url.pathname, euAsOf)
        ? undefined
        : resolve(root, req.method ?? "GET", url, accept, body, laws, euAsOf);
      if (found?.file && summaryDay) modified = statSync(found.file).mtimeMs;
    }
    if (!found) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    }
    let text = found.text ?? readFileSync(found.file ?? "", "utf8");
    if (fault?.kind === "malformed") text = text.slice(0, Math.floor(text.length / 2));
    if (fault?.kind === "body") text = fault.body ?? "";
    const headers: Record<string, string> = { "content-type": found.type };
    if (summaryDay && modified !== undefined && !fault) {
      // Validators as a server that honours conditional requests (HTTP dates have whole seconds).
      const etag = `"${createHash("sha256").update(text).digest("hex").slice(0, 32)}"`;
      const lastModified = new Date(Math.floor(modified / 1000) * 1000).toUTCString();
      headers.etag = etag;
      headers["last-modified"] = lastModified;
      const ifNoneMatch = req.headers["if-none-match"];
      const ifModifiedSince = req.headers["if-modified-since"];
      const notModified =
        ifNoneMatch !== undefined
          ? ifNoneMatch.split(",").some((tag) => tag.trim() === etag)
          : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
      if (notModified) {
        res.writeHead(304, { etag, "last-modified": lastModified }).end();
        return;
      }
    }
    res.writeHead(200, headers).end(text);
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
    log,
    publish(publication) {
      publications.set(publication.date, { ...publication, at: publication.at ?? Date.now() });
    },
    moveEuTo(date) {
      euAsOf = date;
    },
    setLawDate(date, lawId) {
      if (date === null) laws.asOf.delete(lawId ?? "*");
      else laws.asOf.set(lawId ?? "*", date);
    },
    setLawChangeList(enabled) {
      laws.changeList = enabled;
    },
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
