/**
 * The law page's and the comparison's view models on a recorded law read through the replay
 * (BOE-A-2015-10565, Ley 39/2015): text in force today and on earlier dates, versions per
 * article with the amending act, the comparison by norm and by date, and follows from the form.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { documentChanges } from "../../app/.server/documents/changes.ts";
import { storeDocument } from "../../app/.server/documents/store.ts";
import type { SourceDocument } from "../../app/.server/documents/types.ts";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { compareVersions } from "../../app/.server/laws/compare-page.ts";
import { followFromForm, followsOf, unfollowFromForm } from "../../app/.server/laws/follow-page.ts";
import { lawPageView } from "../../app/.server/laws/page.ts";
import { localTitle } from "../../app/.server/laws/titles.ts";
import { syncCatalogue } from "../../app/.server/sources/catalogue/sync.ts";
import { pollConsolidated } from "../../app/.server/sources/consolidated/poll.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { issueToken } from "../support/api-tokens.ts";
import { memberInfo } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

const LAW = "BOE-A-2015-10565";
const silent = { info() {}, warn() {} };
let replay: ReplayServer;
let database: Database;

beforeAll(async () => {
  replay = await startReplayServer();
  database = await openMigratedDatabase();
  await registerLaw(database, LAW, "boe");
  const http = createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 0 });
  await pollConsolidated({ database, http, baseUrl: replay.url, log: silent }, { only: [LAW] });
  // A migrated PGlite and a whole law read and stored: slow on a loaded 2-core machine.
}, 240_000);

afterAll(async () => {
  await replay?.close();
  await database?.close();
});

const member = memberInfo({ organizationId: "org-a", userId: "user-a" });
const meta = { headers: new Headers(), ip: "127.0.0.1", userAgent: "test" };

describe("the law page", () => {
  it("today: every block in order, article 9 in its 2022 wording, its three versions with dates", async () => {
    const view = await lawPageView(database, member.organizationId, LAW, "2026-06-01", "2026-06-01", { part: "all" });
    expect(view?.law.title).toMatch(/Ley 39\/2015/);
    expect(view?.blocks.length).toBe(195);
    const a9 = view!.blocks.find((b) => b.blockId === "a9")!;
    // The BOE writes "Artículo\u00a09" (a no-break space).
    expect(a9.title.replace(/\s/g, " ")).toBe("Artículo 9");
    expect(a9.versions.map((v) => [v.normId, v.publishedOn, v.inForceOn])).toEqual([
      ["BOE-A-2015-10565", "2015-10-02", "2016-10-02"],
      ["BOE-A-2019-15790", "2019-11-05", "2019-11-06"],
      ["BOE-A-2022-10757", "2022-06-29", "2022-06-30"],
    ]);
    expect(a9.versions.map((v) => v.current)).toEqual([false, false, true]);
    // Not ingested here: the amending act links to the BOE.
    expect(a9.versions[1]?.href).toBe("https://www.boe.es/buscar/act.php?id=BOE-A-2019-15790");
    expect(a9.paragraphs?.[0]).toMatch(/^Artículo 9\. Sistemas de identificación/);
    expect(a9.latestDate).toBe("2022-06-29");
  });

  it("reads the law a part at a time: each block in one part, chosen by number, block or change", async () => {
    const day = "2026-06-01";
    const first = (await lawPageView(database, member.organizationId, LAW, day, day))!;
    expect(first.part).toBe(1);
    expect(first.toc).toHaveLength(195);
    const total = first.parts.length;
    expect(total).toBeGreaterThan(1);
    const seen: string[] = [];
    let atHeading = 0;
    for (let n = 1; n <= total; n++) {
      const view = (await lawPageView(database, member.organizationId, LAW, day, day, { part: String(n) }))!;
      expect(view.part).toBe(n);
      expect(view.blocks.length).toBeGreaterThan(0);
      // Parts open at a heading (a title or chapter) where the law has one close enough; the
      // contents say where each block is.
      if (n > 1 && view.blocks[0]?.heading) atHeading++;
      for (const block of view.blocks) expect(first.toc.find((e) => e.blockId === block.blockId)?.part).toBe(n);
      // Each part is a fraction of the law's text.
      const chars = view.blocks.reduce((sum, b) => sum + (b.paragraphs ?? []).join("").length, 0);
      expect(chars).toBeLessThan(200_000);
      seen.push(...view.blocks.map((b) => b.blockId));
    }
    expect(seen).toEqual(first.toc.map((e) => e.blockId));
    expect(atHeading).toBeGreaterThanOrEqual((total - 1) / 2);
    // By block: the part that holds it; the whole text; a part out of range is the first.
    const lastBlock = first.toc.at(-1)!;
    const byBlock = (await lawPageView(database, member.organizationId, LAW, day, day, { block: lastBlock.blockId }))!;
    expect(byBlock.part).toBe(total);
    expect(byBlock.blocks.map((b) => b.blockId)).toContain(lastBlock.blockId);
    const whole = (await lawPageView(database, member.organizationId, LAW, day, day, { part: "all" }))!;
    expect([whole.part, whole.blocks.length]).toEqual([null, 195]);
    expect((await lawPageView(database, member.organizationId, LAW, day, day, { part: "99" }))!.part).toBe(1);
    // From a change's alert: the part of the first block it changed, and the blocks named.
    const [change] = await database.rows<{ id: string }>(sql`
      insert into law_changes (law_id, kind, block_ids) values (${LAW}, 'consolidated', string_to_array(${lastBlock.blockId}, ','))
      returning id`);
    const fromAlert = (await lawPageView(database, member.organizationId, LAW, day, day, { change: change!.id }))!;
    expect(fromAlert.part).toBe(total);
    expect(fromAlert.change?.blocks).toEqual([{ title: lastBlock.title, anchor: lastBlock.anchor, part: total }]);
    // A change of another law is not this page's.
    const [foreign] = await database.rows<{ id: string }>(sql`
      insert into law_changes (law_id, kind, block_ids) values ('BOE-A-1985-5392', 'consolidated', array['a1'])
      returning id`);
    const notOurs = (await lawPageView(database, member.organizationId, LAW, day, day, { change: foreign!.id }))!;
    expect([notOurs.part, notOurs.change]).toEqual([1, null]);
  });

  it("an earlier date shows the wording in force then; before the law applied, the article was not in force", async () => {
    const in2020 = await lawPageView(database, member.organizationId, LAW, "2020-01-01", "2026-06-01", { block: "a9" });
    const a9 = in2020!.blocks.find((b) => b.blockId === "a9")!;
    expect(a9.versions.find((v) => v.current)?.normId).toBe("BOE-A-2019-15790");
    expect(a9.paragraphs?.join(" ")).toContain(
      "previa autorización por parte de la Secretaría General de Administración Digital",
    );
    // The 2022 version is later than that date: flagged as entering into force later? No: it was not published yet.
    expect(a9.pending).toEqual([]);
    const in2016 = await lawPageView(database, member.organizationId, LAW, "2016-01-01", "2026-06-01", { block: "a9" });
    const early = in2016!.blocks.find((b) => b.blockId === "a9")!;
    expect(early.paragraphs).toBeNull();
    // Published 2015-10-02, in force 2016-10-02: on 2016-01-01 a version that enters into force later.
    expect(early.pending.map((v) => [v.normId, v.inForceOn])).toEqual([["BOE-A-2015-10565", "2016-10-02"]]);
  });

  it("compares two versions by norm or by date; the default is the latest against the one before", async () => {
    const byNorm = await compareVersions(database, LAW, {
      block: "a9",
      from: "BOE-A-2015-10565",
      to: "BOE-A-2019-15790",
    });
    if (!("view" in byNorm)) throw new Error(String(byNorm.problem));
    expect(byNorm.view.diff.identical).toBe(false);
    const p2 = byNorm.view.diff.rows.find((r) => r.kind === "changed");
    expect(p2?.inline.some((s) => s.kind === "del" && s.text.includes("cualquier sistema"))).toBe(true);
    const byDate = await compareVersions(database, LAW, { block: "a9", from: "2017-01-01", to: "2020-01-01" });
    if (!("view" in byDate)) throw new Error(String(byDate.problem));
    expect([byDate.view.from.normId, byDate.view.to.normId]).toEqual(["BOE-A-2015-10565", "BOE-A-2019-15790"]);
    const latest = await compareVersions(database, LAW, { block: "a9" });
    if (!("view" in latest)) throw new Error(String(latest.problem));
    expect([latest.view.from.normId, latest.view.to.normId]).toEqual(["BOE-A-2019-15790", "BOE-A-2022-10757"]);
    expect(await compareVersions(database, LAW, { block: "a9", to: "BOE-A-1999-1" })).toEqual({ problem: "version" });
    expect(await compareVersions(database, LAW, { block: "nope" })).toEqual({ problem: "block" });
    expect(await compareVersions(database, "BOE-A-1900-1", { block: "a9" })).toEqual({ problem: "law" });
  });

  it("follows chosen articles for the member, refuses unknown articles, unfollows", async () => {
    // Articles are chosen on the page of a law the organisation follows (issue 37): the whole law first.
    expect((await followFromForm(database, member, meta, new FormData(), LAW)).ok).toBe(true);
    const wholeId = (await followsOf(database, member, LAW))[0]!.id;
    const form = new FormData();
    form.set("scope", "blocks");
    form.append("block", "a9");
    form.append("block", "a10");
    const made = await followFromForm(database, member, meta, form, LAW);
    // Following the law again changes the member's follow: one follow per law and audience (issue 40).
    expect(made).toMatchObject({ ok: true, lawId: LAW, what: { whole: false }, updated: true });
    expect((await followsOf(database, member, LAW)).map((f) => [f.id, f.blockIds])).toEqual([[wholeId, ["a9", "a10"]]]);
    const [audit] = await database.rows<{ action: string }>(
      sql`select action from audit_events where object_id = ${wholeId} order by seq desc limit 1`,
    );
    expect(audit?.action).toBe("alert_profile.updated");
    expect(made.what?.titles.map((t) => t.replace(/\s/g, " "))).toEqual(["Artículo 9", "Artículo 10"]);
    const bad = new FormData();
    bad.set("scope", "blocks");
    bad.append("block", "a9999");
    expect(await followFromForm(database, member, meta, bad, LAW)).toMatchObject({ ok: false, failure: "badBlocks" });
    const none = new FormData();
    none.set("scope", "blocks");
    expect(await followFromForm(database, member, meta, none, LAW)).toMatchObject({ ok: false, failure: "noBlocks" });
    const typed = new FormData();
    typed.set("law", "not a law");
    expect(await followFromForm(database, member, meta, typed)).toMatchObject({ ok: false, failure: "badLawId" });
    const follows = await followsOf(database, member, LAW);
    expect(follows.map((f) => f.blockIds)).toEqual([["a9", "a10"]]);
    // Another organisation's member cannot remove it.
    const other = memberInfo({ organizationId: "org-b", userId: "user-b" });
    expect((await unfollowFromForm(database, other, meta, follows[0]!.id)).ok).toBe(false);
    expect((await unfollowFromForm(database, member, meta, follows[0]!.id)).ok).toBe(true);
    expect(await followsOf(database, member, LAW)).toEqual([]);
  });

  it("GET /api/v1/laws/{id}/compare: declared in OpenAPI, answers valid against it, 404 and 401 too", async () => {
    const api = await apiServicesFor(database);
    const checker = openApiChecker(
      (await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>,
    );
    const { token } = await issueToken(database, { organizationId: "org-a", scope: "read" });
    const path = "/api/v1/laws/{id}/compare";
    // Only a law the organisation follows is compared (issue 37): org-a follows it again, org-b does not.
    const whole = new FormData();
    expect((await followFromForm(database, member, meta, whole, LAW)).ok).toBe(true);
    const other = await issueToken(database, { organizationId: "org-b", scope: "read" });
    const outside = await callApi(api, `/api/v1/laws/${LAW}/compare?block=a9`, { token: other.token });
    expect(outside.status).toBe(404);
    const ok = await callApi(api, `/api/v1/laws/${LAW}/compare?block=a9&from=BOE-A-2015-10565&to=2020-01-01`, {
      token,
    });
    const body = (await ok.json()) as {
      from: { normId: string };
      to: { normId: string };
      rows: Array<{ kind: string }>;
    };
    expect(ok.status).toBe(200);
    expect(checker.check(path, "get", 200, body)).toEqual([]);
    expect([body.from.normId, body.to.normId]).toEqual(["BOE-A-2015-10565", "BOE-A-2019-15790"]);
    expect(body.rows.some((r) => r.kind === "changed")).toBe(true);
    const missing = await callApi(api, `/api/v1/laws/${LAW}/compare?block=a9&to=BOE-A-1999-1`, { token });
    expect(missing.status).toBe(404);
    expect(checker.check(path, "get", 404, await missing.json())).toEqual([]);
    const anonymous = await callApi(api, `/api/v1/laws/${LAW}/compare?block=a9`);
    expect(anonymous.status).toBe(401);
    expect(checker.check(path, "get", 401, await anonymous.json())).toEqual([]);
  });
  it("an amending act says what it changes: the article's page, the comparison, follow; the law lists it", async () => {
    // Ley 11/2022 as a stored gazette act whose analysis names Ley 39/2015 (held here) and a law
    // not held, beside a citation that changes nothing.
    const act: SourceDocument = {
      source: "boe",
      sourceId: "BOE-A-2022-10757",
      title: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones.",
      language: "es",
      titles: { es: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones." },
      publishedOn: "2022-06-29",
      effectiveDates: ["2022-06-30"],
      officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2022-10757",
      links: {},
      subjects: [],
      alerts: [],
      eurovoc: [],
      directoryCodes: [],
      notes: [],
      relations: [
        {
          type: "modifies",
          code: "270",
          direction: "earlier",
          targetSourceId: LAW,
          label: "MODIFICA el art. 9.2.c) de la Ley 39/2015, de 1 de octubre",
        },
        {
          type: "cites",
          code: "330",
          direction: "earlier",
          targetSourceId: "BOE-A-2014-6726",
          label: "CITA Ley 9/2014",
        },
        {
          type: "repeals",
          code: "210",
          direction: "earlier",
          targetSourceId: "BOE-A-2014-4950",
          label: "DEROGA la Ley 9/2014, de 9 de mayo",
        },
      ],
      paragraphs: [{ kind: "paragraph", text: "Ley General de Telecomunicaciones." }],
      provenance: [],
    };
    const stored = await storeDocument(database, act);
    const id = stored.id;
    // An organisation that does not follow Ley 39/2015 gets the analysis' lines and nothing of
    // the law (its page is the followers' only, decision 0124).
    const outside = await documentChanges(database, id);
    expect(outside.map((c) => [c.lawId, c.verb, c.line])).toEqual([
      [LAW, "modifies", "Modifica el art. 9.2.c) de la Ley 39/2015, de 1 de octubre"],
      ["BOE-A-2014-4950", "repeals", "Deroga la Ley 9/2014, de 9 de mayo"],
    ]);
    expect(outside.map((c) => [c.lawTitle, c.lawPath, c.blockIds, c.consolidated, c.followed])).toEqual([
      [null, null, [], [], false],
      [null, null, [], [], false],
    ]);
    // Its organisation follows it (another member's follow): the article's page and the comparison.
    const changes = await documentChanges(database, id, { reached: new Set([LAW]), followed: new Set() });
    const [held, notHeld] = changes;
    expect(held?.lawTitle).toMatch(/^Ley 39\/2015/);
    expect(held?.blockIds).toEqual(["a9"]);
    expect(held?.lawPath).toBe(`/app/laws/${LAW}?block=a9#b-a9`);
    // The consolidated text already holds this act's wording of article 9: the comparison.
    expect(held?.consolidated.map((b) => [b.blockId, b.comparePath])).toEqual([
      ["a9", `/app/laws/${LAW}/compare?block=a9&to=BOE-A-2022-10757`],
    ]);
    expect([notHeld?.lawTitle, notHeld?.lawPath, notHeld?.blockIds, notHeld?.consolidated]).toEqual([
      null,
      null,
      [],
      [],
    ]);
    expect(changes.map((c) => c.followed)).toEqual([false, false]);
    const mine = await documentChanges(database, id, { reached: new Set([LAW]), followed: new Set([LAW]) });
    expect(mine.map((c) => c.followed)).toEqual([true, false]);

    // The law page lists the acts that amended it, the stored one linked to its page.
    const view = (await lawPageView(database, member.organizationId, LAW, "2026-06-01", "2026-06-01"))!;
    const byAct = view.amendedBy.find((a) => a.actId === "BOE-A-2022-10757");
    expect(byAct).toMatchObject({ href: `/app/documents/${id}`, publishedOn: "2022-06-29" });
    expect(byAct?.blocks).toBeGreaterThanOrEqual(1);
    expect(view.amendedBy.find((a) => a.actId === "BOE-A-2019-15790")?.href).toBe(
      "https://www.boe.es/buscar/act.php?id=BOE-A-2019-15790",
    );
    expect(view.amendedBy.map((a) => a.actId)).not.toContain(LAW);
    const dates = view.amendedBy.map((a) => a.publishedOn);
    expect(dates).toEqual([...dates].sort().reverse());

    // The API: the document's changes and the catalogue, as OpenAPI declares them.
    await syncCatalogue({
      database,
      boeHttp: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 0 }),
      cellarHttp: createSourceHttp({ userAgent: "test", source: "cellar", perSecond: 10_000, retries: 0 }),
      boeApiUrl: replay.url,
      cellarSparqlUrl: replay.sparqlUrl,
      log: silent,
    });
    const api = await apiServicesFor(database);
    const checker = openApiChecker(
      (await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>,
    );
    const { token } = await issueToken(database, { organizationId: "org-a", scope: "read" });
    const doc = await callApi(api, `/api/v1/documents/${id}`, { token });
    const body = (await doc.json()) as { changes: Array<{ lawId: string; line: string; consolidated: unknown[] }> };
    expect(doc.status).toBe(200);
    expect(checker.check("/api/v1/documents/{id}", "get", 200, body)).toEqual([]);
    expect(body.changes.map((c) => c.lawId)).toEqual([LAW, "BOE-A-2014-4950"]);
    const found = await callApi(api, "/api/v1/laws/catalogue?q=LPACAP&lang=en", { token });
    const result = (await found.json()) as { items: Array<{ id: string; commonNames: string[] }>; more: boolean };
    expect(found.status).toBe(200);
    expect(checker.check("/api/v1/laws/catalogue", "get", 200, result)).toEqual([]);
    expect(result.items[0]?.id).toBe(LAW);
    expect(result.items[0]?.commonNames).toContain("Common Administrative Procedure Act");
    const gdpr = (await (await callApi(api, "/api/v1/laws/catalogue?q=rgpd&source=eu", { token })).json()) as {
      items: Array<{ id: string }>;
    };
    expect(gdpr.items.map((i) => i.id)).toEqual(["32016R0679"]);
    const noQuery = await callApi(api, "/api/v1/laws/catalogue?q=", { token });
    expect(noQuery.status).toBe(422);
    expect(checker.check("/api/v1/laws/catalogue", "get", 422, await noQuery.json())).toEqual([]);
    expect((await callApi(api, "/api/v1/laws/catalogue?q=ley")).status).toBe(401);
  });

  it("names a law in the reader's language where the catalogue has Cellar's title in it (the GDPR in Spanish)", async () => {
    const GDPR = "32016R0679";
    await database.db.execute(sql`
      insert into law_catalogue (id, source, title, titles) values (${GDPR}, 'eu',
        'Regulation (EU) 2016/679 of the European Parliament and of the Council',
        ${JSON.stringify({
          en: "Regulation (EU) 2016/679 of the European Parliament and of the Council",
          es: "Reglamento (UE) 2016/679 del Parlamento Europeo y del Consejo",
        })}::jsonb)
      on conflict (id) do update set titles = excluded.titles`);
    expect(await localTitle(database, GDPR, "as stored", "es")).toBe(
      "Reglamento (UE) 2016/679 del Parlamento Europeo y del Consejo",
    );
    expect(await localTitle(database, GDPR, "as stored", "en")).toMatch(/^Regulation \(EU\) 2016\/679/);
    // A law the catalogue has in one language only keeps its own title in the other.
    await database.db.execute(sql`
      insert into law_catalogue (id, source, title, titles)
      values (${LAW}, 'boe', 'Ley 39/2015 (catálogo)', ${JSON.stringify({ es: "Ley 39/2015 (catálogo)" })}::jsonb)
      on conflict (id) do update set titles = excluded.titles`);
    expect((await followFromForm(database, member, meta, new FormData(), LAW)).ok).toBe(true);
    const [spanish] = await followsOf(database, member, LAW, "es");
    const [english] = await followsOf(database, member, LAW, "en");
    expect(spanish?.lawTitle).toBe("Ley 39/2015 (catálogo)");
    expect(english?.lawTitle).toMatch(/^Ley 39\/2015, de 1 de octubre/);
    expect((await unfollowFromForm(database, member, meta, spanish!.id)).ok).toBe(true);
  });
});
