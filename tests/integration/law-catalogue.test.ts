/**
 * The catalogue of laws to follow (issue 39): filled from the replay's BOE consolidated list and
 * Cellar's list of EU acts with consolidated versions, then searched by title, number, identifier
 * and common name in Spanish and English, accents and case aside — on PGlite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL (the same SQL).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { commonNamesTable, searchCatalogue } from "../../app/.server/laws/catalogue.ts";
import { euNumber, syncCatalogue } from "../../app/.server/sources/catalogue/sync.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

let replay: ReplayServer;

beforeAll(async () => {
  replay = await startReplayServer();
}, 60_000);

afterAll(async () => {
  await replay?.close();
});

const http = (source: string) =>
  createSourceHttp({ userAgent: "test", source, perSecond: 1000, retries: 1, backoffMs: 20 });
const silent = { info: () => {}, warn: () => {} };

const BOE_LAWS = [
  "BOE-A-1985-5392",
  "BOE-A-2002-13758",
  "BOE-A-2004-4214",
  "BOE-A-2006-13371",
  "BOE-A-2013-12887",
  "BOE-A-2015-10565",
  "BOE-A-2017-12902",
  "BOE-A-2018-16673",
  "BOE-A-2021-5032",
  "BOE-A-2022-10757",
];
const EU_ACTS = ["32009R1107", "32014R0596", "32014R0910", "32015R2120", "32016R0679", "32021R0953", "32022R1925"];

/** [query, locale, the law it must find first]: by title, number, identifier and common name. */
const TABLE: Array<[string, "es" | "en", string]> = [
  // BOE laws: title words (Spanish), official number, common name and acronym, English name.
  ["Reguladora de las Bases del Régimen Local", "es", "BOE-A-1985-5392"],
  ["Ley 7/1985", "es", "BOE-A-1985-5392"],
  ["LRBRL", "es", "BOE-A-1985-5392"],
  ["local government act", "en", "BOE-A-1985-5392"],
  ["servicios de la sociedad de la informacion", "es", "BOE-A-2002-13758"],
  ["Ley 34/2002", "es", "BOE-A-2002-13758"],
  ["LSSI", "es", "BOE-A-2002-13758"],
  ["e-commerce act", "en", "BOE-A-2002-13758"],
  ["texto refundido de la Ley Reguladora de las Haciendas Locales", "es", "BOE-A-2004-4214"],
  ["Real Decreto Legislativo 2/2004", "es", "BOE-A-2004-4214"],
  ["trlrhl", "es", "BOE-A-2004-4214"],
  ["Local Finance Act", "en", "BOE-A-2004-4214"],
  ["Reglamento General de Subvenciones", "es", "BOE-A-2006-13371"],
  ["Real Decreto 887/2006", "es", "BOE-A-2006-13371"],
  ["General Subsidies Regulation", "en", "BOE-A-2006-13371"],
  ["transparencia acceso a la información pública y buen gobierno", "es", "BOE-A-2013-12887"],
  ["Ley 19/2013", "es", "BOE-A-2013-12887"],
  ["LTAIBG", "es", "BOE-A-2013-12887"],
  ["Transparency Act", "en", "BOE-A-2013-12887"],
  ["Procedimiento Administrativo Común", "es", "BOE-A-2015-10565"],
  ["ley 39/2015", "es", "BOE-A-2015-10565"],
  ["LPACAP", "es", "BOE-A-2015-10565"],
  ["administrative procedure act", "en", "BOE-A-2015-10565"],
  ["Contratos del Sector Público", "es", "BOE-A-2017-12902"],
  ["Ley 9/2017", "es", "BOE-A-2017-12902"],
  ["LCSP", "es", "BOE-A-2017-12902"],
  ["Public Procurement Act", "en", "BOE-A-2017-12902"],
  ["Protección de Datos Personales y garantía de los derechos digitales", "es", "BOE-A-2018-16673"],
  ["Ley Orgánica 3/2018", "es", "BOE-A-2018-16673"],
  ["LOPDGDD", "es", "BOE-A-2018-16673"],
  ["lopdgdd", "en", "BOE-A-2018-16673"],
  ["Spanish data protection act", "en", "BOE-A-2018-16673"],
  ["funcionamiento del sector publico por medios electronicos", "es", "BOE-A-2021-5032"],
  ["Real Decreto 203/2021", "es", "BOE-A-2021-5032"],
  ["E-Government Regulation", "en", "BOE-A-2021-5032"],
  ["Ley General de Telecomunicaciones", "es", "BOE-A-2022-10757"],
  ["Ley 11/2022", "es", "BOE-A-2022-10757"],
  ["LGTel", "es", "BOE-A-2022-10757"],
  ["General Telecommunications Act", "en", "BOE-A-2022-10757"],
  ["BOE-A-2022-10757", "es", "BOE-A-2022-10757"],
  // EU acts: English title words, number, CELEX, common name in both languages and acronym.
  ["placing of plant protection products on the market", "en", "32009R1107"],
  ["1107/2009", "en", "32009R1107"],
  ["productos fitosanitarios", "es", "32009R1107"],
  ["market abuse", "en", "32014R0596"],
  ["596/2014", "es", "32014R0596"],
  ["abuso de mercado", "es", "32014R0596"],
  ["electronic identification and trust services", "en", "32014R0910"],
  ["eIDAS", "es", "32014R0910"],
  ["910/2014", "en", "32014R0910"],
  ["open internet access", "en", "32015R2120"],
  ["2015/2120", "es", "32015R2120"],
  ["neutralidad de la red", "es", "32015R2120"],
  ["GDPR", "en", "32016R0679"],
  ["RGPD", "es", "32016R0679"],
  ["Reglamento General de Protección de Datos", "es", "32016R0679"],
  ["reglamento general de proteccion de datos", "es", "32016R0679"],
  ["General Data Protection Regulation", "en", "32016R0679"],
  ["32016R0679", "es", "32016R0679"],
  ["2016/679", "es", "32016R0679"],
  ["COVID-19 vaccination", "en", "32021R0953"],
  ["certificado COVID digital", "es", "32021R0953"],
  ["2021/953", "en", "32021R0953"],
  ["contestable and fair markets in the digital sector", "en", "32022R1925"],
  ["Digital Markets Act", "en", "32022R1925"],
  ["DMA", "es", "32022R1925"],
  ["Reglamento de Mercados Digitales", "es", "32022R1925"],
  ["32022r1925", "en", "32022R1925"],
];

describe.each(databaseTargets())("law catalogue on $name", (target) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(await target.create());
  }, 240_000);

  afterAll(async () => {
    await database?.close();
    await target.cleanup();
  });

  it("fills from the BOE list (whole, then since the newest update) and the EU list, politely paged", async () => {
    const deps = {
      database,
      boeHttp: http("boe"),
      cellarHttp: http("cellar"),
      boeApiUrl: replay.url,
      cellarSparqlUrl: replay.sparqlUrl,
      log: silent,
      now: () => new Date("2026-06-30T08:00:00Z"),
    };
    const before = replay.requests.length;
    const first = await syncCatalogue(deps);
    expect(first.boe).toEqual({ mode: "full", pages: 1, entries: BOE_LAWS.length });
    expect(first.eu).toEqual({ pages: 1, entries: EU_ACTS.length });
    const asked = replay.requests.slice(before);
    expect(asked.filter((r) => r.includes("legislacion-consolidada"))).toHaveLength(1);
    expect(asked.find((r) => r.includes("legislacion-consolidada"))).not.toMatch(/from=/);
    const ids = await database.rows<{ id: string; source: string; number: string | null }>(
      sql`select id, source, number from law_catalogue order by id`,
    );
    expect(ids.map((r) => r.id).sort()).toEqual([...BOE_LAWS, ...EU_ACTS].sort());
    expect(ids.find((r) => r.id === "32016R0679")?.number).toBe("2016/679");
    expect(ids.find((r) => r.id === "32014R0596")?.number).toBe("596/2014");

    // The next day: only the laws republished since the newest update held (minus a day).
    const again = await syncCatalogue(deps);
    expect(again.boe).toMatchObject({ mode: "since" });
    const since = replay.requests.slice(before).filter((r) => r.includes("legislacion-consolidada"));
    expect(since.at(-1)).toMatch(/from=20260618&to=20260630/);
    // BOE-A-2017-12902 was republished on 2026-06-19, the newest update held: it is listed again.
    expect((again.boe as { entries: number }).entries).toBe(1);
  });

  it.each(TABLE)("finds %j (%s) → %s first", async (q, locale, id) => {
    const result = await searchCatalogue(database, { q }, locale);
    expect(result.items[0]?.id, result.items.map((i) => i.id).join(", ")).toBe(id);
  });

  it("names each entry in the reader's language, with its common names; narrows by source; pages", async () => {
    const es = await searchCatalogue(database, { q: "datos" }, "es");
    const gdprEs = es.items.find((i) => i.id === "32016R0679");
    expect(gdprEs?.commonNames).toEqual(
      expect.arrayContaining(["GDPR", "RGPD", "Reglamento General de Protección de Datos"]),
    );
    const en = await searchCatalogue(database, { q: "datos" }, "en");
    expect(en.items.find((i) => i.id === "32016R0679")?.commonNames).toContain("General Data Protection Regulation");
    const boeOnly = await searchCatalogue(database, { q: "datos", source: "boe" }, "es");
    expect(boeOnly.items.map((i) => i.source)).not.toContain("eu");
    expect(boeOnly.items.map((i) => i.id)).toContain("BOE-A-2018-16673");
    const page = await searchCatalogue(database, { q: "ley", limit: 2 }, "es");
    expect(page.items).toHaveLength(2);
    expect(page.more).toBe(true);
    const next = await searchCatalogue(database, { q: "ley", limit: 2, offset: 2 }, "es");
    expect(next.items.map((i) => i.id)).not.toContain(page.items[0]?.id);
    // The act that names the Ley General de Subvenciones is found by that name.
    const lgs = await searchCatalogue(database, { q: "Ley General de Subvenciones" }, "es");
    expect(lgs.items.map((i) => i.id)).toContain("BOE-A-2006-13371");
    expect((await searchCatalogue(database, { q: "   " }, "es")).items).toEqual([]);
    expect((await searchCatalogue(database, { q: "100%_\\" }, "es")).items).toEqual([]);
  });
});

describe("catalogue helpers", () => {
  it("reads an EU act's number as its title writes it", () => {
    expect(euNumber("32016R0679")).toBe("2016/679");
    expect(euNumber("32014R0596")).toBe("596/2014");
    expect(euNumber("32014L0065")).toBe("2014/65");
    expect(euNumber("BOE-A-2018-16673")).toBeNull();
  });

  it("has a common name for every law and act the fixtures hold", () => {
    const table = commonNamesTable();
    for (const id of [...BOE_LAWS, ...EU_ACTS]) {
      const names = table.get(id);
      expect(names?.es?.length, id).toBeGreaterThan(0);
      expect(names?.en?.length, id).toBeGreaterThan(0);
    }
  });
});
