/**
 * Relevance beyond FULL_RANK_LIMIT matches (decisions 0094 and 0117): the RANK_CANDIDATES ranked
 * are the first of every match by the cheap key (the documents of the areas the query names, then
 * the newest), whichever way the database reads them. Checked against that definition on PGlite,
 * with matches of the named area and text matches of no area in several proportions.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/client.ts";
import { defaultMigrationsDir, migrate } from "../db/migrate.ts";
import { FULL_RANK_LIMIT, RANK_CANDIDATES, type SearchParams, searchDocuments } from "./search.ts";

interface Made {
  sourceId: string;
  publishedOn: string;
  named: boolean;
}

let database: Database;

/** n documents from `first`; `named` ones are data protection (no query word in them), the others say "protección de datos". */
async function make(prefix: string, n: number, named: boolean, dayOffset: number): Promise<Made[]> {
  const areas = named
    ? `jsonb_build_array(jsonb_build_object('id', 'data-protection', 'score', 0.9, 'reasons', '[]'::jsonb))`
    : "null";
  const text = named ? "Reglamento de ficheros municipales" : "Sobre la protección de datos en los registros";
  await database.rows(
    sql.raw(`insert into documents (source, source_id, title, language, titles, published_on, official_url, record, content_hash, body_text, areas)
      select 'boe', '${prefix}-' || g, '${text} ' || g, 'es', jsonb_build_object('es', '${text}'),
        to_char(date '2020-01-01' + ${dayOffset} + g, 'YYYY-MM-DD'), 'https://www.boe.es/', '{"provenance":[]}'::jsonb,
        md5('${prefix}' || g), '${text}', ${areas}
      from generate_series(1, ${n}) g`),
  );
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(Date.UTC(2020, 0, 1 + dayOffset + i + 1));
    return { sourceId: `${prefix}-${i + 1}`, publishedOn: day.toISOString().slice(0, 10), named };
  });
}

/** Every page of a relevance search, in order. */
async function everyPage(params: SearchParams): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await searchDocuments(database, {
      ...params,
      limit: 100,
      facets: false,
      ...(cursor ? { cursor } : {}),
    });
    out.push(...page.items.map((item) => item.sourceId));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** The definition: every match by (named area first, newest, id), the first RANK_CANDIDATES when there are more than FULL_RANK_LIMIT. */
function expectedCandidates(made: Made[]): Set<string> {
  const ordered = [...made].sort(
    (a, b) => Number(b.named) - Number(a.named) || b.publishedOn.localeCompare(a.publishedOn),
  );
  return new Set((made.length > FULL_RANK_LIMIT ? ordered.slice(0, RANK_CANDIDATES) : ordered).map((m) => m.sourceId));
}

beforeAll(async () => {
  database = await openDatabase({});
  await migrate(database, defaultMigrationsDir);
}, 60_000);

afterAll(async () => {
  await database?.close();
});

describe("relevance over many matches", () => {
  it("ranks every match up to the limit", async () => {
    await database.rows(sql`delete from documents`);
    const made = [...(await make("N", 400, true, 0)), ...(await make("T", 300, false, 200))];
    const found = await everyPage({ q: "protección de datos" });
    expect(new Set(found)).toEqual(expectedCandidates(made));
    expect(found).toHaveLength(700);
    // The area's documents first (the boost), then the text matches.
    expect(found.slice(0, 400).every((id) => id.startsWith("N-"))).toBe(true);
  });

  it("beyond it, ranks the named area's newest documents, then the newest text matches", async () => {
    await database.rows(sql`delete from documents`);
    // 300 of the area (older) and 800 text matches (newer): 1,100 matches.
    const made = [...(await make("N", 300, true, 0)), ...(await make("T", 800, false, 400))];
    const found = await everyPage({ q: "protección de datos" });
    expect(found).toHaveLength(RANK_CANDIDATES);
    expect(new Set(found)).toEqual(expectedCandidates(made));
  });

  it("beyond it, with more of the area than candidates, ranks only the area's newest", async () => {
    await database.rows(sql`delete from documents`);
    const made = [...(await make("N", 1_050, true, 0)), ...(await make("T", 60, false, 2_000))];
    const found = await everyPage({ q: "protección de datos" });
    expect(found).toHaveLength(RANK_CANDIDATES);
    expect(new Set(found)).toEqual(expectedCandidates(made));
    expect(found.some((id) => id.startsWith("T-"))).toBe(false);
  });

  it("a query that names no area ranks its newest matches beyond the limit", async () => {
    await database.rows(sql`delete from documents`);
    const made = await make("T", 1_020, false, 0);
    const found = await everyPage({ q: "registros" });
    expect(found).toHaveLength(RANK_CANDIDATES);
    expect(new Set(found)).toEqual(expectedCandidates(made));
  });
});
