/** Search on PGlite and PostgreSQL: accents, stemming (es, en), phrases, exclusions, filters, facets, cursors, safe snippets, getDocument. */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { getDocument, SearchParamsError, safeSnippet, searchDocuments } from "../../app/.server/documents/search.ts";
import { storeDocument } from "../../app/.server/documents/store.ts";
import type { Classification, SourceDocument } from "../../app/.server/documents/types.ts";
import { databaseTargets } from "../support/postgres.ts";

function doc(sourceId: string, title: string, body: string, extra: Partial<SourceDocument> = {}): SourceDocument {
  return {
    source: "boe",
    sourceId,
    language: "es",
    title,
    titles: { es: title },
    publishedOn: "2024-01-10",
    effectiveDates: [],
    officialUrl: `https://www.boe.es/diario_boe/txt.php?id=${sourceId}`,
    links: {},
    subjects: [],
    alerts: [],
    eurovoc: [],
    directoryCodes: [],
    notes: [],
    relations: [],
    paragraphs: [{ kind: "paragraph", text: body }],
    provenance: [
      {
        url: `https://www.boe.es/diario_boe/xml.php?id=${sourceId}`,
        fetchedAt: "2024-01-10T08:00:00.000Z",
        sha256: "0".repeat(64),
        parser: "boe-document@1",
      },
    ],
    ...extra,
  };
}

const classification = (area: string, jurisdiction: string, kind: string): Classification => ({
  areas: [{ id: area, score: 0.9, reasons: ["test"] }],
  jurisdiction,
  jurisdictionReason: "test",
  kind,
  kindReason: "test",
  relevance: "high",
  relevanceReason: "test",
  classifierVersion: "test@1",
});

const corpus: Array<[SourceDocument, Classification]> = [
  [
    doc(
      "BOE-A-2024-1",
      "Ley Orgánica de protección de datos personales",
      "Esta ley regula la protección de datos personales y garantiza los derechos digitales.",
      {
        publishedOn: "2024-01-05",
        relations: [
          {
            type: "repeals",
            code: "210",
            targetSourceId: "BOE-A-2024-2",
            label: "DEROGA el Real Decreto",
            direction: "earlier",
          },
        ],
      },
    ),
    classification("data-protection", "ES", "organic-law"),
  ],
  [
    doc(
      "BOE-A-2024-2",
      "Real Decreto sobre entidades de crédito",
      "Las entidades bancarias supervisadas por el Banco de España.",
      { publishedOn: "2024-01-06" },
    ),
    classification("banking", "ES", "royal-decree"),
  ],
  [
    doc("32016R0679", "Regulation on the processing of personal data", "Processing operations shall be lawful.", {
      source: "eurlex",
      language: "en",
      titles: { en: "Regulation on the processing of personal data" },
      publishedOn: "2016-05-04",
    }),
    classification("data-protection", "EU", "regulation"),
  ],
  [
    doc("BOE-A-2024-4", "Anuncio con marcas", "Texto <script>alert(1)</script> sobre protección de datos & más.", {
      publishedOn: "2024-01-08",
    }),
    classification("data-protection", "ES", "announcement"),
  ],
  [
    doc("BOE-A-2024-5", "Resolución sobre datos abiertos", "Publicación de datos abiertos del sector público.", {
      publishedOn: "2024-01-09",
    }),
    classification("public-sector", "ES", "resolution"),
  ],
];

for (const target of databaseTargets()) {
  describe(`search on ${target.name}`, () => {
    let database: Database;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl: await target.create() });
      await migrate(database, defaultMigrationsDir);
      for (const [d, c] of corpus) ids[d.sourceId] = (await storeDocument(database, d, { classify: () => c })).id;
    }, 120_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });
    const found = async (q: string, extra = {}) =>
      (await searchDocuments(database, { q, ...extra })).items.map((i) => i.sourceId).sort();

    it("ignores accents", async () => {
      // "protección de datos" names the data-protection area: its English regulation comes too.
      expect(await found("proteccion de datos")).toEqual(["32016R0679", "BOE-A-2024-1", "BOE-A-2024-4"]);
      expect(await found("PROTECCIÓN")).toEqual(["BOE-A-2024-1", "BOE-A-2024-4"]);
    });

    it("stems Spanish and English", async () => {
      expect(await found("bancaria supervisada")).toEqual(["BOE-A-2024-2"]);
      expect(await found("processes")).toEqual(["32016R0679"]);
      expect(await found("regulations")).toEqual(["32016R0679"]);
    });

    it("handles phrases and exclusions", async () => {
      // A phrase is searched as typed: no translations, no area.
      expect(await found('"datos personales"')).toEqual(["BOE-A-2024-1"]);
      expect(await found('"datos de carácter personal"')).toEqual([]);
      expect(await found("datos -abiertos")).not.toContain("BOE-A-2024-5");
      expect(await found("datos abiertos")).toEqual(["BOE-A-2024-5"]);
    });

    it("reaches Spanish documents from English queries, the named area's documents first", async () => {
      // Spanish texts only: "data protection" reaches them through the translations and the area.
      const english = await searchDocuments(database, { q: "data protection" });
      expect(english.items.map((i) => i.sourceId).sort()).toEqual(["32016R0679", "BOE-A-2024-1", "BOE-A-2024-4"]);
      expect(await found("credit institutions")).toEqual(["BOE-A-2024-2"]);
      // The area's documents rank before a document that only shares a word.
      const ranked = await searchDocuments(database, { q: "protección de datos" });
      expect(
        ranked.items
          .map((i) => i.sourceId)
          .slice(0, 3)
          .sort(),
      ).toEqual(["32016R0679", "BOE-A-2024-1", "BOE-A-2024-4"]);
      // Title weighs more than body text: the law naming it in its title first.
      expect(ranked.items[0]?.sourceId).toBe("BOE-A-2024-1");
    });

    it("finds word* prefixes", async () => {
      expect(await found("banc*")).toEqual(["BOE-A-2024-2"]);
      expect(await found("superv* entidad*")).toEqual(["BOE-A-2024-2"]);
      expect(await found("zzzq*")).toEqual([]);
    });

    it("filters and counts facets", async () => {
      expect(await found("bancaria", { jurisdiction: "EU" })).toEqual([]);
      expect(await found("personal", { jurisdiction: "EU" })).toEqual(["32016R0679"]);
      const all = await searchDocuments(database, { area: "data-protection" });
      expect(all.items.map((i) => i.sourceId).sort()).toEqual(["32016R0679", "BOE-A-2024-1", "BOE-A-2024-4"]);
      expect(all.facets?.source).toEqual({ boe: 2, eurlex: 1 });
      expect(all.facets?.area).toMatchObject({ "data-protection": 3, banking: 1 });
      expect(all.facets?.jurisdiction).toEqual({ EU: 1, ES: 2 });
      // Counts of the dimensions without a filter of their own come from one grouped pass: they
      // must equal counting each dimension on its own over the same documents.
      const counted = async (column: string, where: string) =>
        Object.fromEntries(
          (
            await database.rows<{ key: string; n: number }>(
              sql.raw(
                `select ${column} as key, count(*)::int as n from documents d where ${where} and ${column} is not null group by 1`,
              ),
            )
          ).map((row) => [row.key, row.n]),
        );
      const narrowed = await searchDocuments(database, { q: "datos", source: "boe" });
      for (const column of ["jurisdiction", "kind", "relevance"] as const) {
        expect(narrowed.facets?.[column], column).toEqual(
          await counted(
            column,
            "d.source = 'boe' and (d.search_es @@ websearch_to_tsquery('es_unaccent', 'datos') or d.search_en @@ websearch_to_tsquery('en_unaccent', 'datos'))",
          ),
        );
      }
      expect(narrowed.facets?.source).toEqual(
        await counted(
          "source",
          "(d.search_es @@ websearch_to_tsquery('es_unaccent', 'datos') or d.search_en @@ websearch_to_tsquery('en_unaccent', 'datos'))",
        ),
      );
      const dated = await searchDocuments(database, { from: "2024-01-06", to: "2024-01-08", source: "boe" });
      expect(dated.items.map((i) => i.sourceId)).toEqual(["BOE-A-2024-4", "BOE-A-2024-2"]);
      expect(dated.items[0]).toMatchObject({
        kind: "announcement",
        jurisdiction: "ES",
        relevance: "high",
        sample: false,
      });
      expect(dated.items[0]?.provenance[0]?.parser).toBe("boe-document@1");
    });

    it("paginates with an opaque cursor, by date and by relevance", async () => {
      for (const params of [{}, { q: "datos" }]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 10; i++) {
          const page = await searchDocuments(database, { ...params, limit: 2, cursor, facets: false });
          seen.push(...page.items.map((x) => x.sourceId));
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
        const full = await searchDocuments(database, { ...params, limit: 100, facets: false });
        expect(seen).toEqual(full.items.map((x) => x.sourceId));
        expect(new Set(seen).size).toBe(seen.length);
      }
      await expect(searchDocuments(database, { limit: 101 })).rejects.toThrow(SearchParamsError);
      await expect(searchDocuments(database, { cursor: "%%%" })).rejects.toThrow(SearchParamsError);
    });

    it("highlights matches in escaped snippets", async () => {
      const result = await searchDocuments(database, { q: "proteccion", source: "boe" });
      const hit = result.items.find((i) => i.sourceId === "BOE-A-2024-4");
      expect(hit?.snippet).toContain("<mark>protección</mark>");
      expect(hit?.snippet).toContain("&amp; más");
      expect(hit?.snippet).not.toContain("<script");
      expect(safeSnippet('<img src=x onerror="y"> \u27e6a\u27e7 & b')).toBe(
        "&lt;img src=x onerror=&quot;y&quot;&gt; <mark>a</mark> &amp; b",
      );
      expect(hit?.snippet?.replace(/<\/?mark>/g, "")).not.toMatch(/[<>]/);
    });

    it("returns a document with its text and relations, linked both ways", async () => {
      const detail = await getDocument(database, ids["BOE-A-2024-1"] ?? "");
      expect(detail?.text).toContain("protección de datos personales");
      expect(detail?.relations).toEqual([
        {
          type: "repeals",
          targetSourceId: "BOE-A-2024-2",
          documentId: ids["BOE-A-2024-2"],
          label: "DEROGA el Real Decreto",
        },
      ]);
      const target = await getDocument(database, ids["BOE-A-2024-2"] ?? "");
      expect(target?.relations).toEqual([
        {
          type: "repeals:inverse",
          targetSourceId: "BOE-A-2024-1",
          documentId: ids["BOE-A-2024-1"],
          label: "DEROGA el Real Decreto",
        },
      ]);
      expect(await getDocument(database, "not-a-uuid")).toBeNull();
    });
  });
}

describe("relevance over every match (PGlite)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrate(database, defaultMigrationsDir);
    // 600 recent documents that mention the word once in their text, and one old document
    // about it in its title: ranking only the newest 500 matches (decision 0053) missed it.
    await database.rows(sql`
      insert into documents (source, source_id, title, language, titles, published_on, official_url, record, content_hash, body_text)
      select 'boe', 'BOE-A-2025-' || g, 'Resolución número ' || g, 'es', jsonb_build_object('es', 'Resolución número ' || g),
        to_char(date '2025-01-01' + g, 'YYYY-MM-DD'), 'https://www.boe.es/', '{"provenance":[]}'::jsonb, md5(g::text),
        'Texto largo de la resolución que menciona de pasada una subvención entre otras muchas cosas.'
      from generate_series(1, 600) g`);
    await database.rows(sql`
      insert into documents (source, source_id, title, language, titles, published_on, official_url, record, content_hash, body_text)
      values ('boe', 'BOE-A-2010-1', 'Real Decreto de subvenciones', 'es', '{"es":"Real Decreto de subvenciones"}'::jsonb,
        '2010-01-01', 'https://www.boe.es/', '{"provenance":[]}'::jsonb, 'x', 'Bases reguladoras de las subvenciones.')`);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("puts the best match first however old it is, and pages through every match", async () => {
    const first = await searchDocuments(database, { q: "subvenciones", limit: 5, facets: false });
    expect(first.items[0]?.sourceId).toBe("BOE-A-2010-1");
    let seen = first.items.length;
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await searchDocuments(database, { q: "subvenciones", limit: 100, cursor, facets: false });
      seen += page.items.length;
      cursor = page.nextCursor;
    }
    expect(seen).toBe(601);
  });
});
