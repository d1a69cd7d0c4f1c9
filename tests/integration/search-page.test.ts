/**
 * The search page's loader (/app/search) in-process on the recorded BOE day 2018-12-06 and the
 * EUR-Lex feed: the URL is the state (filters, cursor pages), facet counts, safe snippets, 422
 * with field errors, and the rendered GET form that works without JavaScript.
 */
import { sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import type { Facets } from "../../app/.server/documents/search.ts";
import type { ResultItem } from "../../app/routes/app/search.server.ts";
import * as searchRoute from "../../app/routes/app/search.tsx";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { memberInfo, pageContext, pageRequest } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

interface Loaded {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  items: ResultItem[];
  total: number | null;
  facets: Facets | null;
  nextHref: string | null;
  firstHref: string | null;
}

/** The page as its route renders it, inside a router (its forms need one: the saved-search form). */
function page(data: unknown) {
  const Page = () =>
    createElement(searchRoute.default as never, { loaderData: data, params: {}, matches: [] } as never);
  const Stub = createRoutesStub([{ path: "/app/search", Component: Page }]);
  return createElement(Stub, { initialEntries: ["/app/search"] });
}

describe("search page loader", () => {
  let database: Database;
  const ana = memberInfo();
  const english = memberInfo({ locale: "en" });

  /** The loader's data and status (a 422 comes wrapped in data()). */
  const search = async (query: string, member = ana) => {
    const result = (await searchRoute.loader(
      pageRequest(`/app/search${query}`, pageContext(database, member)) as unknown as Parameters<
        typeof searchRoute.loader
      >[0],
    )) as unknown;
    if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
      const wrapped = result as unknown as { data: Loaded; init: { status: number } };
      return { status: wrapped.init.status, data: wrapped.data };
    }
    return { status: 200, data: result as Loaded };
  };

  beforeAll(async () => {
    database = await openMigratedDatabase();
    await ingestRecorded(database, ["2018-12-06"]);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("lists every document newest first with facet counts and a total", async () => {
    const [all] = await database.rows<{ n: number }>(sql`select count(*)::int as n from documents`);
    const { status, data } = await search("");
    expect(status).toBe(200);
    expect(data.total).toBe(all?.n);
    expect(data.items).toHaveLength(20);
    expect(data.items.map((item) => item.sourceId).slice(0, 2)).toEqual(["32022R1925", "32021R0953"]);
    expect(data.facets?.source).toEqual({ boe: (all?.n ?? 0) - 6, eurlex: 6 });
    expect(data.nextHref).toMatch(/^\/app\/search\?cursor=[\w-]+&page=2$/);
    expect(data.firstHref).toBeNull();
  });

  it("pages with the links' cursors, without duplicates or gaps, keeping the filters", async () => {
    const [boe] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from documents where source = 'boe'`,
    );
    const seen: string[] = [];
    let href: string | null = "?source=boe";
    let pages = 0;
    while (href && pages < 20) {
      const { data } = await search(href.replace("/app/search", ""));
      seen.push(...data.items.map((item) => item.id));
      expect(data.items.every((item) => item.source === "boe")).toBe(true);
      if (pages > 0) expect(data.firstHref).toBe("/app/search?source=boe");
      href = data.nextHref;
      if (href) expect(href).toContain("source=boe");
      pages++;
    }
    expect(seen).toHaveLength(boe?.n ?? -1);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("searches full text with filters, facets narrowed by the other filters, and safe highlighted snippets", async () => {
    const { data } = await search("?q=protecci%C3%B3n+de+datos&jurisdiction=ES");
    const ids = data.items.map((item) => item.sourceId);
    expect(ids).toContain("BOE-A-2018-16673");
    expect(data.items.every((item) => item.jurisdiction === "ES")).toBe(true);
    const lopd = data.items.find((item) => item.sourceId === "BOE-A-2018-16673");
    expect(lopd?.snippet).toMatch(/<mark>Protección<\/mark>/i);
    expect(lopd?.snippet?.replace(/<\/?mark>/g, "")).not.toMatch(/[<>]/);
    expect(data.facets?.jurisdiction.ES).toBe(data.total);
    expect(data.total).toBe(data.items.length);
    // A facet ignores its own filter: the other kinds stay visible to switch to.
    const regulations = await search("?kind=regulation");
    expect(regulations.data.items.map((item) => item.kind)).toEqual(Array(6).fill("regulation"));
    expect(regulations.data.facets?.kind.regulation).toBe(6);
    expect(regulations.data.facets?.kind["organic-law"]).toBe(2);
    expect(regulations.data.facets?.source).toEqual({ eurlex: 6 });
    const accentless = await search("?q=proteccion+de+datos&jurisdiction=ES");
    expect(accentless.data.items.map((item) => item.sourceId)).toEqual(ids);
  });

  it("answers 422 with field errors in the reader's language and keeps the typed values", async () => {
    const bad = await search("?q=ley&from=2024-13-40&relevance=urgent");
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["from", "relevance"]);
    expect(bad.data.values).toMatchObject({ q: "ley", from: "2024-13-40", relevance: "urgent" });
    expect(bad.data.items).toEqual([]);
    const cursor = await search("?cursor=bm9wZQ&sort=date", english);
    expect(cursor.status).toBe(422);
    expect(cursor.data.errors).toEqual({ cursor: ["Check the highlighted fields."] });
  });

  it("renders a labelled GET form with the values, the results linked to their pages, and the next page link", async () => {
    const { data } = await search("?q=datos&source=boe");
    const html = renderToStaticMarkup(page(data));
    expect(html).toMatch(/<search aria-label="Buscar"><form [^>]*action="\/app\/search" method="get">/);
    expect(html).toMatch(/<label for="search-q" class="form-label">Buscar en el texto<\/label>/);
    expect(html).toContain('value="datos"');
    expect(html).toMatch(/<option value="boe" selected="">BOE \(\d+\)<\/option>/);
    for (const item of data.items) expect(html).toContain(`href="/app/documents/${item.id}"`);
    expect(html).not.toContain("&lt;mark&gt;");
  });

  it("speaks English to an English-speaking member", async () => {
    const { data } = await search("?q=personal+data&jurisdiction=EU", english);
    expect(data.items.map((item) => item.sourceId)).toContain("32016R0679");
    const html = renderToStaticMarkup(page(data));
    expect(html).toMatch(/<label for="search-q" class="form-label">Search the text<\/label>/);
    expect(html).toMatch(/<option value="EU" selected="">European Union \(\d+\)<\/option>/);
    expect(html).toContain("Clear filters");
    expect(html).toMatch(/Published on \d{1,2} \w{3,4} 20\d\d/);
    expect(html).not.toMatch(/Buscar|Filtros|Publicado/);
  });
});
