/**
 * Labels over time and organisations' own topics (issue 12), on one recorded BOE day ingested
 * through the replay server: each document's first labels are in its history; a changed
 * classifier (as new tables or a new model would be) reclassifies every stale document once,
 * adds history rows only where labels changed and hands those documents to alert matching;
 * an organisation's topic labels matching documents for that organisation only, with reasons.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifierVersion, classify } from "../../app/.server/classify/classify.ts";
import { labelHistory } from "../../app/.server/classify/history.ts";
import { reclassifyStale, staleCount } from "../../app/.server/classify/reclassify.ts";
import {
  createTopic,
  deleteTopic,
  listTopics,
  matchDocumentTopics,
  rematchOrganisation,
  topicInputSchema,
  topicsOfDocument,
} from "../../app/.server/classify/topics.ts";
import type { Database } from "../../app/.server/db/client.ts";
import type { SourceDocument } from "../../app/.server/documents/types.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { ingestBoeDay } from "../../app/.server/sources/ingest.ts";
import { DEFAULT_REPLAY_ROOT, type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

const expected = JSON.parse(readFileSync(path.join(DEFAULT_REPLAY_ROOT, "expected.json"), "utf8")) as {
  boe: Record<string, string[]>;
};
const day = Object.keys(expected.boe)[0]!;
const silent = { info() {}, warn() {}, error() {} };

let replay: ReplayServer;
let database: Database;
const audited: { action: string; organizationId: string }[] = [];
const record = async (_tx: unknown, event: { action: string; organizationId: string }) => {
  audited.push({ action: event.action, organizationId: event.organizationId });
};

beforeAll(async () => {
  replay = await startReplayServer();
  database = await openMigratedDatabase();
  const clients = createSourceClients({
    urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: replay.sparqlUrl },
    siteUrl: "http://localhost:3000",
    perSecond: 10_000,
    timeoutMs: 5000,
    retries: 2,
    backoffMs: 20,
  });
  await ingestBoeDay(
    { database, clients, log: silent, concurrency: 4, classify: (doc: SourceDocument) => classify(doc) },
    `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`,
  );
}, 180_000);

afterAll(async () => {
  await database?.close();
  await replay?.close();
});

async function documentIds(): Promise<{ id: string; title: string }[]> {
  return database.rows<{ id: string; title: string }>(sql`select id::text, title from documents order by id`);
}

describe("label history and reclassification", () => {
  it("records each document's first labels as 'ingested'", async () => {
    const docs = await documentIds();
    expect(docs.length).toBe(expected.boe[day]!.length);
    const [first] = docs;
    const history = await labelHistory(database.db, first!.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ cause: "ingested", classifierVersion: classifierVersion() });
    expect(history[0]!.areas.length).toBeGreaterThan(0);
    expect(await staleCount(database)).toBe(0);
  });

  it("reclassifies stale documents once, recording only changed labels and handing them to matching", async () => {
    const docs = await documentIds();
    // A changed classifier: documents it would label 'high' now get 'low' (and the reverse).
    const flipped = (doc: SourceDocument) => {
      const labels = classify(doc);
      return { ...labels, relevance: labels.relevance === "high" ? ("low" as const) : labels.relevance };
    };
    const highBefore = await database.rows<{ id: string }>(
      sql`select id::text from documents where relevance = 'high'`,
    );
    expect(highBefore.length).toBeGreaterThan(0);
    expect(await staleCount(database, "test-v2")).toBe(docs.length);

    const matched: string[] = [];
    const result = await reclassifyStale(database, {
      version: "test-v2",
      classify: flipped,
      batchSize: 7,
      onChanged: async (id) => {
        matched.push(id);
      },
    });
    expect(result).toEqual({ checked: docs.length, changed: highBefore.length });
    expect(matched.sort()).toEqual(highBefore.map((row) => row.id).sort());
    const changedHistory = await labelHistory(database.db, highBefore[0]!.id);
    expect(changedHistory.map((entry) => entry.cause)).toEqual(["reclassified", "ingested"]);
    expect(changedHistory[0]).toMatchObject({ relevance: "low", classifierVersion: "test-v2" });
    const unchanged = docs.find((doc) => !highBefore.some((row) => row.id === doc.id))!;
    expect((await labelHistory(database.db, unchanged.id)).map((entry) => entry.cause)).toEqual(["ingested"]);

    // Nothing left to do under that version.
    expect(await staleCount(database, "test-v2")).toBe(0);
    expect(await reclassifyStale(database, { version: "test-v2", classify: flipped })).toEqual({
      checked: 0,
      changed: 0,
    });
  }, 120_000);
});

describe("an organisation's own topics", () => {
  it("validates the admin's input in the user's language", () => {
    const es = topicInputSchema("es").safeParse({ name: "", keywords: "a" });
    expect(es.success).toBe(false);
    expect(es.error?.issues.map((issue) => issue.message)).toContain("Escribe un nombre de 1 a 80 caracteres.");
    const en = topicInputSchema("en").safeParse({
      name: "Grants",
      keywords: "subvención\nayudas, subvención",
      area: "nope",
    });
    expect(en.error?.issues.map((issue) => issue.message)).toEqual(["Choose an area from the list."]);
    const ok = topicInputSchema("en").parse({ name: "Grants", keywords: "subvención\nayudas, subvención", area: "" });
    expect(ok).toEqual({ name: "Grants", keywords: ["subvención", "ayudas"], area: undefined });
  });

  it("labels the matching documents for its organisation only, with the phrase as the reason", async () => {
    const docs = await documentIds();
    // A word from a real title, written without its accents: matching folds them.
    // Whole words only: `\b` is an ASCII boundary, so it would cut "Administración" to
    // "Administraci" (a fragment that matches nothing) whenever the documents came in that order.
    const wholeWord = /(?<!\p{L})\p{L}{9,}(?!\p{L})/u;
    const target = docs.find((doc) => wholeWord.test(doc.title))!;
    const word = target.title.match(wholeWord)![0];
    const keyword = word.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase();
    const actor = { organizationId: "org-a", userId: "u1", email: "admin@a.example" };
    const topicId = await createTopic(database.db, record, actor, {
      name: "Nuestro tema",
      keywords: [keyword],
      area: "tax",
    });
    expect(audited.at(-1)).toEqual({ action: "topic.created", organizationId: "org-a" });

    const run = await rematchOrganisation(database, "org-a", { batchSize: 5 });
    expect(run.documents).toBe(docs.length);
    expect(run.matches).toBeGreaterThanOrEqual(1);
    const mine = await topicsOfDocument(database.db, "org-a", target.id);
    expect(mine).toEqual([
      expect.objectContaining({
        id: topicId,
        name: "Nuestro tema",
        area: "tax",
        reasons: [expect.objectContaining({ es: expect.stringContaining(keyword) })],
      }),
    ]);
    expect(await topicsOfDocument(database.db, "org-b", target.id)).toEqual([]);
    expect((await listTopics(database.db, "org-a"))[0]).toMatchObject({ id: topicId, documents: run.matches });
    expect(await listTopics(database.db, "org-b")).toEqual([]);

    // A newly stored document is matched at ingestion.
    await database.db.execute(sql`delete from document_topics where document_id = ${target.id}`);
    expect(await matchDocumentTopics(database, target.id)).toBeGreaterThanOrEqual(1);
    expect(await topicsOfDocument(database.db, "org-a", target.id)).toHaveLength(1);

    // Another organisation cannot delete it; its owner can, and its labels go with it.
    expect(await deleteTopic(database.db, record, { ...actor, organizationId: "org-b" }, topicId)).toBe(false);
    expect(await deleteTopic(database.db, record, actor, topicId)).toBe(true);
    expect(await topicsOfDocument(database.db, "org-a", target.id)).toEqual([]);
    expect(audited.map((entry) => entry.action)).toEqual(["topic.created", "topic.deleted"]);
  }, 120_000);
});
