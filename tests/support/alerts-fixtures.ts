/** Shared parts of the alert tests: a migrated database, an in-memory directory and document store, a recording HTTP receiver. */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { AlertDirectory, DocumentLoader, Recipient } from "../../app/.server/alerts/matching.ts";
import type { MatchableDocument } from "../../app/.server/alerts/profiles.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { migrate } from "../../app/.server/db/migrate.ts";

export async function openMigrated(url: string | undefined): Promise<Database> {
  const database = await openDatabase({ databaseUrl: url });
  await migrate(database, path.resolve("drizzle"));
  return database;
}

export function memoryDirectory(users: Recipient[], groups: Record<string, string[]>): AlertDirectory {
  const byId = new Map(users.map((u) => [u.userId, u]));
  return {
    async users(ids) {
      return new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id) as Recipient]] : [])));
    },
    async groupMembers(ids) {
      return new Map(
        ids.map((id) => [id, (groups[id] ?? []).flatMap((u) => (byId.has(u) ? [byId.get(u) as Recipient] : []))]),
      );
    },
  };
}

export function memoryDocuments() {
  const docs = new Map<string, MatchableDocument & Record<string, unknown>>();
  const load: DocumentLoader = async (id) => docs.get(id);
  function add(partial: Partial<MatchableDocument> & Record<string, unknown> = {}) {
    const id = randomUUID();
    const doc = {
      id,
      source: "boe",
      sourceId: `BOE-A-2026-${Math.floor(Math.random() * 90000) + 10000}`,
      title: "Real Decreto de prevención del blanqueo de capitales",
      language: "es",
      titles: { es: "Real Decreto de prevención del blanqueo de capitales" },
      publishedOn: "2026-11-23",
      kind: "royal-decree",
      jurisdiction: "ES",
      areas: [{ id: "aml", score: 0.9, reasons: ["test"] }],
      relevance: "high" as const,
      officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2026-1",
      effectiveDates: [],
      provenance: [],
      sample: false,
      ...partial,
    };
    doc.id = id;
    docs.set(id, doc as MatchableDocument & Record<string, unknown>);
    return doc;
  }
  return { load, add };
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** An HTTP receiver on 127.0.0.1: records every POST; can answer the next requests of a path with 500. */
export async function startReceiver() {
  const received: Received[] = [];
  let failNext = 0;
  let failPath = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (failNext > 0 && (req.url ?? "").startsWith(failPath)) {
        failNext--;
        res.writeHead(500).end("nope");
        return;
      }
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** The next n requests whose path starts with `path` fail with 500. */
    failNext(n: number, path = "") {
      failNext = n;
      failPath = path;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Stores a classified document in the documents table (as ingestion would) and returns its id. */
export async function insertStoredDocument(
  database: Database,
  fields: {
    title?: string;
    text?: string;
    areas?: string[];
    jurisdiction?: string;
    kind?: string;
    relevance?: "high" | "medium" | "low";
    publishedOn?: string;
    source?: "boe" | "eurlex";
  } = {},
): Promise<string> {
  const sourceId = `BOE-A-2026-${randomUUID().slice(0, 8)}`;
  const title = fields.title ?? "Real Decreto de prevención del blanqueo de capitales";
  const publishedOn =
    fields.publishedOn ?? new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
  const record = { source: fields.source ?? "boe", sourceId, title, provenance: [] };
  const [row] = await database.rows<{ id: string }>(sql`
    insert into documents (source, source_id, title, language, titles, published_on, kind, jurisdiction, areas,
      relevance, official_url, record, body_text, content_hash, paragraphs)
    values (${fields.source ?? "boe"}, ${sourceId}, ${title}, 'es', ${JSON.stringify({ es: title })}::jsonb, ${publishedOn},
      ${fields.kind ?? "royal-decree"}, ${fields.jurisdiction ?? "ES"},
      ${JSON.stringify((fields.areas ?? ["aml"]).map((id) => ({ id, score: 0.9, reasons: ["test"] })))}::jsonb,
      ${fields.relevance ?? "high"}, ${`https://www.boe.es/diario_boe/txt.php?id=${sourceId}`}, ${JSON.stringify(record)}::jsonb,
      ${fields.text ?? ""}, ${randomUUID()}, ${JSON.stringify([{ text: fields.text ?? "" }])}::jsonb)
    returning id`);
  if (!row) throw new Error("document not stored");
  return row.id;
}

export interface SseEvent {
  event?: string;
  id?: string;
  data?: string;
}

/** Reads an SSE body: its events and heartbeat comments as they come; `pump` settles when the stream ends. */
export function readSse(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let comments = 0;
  let buffer = "";
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = {};
        for (const line of frame.split("\n")) {
          if (line.startsWith(":")) comments++;
          const [key, ...rest] = line.split(": ");
          if (key === "event" || key === "id" || key === "data") event[key] = rest.join(": ");
        }
        if (event.event) events.push(event);
        end = buffer.indexOf("\n\n");
      }
    }
  })();
  return { events, comments: () => comments, pump, cancel: () => reader.cancel().catch(() => {}) };
}
