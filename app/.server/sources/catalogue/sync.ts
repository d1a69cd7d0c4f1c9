/**
 * Keeps the law catalogue (laws/catalogue.ts) current from the two lists the sources publish:
 * - the BOE's consolidated legislation list (`/datosabiertos/api/legislacion-consolidada`, paged
 *   by `offset`/`limit`, each item a law's metadatos): the whole list the first time, then only
 *   the laws republished since the newest `fecha_actualizacion` held, minus a day (`from`/`to`);
 * - Cellar's EU acts with consolidated versions (one SPARQL query, paged by LIMIT/OFFSET), the
 *   whole list each time: Cellar has no "changed since" for it, and a few thousand acts are a
 *   few pages.
 * Every request goes through the shared polite client of the source's lane (pacing, retries,
 * back-off), so the catalogue shares the BOE's and Cellar's request budgets with the other jobs.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type CatalogueInput, upsertCatalogue } from "../../laws/catalogue.ts";
import { parseChangeList } from "../consolidated/parse.ts";
import { CONSOLIDATED_PATH } from "../consolidated/poll.ts";
import { parseAt } from "../errors.ts";
import { SourceFetchError, type SourceHttp } from "../http.ts";
import { isObj } from "../xml.ts";

export const CATALOGUE_PARSER = "law-catalogue@1";

/** Items per page of the BOE list and of the SPARQL query. */
export const BOE_PAGE = 500;
export const EU_PAGE = 1000;
/** A list never pages further than this (a source that keeps answering full pages). */
const MAX_PAGES = 200;

export interface CatalogueDeps {
  database: Database;
  boeHttp: SourceHttp;
  cellarHttp: SourceHttp;
  boeApiUrl: string;
  cellarSparqlUrl: string;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  now?: () => Date;
}

export interface CatalogueSyncResult {
  boe: { mode: "full" | "since"; pages: number; entries: number } | { failed: string };
  eu: { pages: number; entries: number } | { failed: string };
}

const ymd = (date: Date) => date.toISOString().slice(0, 10).replaceAll("-", "");

/** The newest fecha_actualizacion held for BOE entries, or null (an empty catalogue). */
async function newestBoeUpdate(database: Database): Promise<Date | null> {
  const [row] = await database.rows<{ newest: string | Date | null }>(
    sql`select max(source_updated_at) as newest from law_catalogue where source = 'boe'`,
  );
  return row?.newest ? new Date(row.newest) : null;
}

/** The BOE list: every page from `from` (or the whole list), each page stored as it comes. */
export async function syncBoeCatalogue(
  deps: CatalogueDeps,
): Promise<{ mode: "full" | "since"; pages: number; entries: number }> {
  const newest = await newestBoeUpdate(deps.database);
  const now = deps.now?.() ?? new Date();
  const range = newest ? `from=${ymd(new Date(newest.getTime() - 86_400_000))}&to=${ymd(now)}&` : "";
  const base = `${deps.boeApiUrl.replace(/\/$/, "")}${CONSOLIDATED_PATH}`;
  let entries = 0;
  let pages = 0;
  for (let offset = 0; pages < MAX_PAGES; offset += BOE_PAGE) {
    const url = `${base}?${range}offset=${offset}&limit=${BOE_PAGE}`;
    const payload = await deps.boeHttp.request(url, { headers: { accept: "application/xml" } });
    pages++;
    // "No laws in that range" is a 404 for some answers of this API.
    if (payload.status === 404) break;
    const json = /^\s*[{[\ufeff]/.test(payload.body);
    const items = parseAt(url, () => parseChangeList(payload.body, json ? "json" : "xml"));
    entries += await upsertCatalogue(
      deps.database,
      items.map(
        (item): CatalogueInput => ({
          id: item.id,
          source: "boe",
          title: item.title || item.id,
          titles: item.title ? { es: item.title } : {},
          number: item.number,
          rank: item.rank,
          datedOn: item.datedOn,
          inForce: !item.repealed,
          eli: item.eli,
          sourceUpdatedAt: item.updatedAt,
        }),
      ),
    );
    if (items.length < BOE_PAGE) break;
  }
  return { mode: newest ? "since" : "full", pages, entries };
}

/** The SPARQL query for one page of EU acts that have consolidated versions. */
export function euCatalogueQuery(offset: number, limit = EU_PAGE): string {
  return `PREFIX cdm: <http://publications.europa.eu/ontology/cdm#>
SELECT ?celex (SAMPLE(?t) AS ?title) (SAMPLE(?te) AS ?titleEs) (SAMPLE(?d) AS ?date) (SAMPLE(?f) AS ?force) (SAMPLE(?r) AS ?rtype) (SAMPLE(?e) AS ?eli) WHERE {
  ?consolidated cdm:act_consolidated_consolidates_resource_legal ?work .
  ?work cdm:resource_legal_id_celex ?celex .
  OPTIONAL { ?work cdm:work_date_document ?d }
  OPTIONAL { ?work cdm:resource_legal_in-force ?f }
  OPTIONAL { ?work cdm:work_has_resource-type ?r }
  OPTIONAL { ?work cdm:resource_legal_eli ?e }
  OPTIONAL { ?en cdm:expression_belongs_to_work ?work ;
                 cdm:expression_uses_language <http://publications.europa.eu/resource/authority/language/ENG> ;
                 cdm:expression_title ?t }
  OPTIONAL { ?es cdm:expression_belongs_to_work ?work ;
                 cdm:expression_uses_language <http://publications.europa.eu/resource/authority/language/SPA> ;
                 cdm:expression_title ?te }
} GROUP BY ?celex ORDER BY ?celex LIMIT ${limit} OFFSET ${offset}`;
}

const RANKS: Record<string, string> = {
  REG: "Regulation",
  REG_IMPL: "Implementing Regulation",
  REG_DEL: "Delegated Regulation",
  DIR: "Directive",
  DIR_IMPL: "Implementing Directive",
  DIR_DEL: "Delegated Directive",
  DEC: "Decision",
  DEC_IMPL: "Implementing Decision",
  DEC_DEL: "Delegated Decision",
};

/** An act's official number from its CELEX: regulations before 2015 "596/2014", else "2016/679". */
export function euNumber(celex: string): string | null {
  const m = /^3(\d{4})([A-Z]{1,2})(\d{4})$/.exec(celex);
  if (!m) return null;
  const year = Number(m[1]);
  const number = String(Number(m[3]));
  return m[2] === "R" && year < 2015 ? `${number}/${year}` : `${year}/${number}`;
}

const value = (binding: Record<string, unknown>, name: string): string => {
  const cell = binding[name];
  return isObj(cell) && cell.value !== undefined ? String(cell.value) : "";
};

/** One page of the SPARQL answer as catalogue entries (acts only: sector 3). */
export function parseEuCatalogue(json: string): CatalogueInput[] {
  const parsed = JSON.parse(json) as unknown;
  const bindings = isObj(parsed) && isObj(parsed.results) ? parsed.results.bindings : undefined;
  if (!Array.isArray(bindings)) throw new Error("no SPARQL results");
  const out: CatalogueInput[] = [];
  for (const binding of bindings) {
    if (!isObj(binding)) continue;
    const celex = value(binding, "celex").trim();
    if (!/^3\d{4}[A-Z]{1,2}\d{4}$/.test(celex)) continue;
    const clean = (text: string) => text.replace(/[\s\u00a0]+/g, " ").trim();
    const title = clean(value(binding, "title"));
    const titleEs = clean(value(binding, "titleEs"));
    const date = value(binding, "date").slice(0, 10);
    const force = value(binding, "force");
    const rtype = value(binding, "rtype").split("/").pop() ?? "";
    out.push({
      id: celex,
      source: "eu",
      title: title || titleEs || celex,
      titles: { ...(title ? { en: title } : {}), ...(titleEs ? { es: titleEs } : {}) },
      number: euNumber(celex),
      rank: RANKS[rtype] ?? null,
      datedOn: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
      inForce: force === "" ? true : force === "1" || force === "true",
      eli: value(binding, "eli") || null,
    });
  }
  return out;
}

/** The EU list: every page of the SPARQL query, each stored as it comes. */
export async function syncEuCatalogue(deps: CatalogueDeps): Promise<{ pages: number; entries: number }> {
  let entries = 0;
  let pages = 0;
  for (let offset = 0; pages < MAX_PAGES; offset += EU_PAGE) {
    const payload = await deps.cellarHttp.request(deps.cellarSparqlUrl, {
      method: "POST",
      headers: { "content-type": "application/sparql-query", accept: "application/sparql-results+json" },
      body: euCatalogueQuery(offset),
    });
    pages++;
    if (payload.status === 404) throw new SourceFetchError(payload.url, "HTTP 404", 404);
    const items = parseAt(deps.cellarSparqlUrl, () => parseEuCatalogue(payload.body));
    entries += await upsertCatalogue(deps.database, items);
    if (items.length < EU_PAGE) break;
  }
  return { pages, entries };
}

/** Both lists; one failing does not stop the other (each is logged and reported). */
export async function syncCatalogue(deps: CatalogueDeps): Promise<CatalogueSyncResult> {
  const failed = (error: unknown) => ({ failed: error instanceof Error ? error.message : String(error) });
  let boe: CatalogueSyncResult["boe"];
  try {
    boe = await syncBoeCatalogue(deps);
  } catch (error) {
    boe = failed(error);
    deps.log.warn({ source: "law-catalogue", list: "boe", err: boe.failed }, "BOE catalogue list failed");
  }
  let eu: CatalogueSyncResult["eu"];
  try {
    eu = await syncEuCatalogue(deps);
  } catch (error) {
    eu = failed(error);
    deps.log.warn({ source: "law-catalogue", list: "eu", err: eu.failed }, "EU catalogue list failed");
  }
  // Fresh statistics for the planner (PGlite has no autovacuum; a first load changes everything).
  const written = ("entries" in boe ? boe.entries : 0) + ("entries" in eu ? eu.entries : 0);
  if (written > 0) await deps.database.rows(sql`analyze law_catalogue`);
  deps.log.info({ source: "law-catalogue", boe, eu }, "law catalogue refreshed");
  return { boe, eu };
}
