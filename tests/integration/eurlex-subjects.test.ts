/**
 * EuroVoc concepts and directory codes of EU acts (issue 23: "EuroVoc concepts … and directory
 * codes for EU acts"): the metadata query asks Cellar for them, the parser keeps them with their
 * Spanish label, the stored document carries them and the classifier reads them; when Cellar
 * cannot answer that query, the acts are stored without them and the log says so. The recorded
 * SPARQL results have none, so a SPARQL peer on loopback answers with the recorded bindings of
 * the CELEX numbers it is asked about plus subject bindings in Cellar's shape (a concept URI, its
 * labels in Spanish and English; a directory code URI); the feed and the texts come from the replay.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classify } from "../../app/.server/classify/classify.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { celexNumbersIn } from "../../app/.server/sources/eurlex/cellar.ts";
import { ingestEurlex } from "../../app/.server/sources/ingest.ts";
import { DEFAULT_REPLAY_ROOT, type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";

const silent = { info() {}, warn() {}, error() {} };
const DMA = "32022R1925";
const uri = (value: string) => ({ type: "uri", value });
const label = (value: string, lang: string) => ({ type: "literal", "xml:lang": lang, value });
/** The subjects the peer gives the Digital Markets Act, in the rows Cellar's UNION branches give. */
const subjects = [
  { eurovoc: uri("http://eurovoc.europa.eu/2565"), eurovocLabel: label("posición dominante", "es") },
  { eurovoc: uri("http://eurovoc.europa.eu/2565"), eurovocLabel: label("dominant position", "en") },
  { eurovoc: uri("http://eurovoc.europa.eu/5267"), eurovocLabel: label("cartel", "en") },
  {
    directory: uri("http://publications.europa.eu/resource/authority/dir-eu-legal-act/0820"),
    directoryLabel: label("Competencia", "es"),
  },
];

let replay: ReplayServer;
let peer: Server;
let peerUrl: string;
const queries: string[] = [];
/** The peer refuses the subjects query (HTTP 503) while this is set. */
let refuseSubjects = false;
let database: Database;

beforeAll(async () => {
  replay = await startReplayServer();
  peer = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => {
      queries.push(body);
      if (refuseSubjects && body.includes("work_is_about_concept_eurovoc")) {
        res.writeHead(503).end();
        return;
      }
      const bindings: object[] = [];
      for (const celex of celexNumbersIn(body)) {
        const recorded = JSON.parse(
          readFileSync(path.join(DEFAULT_REPLAY_ROOT, `cellar/sparql/${celex}.json`), "utf8"),
        ) as { results: { bindings: object[] } };
        bindings.push(...recorded.results.bindings);
        if (celex === DMA && body.includes("work_is_about_concept_eurovoc"))
          bindings.push(...subjects.map((s) => ({ celex: { type: "literal", value: DMA }, ...s })));
      }
      res.writeHead(200, { "content-type": "application/sparql-results+json" });
      res.end(JSON.stringify({ head: { vars: [] }, results: { bindings } }));
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/webapi/rdf/sparql`;
  database = await openDatabase({ databaseUrl: undefined });
  await migrate(database, defaultMigrationsDir);
}, 120_000);

afterAll(async () => {
  await database?.close();
  await replay?.close();
  await new Promise((resolve) => peer?.close(resolve));
});

const clients = () =>
  createSourceClients({
    urls: { boeApiUrl: replay.url, eurlexUrl: replay.url, cellarUrl: replay.url, cellarSparqlUrl: peerUrl },
    siteUrl: "http://localhost:3000",
    perSecond: 10_000,
    timeoutMs: 5000,
    retries: 1,
    backoffMs: 20,
  });

describe("EuroVoc concepts and directory codes of EU acts", () => {
  it("are asked for, stored with their Spanish labels and read by the classifier", async () => {
    queries.length = 0;
    const deps = { database, clients: clients(), log: silent, concurrency: 2, classify: classify };
    const result = await ingestEurlex(deps);
    expect(result.failed).toEqual([]);

    // The feed's acts in one batch: a query for their facts, one for their subjects, one for the
    // acts they amend, repeal or correct (decision 0155).
    expect(queries).toHaveLength(3);
    expect(queries.filter((q) => q.includes("amends"))).toHaveLength(1);
    const subjectQueries = queries.filter((q) => q.includes("cdm:work_is_about_concept_eurovoc"));
    expect(subjectQueries).toHaveLength(1);
    expect(subjectQueries[0]).toContain("cdm:resource_legal_is_about_concept_directory-code");

    const rows = await database.rows<{
      source_id: string;
      eurovoc: { code: string; label: string }[];
      record: { directoryCodes: { code: string; label: string }[] };
      areas: { id: string; reasons: string[] }[];
    }>(sql`select source_id, eurovoc, record, areas from documents where source = 'eurlex' order by source_id`);
    expect(rows).toHaveLength(6);
    const dma = rows.find((r) => r.source_id === DMA);
    expect(dma?.eurovoc).toEqual([
      { code: "2565", label: "posición dominante" },
      { code: "5267", label: "cartel" },
    ]);
    expect(dma?.record.directoryCodes).toEqual([{ code: "0820", label: "Competencia" }]);
    const consumer = dma?.areas.find((a) => a.id === "consumer");
    expect(consumer?.reasons).toEqual(
      expect.arrayContaining(["EuroVoc 2565 «posición dominante»", "Repertorio EUR-Lex 0820"]),
    );
    // The acts the peer gave no subjects keep none, and lose nothing else.
    for (const row of rows.filter((r) => r.source_id !== DMA)) {
      expect(row.eurovoc, row.source_id).toEqual([]);
      expect(row.areas.length, row.source_id).toBeGreaterThan(0);
    }
  }, 120_000);

  it("when Cellar cannot answer for them: new acts are stored without, stored acts keep theirs, with a warning", async () => {
    const other = await openDatabase({ databaseUrl: undefined });
    await migrate(other, defaultMigrationsDir);
    const warnings: { obj: object; msg?: string }[] = [];
    const log = { ...silent, warn: (obj: object, msg?: string) => warnings.push({ obj, msg }) };
    const run = () => ingestEurlex({ database: other, clients: clients(), log, concurrency: 2, classify });
    const dma = async () =>
      (
        await other.rows<{ eurovoc: { code: string }[]; version: number }>(
          sql`select eurovoc, version from documents where source = 'eurlex' and source_id = ${DMA}`,
        )
      )[0];
    try {
      // First sight, subjects refused: every act is stored all the same, without subjects.
      refuseSubjects = true;
      const first = await run();
      expect(first.failed).toEqual([]);
      expect(first.created).toBe(6);
      const rows = await other.rows<{ source_id: string; eurovoc: unknown[] }>(
        sql`select source_id, eurovoc from documents where source = 'eurlex'`,
      );
      expect(rows).toHaveLength(6);
      for (const row of rows) expect(row.eurovoc, row.source_id).toEqual([]);
      expect(warnings.map((w) => w.msg)).toContain(
        "EUR-Lex: no EuroVoc concepts or directory codes for these acts; new ones stored without, stored ones keep theirs",
      );
      // Then answered: the act gains them, as a new version.
      refuseSubjects = false;
      await run();
      const withSubjects = await dma();
      expect(withSubjects?.eurovoc.map((c) => c.code)).toEqual(["2565", "5267"]);
      // Refused again: the stored act keeps them, and no new version is made.
      refuseSubjects = true;
      await run();
      const after = await dma();
      expect(after?.eurovoc.map((c) => c.code)).toEqual(["2565", "5267"]);
      expect(after?.version).toBe(withSubjects?.version);
    } finally {
      refuseSubjects = false;
      await other.close();
    }
  }, 120_000);
});
