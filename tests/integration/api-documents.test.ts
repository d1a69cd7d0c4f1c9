/**
 * GET /api/v1/documents, /documents/{id}, /sources and POST /sources/{id}/run against documents
 * ingested from the recorded BOE day 2018-12-06 and the EUR-Lex feed, every answer checked
 * against the served OpenAPI document.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import type { AppServices } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { sourceFeeds } from "../../app/.server/db/schema/documents.ts";
import { storeDocument } from "../../app/.server/documents/store.ts";
import { recordStatus } from "../../app/.server/sources/ingest.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { issueToken } from "../support/api-tokens.ts";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

type Doc = Record<string, unknown> & { id: string; sourceId: string; publishedOn: string };
type Page = { items: Doc[]; nextCursor: string | null };

const documentKeys = [
  "areas",
  "department",
  "effectiveDates",
  "id",
  "jurisdiction",
  "kind",
  "language",
  "officialUrl",
  "provenance",
  "publishedOn",
  "rank",
  "relevance",
  "sample",
  "source",
  "sourceId",
  "title",
  "titles",
];

for (const target of databaseTargets()) {
  describe(`documents and sources API on ${target.name}`, () => {
    let database: Database;
    let api: Awaited<ReturnType<typeof apiServicesFor>>;
    let checker: ReturnType<typeof openApiChecker>;
    let ids: Map<string, string>;
    let feedId = "";
    const tokens = { readA: "", adminA: "", readB: "" };

    const get = async (path: string, token = tokens.readA) => {
      const response = await callApi(api, path, { token });
      return { response, body: (await response.json()) as unknown };
    };
    const allPages = async (query: string) => {
      const seen: Doc[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const { response, body } = await get(
          `/api/v1/documents?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        expect(response.status).toBe(200);
        expect(checker.check("/api/v1/documents", "get", 200, body)).toEqual([]);
        const page = body as Page;
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 100);
      return { seen, pages };
    };

    beforeAll(async () => {
      database = await openMigratedDatabase(await target.create());
      api = await apiServicesFor(database);
      ids = await ingestRecorded(database, ["2018-12-06"]);
      // A later norm that modifies the LOPDGDD (a stored target) and cites an unknown one.
      await storeDocument(database, {
        source: "boe",
        sourceId: "BOE-A-2099-1",
        language: "es",
        title: "Ley 1/2099, de reforma de la protección de datos",
        titles: { es: "Ley 1/2099, de reforma de la protección de datos" },
        publishedOn: "2099-01-02",
        effectiveDates: ["2099-01-03"],
        officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2099-1",
        links: {},
        subjects: [],
        alerts: [],
        eurovoc: [],
        directoryCodes: [],
        notes: [],
        relations: [
          {
            type: "modifies",
            targetSourceId: "BOE-A-2018-16673",
            label: "MODIFICA la Ley Orgánica 3/2018",
            direction: "earlier",
          },
          { type: "cites", targetSourceId: "BOE-A-1900-1", label: "CITA una norma antigua", direction: "earlier" },
        ],
        paragraphs: [
          { kind: "heading", text: "Artículo único" },
          { kind: "paragraph", text: "Se modifica el artículo 1." },
        ],
        provenance: [
          {
            url: "https://www.boe.es/diario_boe/xml.php?id=BOE-A-2099-1",
            fetchedAt: "2099-01-02T08:00:00.000Z",
            sha256: "a".repeat(64),
            parser: "boe-document@1",
          },
        ],
      });
      ids.set(
        "BOE-A-2099-1",
        (await database.rows<{ id: string }>(sql`select id from documents where source_id = 'BOE-A-2099-1'`))[0]?.id ??
          "",
      );
      // A feed entry of organisation B's feed: out of A's reach.
      const [feed] = await database.db
        .insert(sourceFeeds)
        .values({ organizationId: "org-b", url: "https://cnmv.example/rss", name: "CNMV" })
        .returning();
      feedId = feed?.id ?? "";
      const stored = await storeDocument(
        database,
        {
          source: "feed",
          sourceId: "cnmv-1",
          language: "es",
          title: "Comunicado de la CNMV",
          titles: { es: "Comunicado de la CNMV" },
          publishedOn: "2018-12-06",
          effectiveDates: [],
          officialUrl: "https://cnmv.example/1",
          links: {},
          subjects: [],
          alerts: [],
          eurovoc: [],
          directoryCodes: [],
          notes: [],
          relations: [],
          paragraphs: [{ kind: "paragraph", text: "Comunicado" }],
          provenance: [
            {
              url: "https://cnmv.example/rss",
              fetchedAt: "2018-12-06T08:00:00.000Z",
              sha256: "b".repeat(64),
              parser: "feed@1",
            },
          ],
          feedName: "CNMV",
        },
        { feedId },
      );
      ids.set("cnmv-1", stored.id);
      const token = async (organizationId: string, scope: "read" | "admin") =>
        (await issueToken(database, { organizationId, scope })).token;
      tokens.readA = await token("org-a", "read");
      tokens.adminA = await token("org-a", "admin");
      tokens.readB = await token("org-b", "read");
      const response = await callApi(api, "/api/v1/openapi.json");
      checker = openApiChecker((await response.json()) as Record<string, unknown>);
    }, 180_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("lists the newest documents first, 20 by default, in the contract's shape", async () => {
      const { response, body } = await get("/api/v1/documents");
      expect(response.status).toBe(200);
      expect(checker.check("/api/v1/documents", "get", 200, body)).toEqual([]);
      const page = body as Page;
      expect(page.items).toHaveLength(20);
      expect(page.nextCursor).toEqual(expect.any(String));
      expect(page.items[0]?.sourceId).toBe("BOE-A-2099-1");
      expect(Object.keys(page.items[0] ?? {}).sort()).toEqual(documentKeys);
      const dates = page.items.map((item) => item.publishedOn);
      expect([...dates].sort().reverse()).toEqual(dates);
      const day = (await get("/api/v1/documents?from=2018-12-06&to=2018-12-06&limit=100")).body as Page;
      const lopd = day.items.find((item) => item.sourceId === "BOE-A-2018-16673");
      expect(lopd).toMatchObject({
        id: ids.get("BOE-A-2018-16673"),
        source: "boe",
        language: "es",
        title:
          "Ley Orgánica 3/2018, de 5 de diciembre, de Protección de Datos Personales y garantía de los derechos digitales.",
        publishedOn: "2018-12-06",
        kind: "organic-law",
        rank: "Ley Orgánica",
        jurisdiction: "ES",
        relevance: "high",
        officialUrl: expect.stringContaining("BOE-A-2018-16673"),
        sample: false,
      });
      expect(((lopd?.provenance ?? []) as { sha256: string }[])[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("pages through every reachable document with the cursor, without duplicates or gaps", async () => {
      const [count] = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from documents where source <> 'feed'`,
      );
      const { seen, pages } = await allPages("limit=7");
      expect(seen).toHaveLength(count?.n ?? -1);
      expect(new Set(seen.map((item) => item.id)).size).toBe(seen.length);
      expect(pages).toBe(Math.ceil((count?.n ?? 0) / 7));
      expect(seen.map((item) => item.sourceId)).not.toContain("cnmv-1");
      // Relevance order with q pages by offset: same guarantees.
      const byRelevance = await allPages("q=datos&limit=2");
      const direct = await get("/api/v1/documents?q=datos&limit=100");
      expect(byRelevance.seen.map((item) => item.id)).toEqual((direct.body as Page).items.map((item) => item.id));
      expect(byRelevance.seen.length).toBeGreaterThan(2);
    });

    it("filters by source, jurisdiction, kind, relevance, area and dates", async () => {
      const eurlex = (await get("/api/v1/documents?source=eurlex&limit=100")).body as Page;
      expect(eurlex.items.map((item) => item.sourceId).sort()).toEqual([
        "32014R0596",
        "32014R0910",
        "32015R2120",
        "32016R0679",
        "32021R0953",
        "32022R1925",
      ]);
      expect(eurlex.items.every((item) => item.jurisdiction === "EU" && item.language === "en")).toBe(true);

      const organic = (await get("/api/v1/documents?kind=organic-law&jurisdiction=ES&limit=100")).body as Page;
      expect(organic.items.map((item) => item.sourceId).sort()).toEqual(["BOE-A-2018-16672", "BOE-A-2018-16673"]);

      const [low] = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from documents where relevance = 'low' and source <> 'feed'`,
      );
      const lowPage = (await get("/api/v1/documents?relevance=low&limit=100")).body as Page;
      expect(lowPage.items).toHaveLength(low?.n ?? -1);
      expect(lowPage.items.every((item) => item.relevance === "low")).toBe(true);

      const dataProtection = (await get("/api/v1/documents?area=data-protection&limit=100")).body as Page;
      expect(dataProtection.items.length).toBeGreaterThan(0);
      for (const item of dataProtection.items) {
        expect((item.areas as { id: string }[]).map((area) => area.id)).toContain("data-protection");
      }

      const range = (await get("/api/v1/documents?from=2014-01-01&to=2015-12-31&limit=100")).body as Page;
      expect(range.items.map((item) => item.sourceId)).toEqual(["32015R2120", "32014R0910", "32014R0596"]);
    });

    it("searches full text with accents ignored, phrases and exclusions; an English query reaches Spanish areas", async () => {
      const found = async (q: string, extra = "") =>
        ((await get(`/api/v1/documents?q=${encodeURIComponent(q)}&limit=100${extra}`)).body as Page).items
          .map((item) => item.sourceId)
          .sort();
      const accented = await found("protección datos personales");
      expect(accented).toContain("BOE-A-2018-16673");
      expect(await found("proteccion datos personales")).toEqual(accented);
      expect(await found('"derechos digitales"')).toContain("BOE-A-2018-16673");
      expect(await found("datos -digitales")).not.toContain("BOE-A-2018-16673");
      expect(await found("personal data")).toContain("32016R0679");
      // No Spanish text says "banking": the area's English name reaches the Spanish banking documents.
      const banking = await database.rows<{ source_id: string }>(
        sql`select source_id from documents where language = 'es' and areas @> '[{"id":"banking"}]'::jsonb`,
      );
      expect(banking.length).toBeGreaterThan(0);
      expect(await found("banking", "&source=boe")).toEqual(banking.map((row) => row.source_id).sort());
      // sort=date overrides relevance.
      const byDate = (await get("/api/v1/documents?q=datos&sort=date&limit=100")).body as Page;
      const dates = byDate.items.map((item) => item.publishedOn);
      expect([...dates].sort().reverse()).toEqual(dates);
    });

    it("answers 422 with field errors for bad parameters", async () => {
      for (const [query, field] of [
        ["limit=101", "limit"],
        ["limit=0", "limit"],
        ["from=2024-13-01", "from"],
        ["to=yesterday", "to"],
        ["source=twitter", "source"],
        ["area=astrology", "area"],
        ["kind=poem", "kind"],
        ["relevance=urgent", "relevance"],
        ["sort=title", "sort"],
        ["cursor=%21%21", "cursor"],
      ] as const) {
        const { response, body } = await get(`/api/v1/documents?${query}`);
        expect(response.status, query).toBe(422);
        expect(Object.keys((body as { fieldErrors: Record<string, string[]> }).fieldErrors)).toEqual([field]);
        expect(checker.check("/api/v1/documents", "get", 422, body)).toEqual([]);
      }
      const garbled = await get(`/api/v1/documents?sort=date&cursor=${Buffer.from("{").toString("base64url")}`);
      expect(garbled.response.status).toBe(422);
      expect((garbled.body as { fieldErrors: Record<string, string[]> }).fieldErrors).toEqual({
        cursor: ["Cursor no válido"],
      });
    });

    it("returns one document with its text and relations, linked when the target is stored", async () => {
      const id = ids.get("BOE-A-2099-1") ?? "";
      const { response, body } = await get(`/api/v1/documents/${id}`);
      expect(response.status).toBe(200);
      expect(checker.check("/api/v1/documents/{id}", "get", 200, body)).toEqual([]);
      const detail = body as Doc & { text: string; relations: unknown[]; changes: unknown[] };
      expect(Object.keys(detail).sort()).toEqual([...documentKeys, "changes", "relations", "text"].sort());
      // What it changes: the modifying line (its law not held here), not the citation.
      expect(detail.changes).toEqual([
        {
          lawId: "BOE-A-2018-16673",
          verb: "modifies",
          line: "Modifica la Ley Orgánica 3/2018",
          text: "la Ley Orgánica 3/2018",
          lawTitle: null,
          blockIds: [],
          lawPath: null,
          consolidated: [],
          followed: false,
        },
      ]);
      expect(detail.text).toBe("Artículo único\n\nSe modifica el artículo 1.");
      expect(detail.effectiveDates).toEqual(["2099-01-03"]);
      expect(detail.relations).toEqual([
        { type: "cites", targetSourceId: "BOE-A-1900-1", documentId: null, label: "CITA una norma antigua" },
        {
          type: "modifies",
          targetSourceId: "BOE-A-2018-16673",
          documentId: ids.get("BOE-A-2018-16673"),
          label: "MODIFICA la Ley Orgánica 3/2018",
        },
      ]);
      // And the other way round: the LOPDGDD names the norm that modifies it.
      const lopd = (await get(`/api/v1/documents/${ids.get("BOE-A-2018-16673")}`)).body as {
        relations: unknown[];
        changes: unknown[];
      };
      expect(lopd.changes).toEqual([]);
      expect(lopd.relations).toEqual([
        {
          type: "modifies:inverse",
          targetSourceId: "BOE-A-2099-1",
          documentId: id,
          label: "MODIFICA la Ley Orgánica 3/2018",
        },
      ]);
      const gdpr = (await get(`/api/v1/documents/${ids.get("32016R0679")}`)).body as { text: string };
      expect(gdpr.text).toContain("natural persons");
    });

    it("answers 404 for an unknown id, a malformed one, or another organisation's feed entry", async () => {
      for (const id of ["00000000-0000-4000-8000-000000000000", "nope", ids.get("cnmv-1")]) {
        const { response, body } = await get(`/api/v1/documents/${id}`);
        expect(response.status, id).toBe(404);
        expect(checker.check("/api/v1/documents/{id}", "get", 404, body)).toEqual([]);
      }
      // Organisation B added that feed: its entry is within B's reach, and in its listings.
      const own = await get(`/api/v1/documents/${ids.get("cnmv-1")}`, tokens.readB);
      expect(own.response.status).toBe(200);
      const listing = (await get("/api/v1/documents?source=feed", tokens.readB)).body as Page;
      expect(listing.items.map((item) => item.sourceId)).toEqual(["cnmv-1"]);
    });

    it("answers 401 without a token and 403 to a read token on the sources", async () => {
      for (const path of ["/api/v1/documents", `/api/v1/documents/${ids.get("BOE-A-2018-16673")}`, "/api/v1/sources"]) {
        const response = await callApi(api, path);
        expect(response.status, path).toBe(401);
      }
      const listing = await callApi(api, "/api/v1/sources", { token: tokens.readA });
      expect(listing.status).toBe(403);
      const run = await callApi(api, "/api/v1/sources/boe/run", { token: tokens.readA, method: "POST" });
      expect(run.status).toBe(403);
      expect(checker.check("/api/v1/sources/{id}/run", "post", 403, await run.json())).toEqual([]);
    });

    it("lists the sources with their status; a feed only to its organisation", async () => {
      await database.rows(sql`delete from source_status`);
      await recordStatus(database, "boe", { ok: true, added: 3 });
      await recordStatus(database, "eurlex", { ok: false, error: "HTTP 503", url: "https://eur-lex.europa.eu/x" });
      const { response, body } = await get("/api/v1/sources", tokens.adminA);
      expect(response.status).toBe(200);
      expect(checker.check("/api/v1/sources", "get", 200, body)).toEqual([]);
      const sources = body as {
        id: string;
        lastSuccessAt: string | null;
        lastError: string | null;
        documentsToday: number;
      }[];
      expect(sources.map((s) => s.id)).toEqual(["boe", "eurlex"]);
      expect(sources[0]).toMatchObject({ lastError: null, documentsToday: 3 });
      expect(Date.now() - Date.parse(sources[0]?.lastSuccessAt ?? "")).toBeLessThan(60_000);
      expect(sources[1]).toEqual({
        id: "eurlex",
        lastSuccessAt: null,
        lastError: "HTTP 503",
        lastErrorKind: "http",
        lastErrorPast: false,
        documentsToday: 0,
      });
      const adminB = (await issueToken(database, { organizationId: "org-b", name: "b", scope: "admin" })).token;
      const forB = (await get("/api/v1/sources", adminB)).body as { id: string }[];
      expect(forB.map((s) => s.id)).toEqual(["boe", "eurlex", feedId]);
    });

    it("runs a source now (202, audited), 503 when ingestion is off, 404 for another's feed", async () => {
      const queued: string[] = [];
      const services = {
        ingestJobs: {
          start: async () => {},
          stop: async () => {},
          runSourceNow: async (id: string) => {
            queued.push(id);
            return "job-1";
          },
        },
        config: { sources: { ingest: ["boe", "eurlex"] } },
      } as unknown as Partial<AppServices>;
      const run = await callApi(api, "/api/v1/sources/boe/run", { token: tokens.adminA, method: "POST", services });
      expect(run.status).toBe(202);
      const body = await run.json();
      expect(body).toEqual({ id: "boe", jobId: "job-1" });
      expect(checker.check("/api/v1/sources/{id}/run", "post", 202, body)).toEqual([]);
      expect(queued).toEqual(["boe"]);
      const events = await listAuditEvents(database.db, "org-a", { action: "source.run_requested" });
      expect(events.items.map((e) => [e.action, e.object, e.actor?.id])).toEqual([
        ["source.run_requested", { type: "source", id: "boe" }, "admin-org-a"],
      ]);

      const other = await callApi(api, `/api/v1/sources/${feedId}/run`, {
        token: tokens.adminA,
        method: "POST",
        services,
      });
      expect(other.status).toBe(404);
      expect(queued).toEqual(["boe"]);

      const off = await callApi(api, "/api/v1/sources/eurlex/run", {
        token: tokens.adminA,
        method: "POST",
        headers: { "accept-language": "en" },
      });
      expect(off.status).toBe(503);
      const offBody = await off.json();
      expect(offBody).toEqual({
        statusCode: 503,
        statusMessage: "Ingestion is turned off on this server (INGEST_SOURCES=none): nothing can run now.",
      });
      expect(checker.check("/api/v1/sources/{id}/run", "post", 503, offBody)).toEqual([]);
    });
  });
}
