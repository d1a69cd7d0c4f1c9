/**
 * Issue 25 (lawsrc): following consolidated BOE laws against the replay moving in time.
 * - first poll fetches the law once (whole law), a second poll with nothing changed fetches no
 *   block, a change fetches only the changed block (request counts from the replay);
 * - the change list is used when it answers and the per-law check when it answers 404;
 * - a daily act whose relations modify a followed law (BOE-A-2018-16673 MODIFICA art. 28 of
 *   BOE-A-2015-10565, fixtures/laws/README.md) alerts its followers in the same ingestion,
 *   naming the article; after the replay moves on, the consolidated change alerts again with the
 *   new wording and links to the first alert;
 * - reach across two organisations: each organisation's follows alert its own members only, and a
 *   follow of another article is not alerted;
 * - a wording corrected in place (same dates) is found with one whole-law request, not every block.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDigest } from "../../app/.server/alerts/channels/digest/index.ts";
import { databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { alertMatches, deliveries, lawAnnouncements, lawChanges } from "../../app/.server/db/schema.ts";
import { fixturesDir } from "../../app/.server/fixtures-path.ts";
import { textAt } from "../../app/.server/law-texts/model.ts";
import { lawChangePath, loadLawText } from "../../app/.server/law-texts/store.ts";
import { createFollow } from "../../app/.server/laws/follows.ts";
import { matchLawChange, storeLawMatches } from "../../app/.server/laws/matching.ts";
import { finishLawFanOut, lawAlertsFor, lawDocumentStored } from "../../app/.server/laws/service.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { pollAndAlert } from "../../app/.server/sources/consolidated/alerting.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { ingestBoeDay } from "../../app/.server/sources/ingest.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { insertStoredDocument, memoryDirectory, openMigrated } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";

const silent = { info() {}, warn() {}, error() {} };
const LAW = "BOE-A-2015-10565";
const ACT = "BOE-A-2018-16673";

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay?.close();
});

const users = [
  { userId: "u-alfa", email: "ana@alfa.example", language: "es" as const },
  { userId: "u-alfa-2", email: "otro@alfa.example", language: "es" as const },
  { userId: "u-beta", email: "bea@beta.example", language: "en" as const },
  { userId: "u-beta-2", email: "ben@beta.example", language: "en" as const },
];
const directory = memoryDirectory(users, { "g-beta": ["u-beta", "u-beta-2"] });

function lawRequests(since: number) {
  const paths = replay.log.slice(since).map((r) => r.path);
  return {
    all: paths.filter((p) => p.includes("/legislacion-consolidada")),
    blocks: paths.filter((p) => p.includes(`/id/${LAW}/texto/bloque/`)),
    whole: paths.filter((p) => p.endsWith(`/id/${LAW}`)),
  };
}

/** The source's clock is the replay's day (the change list is asked from the last check to "today"). */
function deps(database: Database, today: string) {
  return {
    now: () => new Date(`${today}T12:00:00Z`),
    database,
    http: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 1, backoffMs: 10 }),
    baseUrl: replay.url,
    log: silent,
    lawAlerts: lawAlertsFor(database, directory),
  };
}

async function deliveriesOf(database: Database, documentId: string) {
  return database.db
    .select({ channel: deliveries.channel, recipient: deliveries.recipient, payload: deliveries.payload })
    .from(deliveries)
    .innerJoin(alertMatches, sql`${alertMatches.id}::text = ${deliveries.matchKey}`)
    .where(eq(alertMatches.documentId, documentId));
}

for (const target of databaseTargets()) {
  describe(`followed laws (${target.name})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openMigrated(await target.create());
    });
    afterAll(async () => {
      replay.setFaults([]);
      replay.setLawDate(null, LAW);
      replay.setLawChangeList(true);
      await database?.close();
      await target.cleanup();
    });

    it("alerts the day the act is published, then again with the new wording, linked, only for the article changed", async () => {
      replay.setLawDate("2018-12-05", LAW);
      // Organisation alfa: a member follows articles 28 and 9 (mail now); another member follows article 9 only.
      const alfa = await createFollow(database, "org-alfa", {
        lawId: LAW,
        blockIds: [],
        userId: "u-alfa",
        emailMode: "immediate",
        language: "es",
      });
      expect("follow" in alfa).toBe(true);
      // Organisation beta: a group follows the whole law.
      await createFollow(database, "org-beta", {
        lawId: LAW,
        blockIds: [],
        groupId: "g-beta",
        emailMode: "immediate",
        language: "en",
      });

      // Webhooks: alfa's asks for law.changed, beta's only for matched documents.
      const hookInput = (events: string[]) =>
        webhookInputSchema("en", { allowPrivate: true }).parse({ url: "http://127.0.0.1:9/hook", events });
      const alfaHook = await createWebhook(database.db, "org-alfa", hookInput(["law.changed"]));
      await createWebhook(database.db, "org-beta", hookInput(["document.matched"]));

      // First poll: the law once, as it stood on 2018-12-05.
      let mark = replay.log.length;
      const first = await pollAndAlert(deps(database, "2018-12-05"));
      expect(first.laws).toMatchObject([{ lawId: LAW, status: "first" }]);
      expect(first.changes).toEqual([]);
      expect(lawRequests(mark).whole).toHaveLength(1);
      expect(lawRequests(mark).blocks).toHaveLength(0);
      const before = await loadLawText(database, LAW);
      expect(before?.blocks.find((b) => b.blockId === "a28")?.versions.map((v) => v.normId)).toEqual([LAW]);

      // Now narrow alfa's first follow to chosen articles and add the others.
      await database.db.execute(sql`delete from alert_profiles where organization_id = 'org-alfa'`);
      await createFollow(database, "org-alfa", {
        lawId: LAW,
        blockIds: ["a28", "a9"],
        userId: "u-alfa",
        emailMode: "immediate",
        language: "es",
      });
      await createFollow(database, "org-alfa", {
        lawId: LAW,
        blockIds: ["a9"],
        userId: "u-alfa-2",
        emailMode: "immediate",
        language: "es",
      });

      // Second poll, nothing changed: no block, no whole law.
      mark = replay.log.length;
      const second = await pollAndAlert(deps(database, "2018-12-05"));
      expect(second.changeList).toBe("used");
      expect(second.changes).toEqual([]);
      expect(lawRequests(mark).blocks).toEqual([]);
      expect(lawRequests(mark).whole).toEqual([]);

      // The day the act is published: its relations name article 28 of the followed law.
      const written = readFileSync(path.join(fixturesDir, "laws/BOE-A-2018-16673.daily.xml"), "utf8");
      replay.setFaults([{ pattern: new RegExp(`xml\\.php\\?id=${ACT}$`), kind: "body", body: written }]);
      const warnings: Awaited<ReturnType<typeof lawDocumentStored>> = [];
      const clients = createSourceClients({
        urls: {
          boeApiUrl: replay.url,
          eurlexUrl: replay.url,
          cellarUrl: replay.url,
          cellarSparqlUrl: replay.sparqlUrl,
        },
        siteUrl: "http://localhost:3000",
        perSecond: 10_000,
        retries: 1,
        backoffMs: 10,
      });
      await ingestBoeDay(
        {
          database,
          clients,
          log: silent,
          concurrency: 4,
          onDocument: async (documentId) => {
            warnings.push(...(await lawDocumentStored(database, documentId, directory)));
          },
        },
        "2018-12-06",
      );
      replay.setFaults([]);
      expect(warnings).toHaveLength(1);
      const warning = warnings[0] as (typeof warnings)[number];
      const [announcement] = await database.db.select().from(lawAnnouncements).where(eq(lawAnnouncements.lawId, LAW));
      expect(announcement).toMatchObject({
        actId: ACT,
        articles: ["a28"],
        consolidatedAt: null,
        firstAlertId: warning.changeId,
      });
      const early = await deliveriesOf(database, warning.changeId);
      // alfa's a28+a9 follower (in-app + mail) and beta's two group members (in-app + mail each); not alfa's a9-only follower.
      expect(
        early
          .filter((d) => d.channel === "inapp")
          .map((d) => d.recipient)
          .sort(),
      ).toEqual(["u-alfa", "u-beta", "u-beta-2"]);
      expect(
        early
          .filter((d) => d.channel === "mail")
          .map((d) => d.recipient)
          .sort(),
      ).toEqual(["u-alfa", "u-beta", "u-beta-2"]);
      const earlyInApp = early.find((d) => d.recipient === "u-alfa" && d.channel === "inapp")?.payload as {
        title: string;
        why: unknown;
      };
      // Why (decision 0148): the follow, the act, the followed article it names; kept with the match.
      expect(earlyInApp.why).toMatchObject({
        via: "follow",
        profile: { group: false },
        law: {
          id: LAW,
          change: "announced",
          act: ACT,
          articles: [{ id: "a28", title: expect.stringMatching(/Artículo 28/) }],
        },
      });
      expect(earlyInApp.title).toMatch(/Artículo 28/);
      expect(earlyInApp.title).toMatch(/consolidación pendiente/);
      const earlyMail = early.find((d) => d.recipient === "u-alfa" && d.channel === "mail")?.payload as {
        text: string;
        to: string;
      };
      expect(earlyMail.to).toBe("ana@alfa.example");
      expect(earlyMail.text).toContain(ACT);
      expect(earlyMail.text).toContain("Artículo 28");
      expect(earlyMail.text).toMatch(new RegExp(`Sigues «[^»]+»( \\(«[^»]+»\\))?: ${ACT} modifica Artículo 28`));
      // Each organisation's deliveries carry its own organisation.
      const orgs = await database.rows<{ organization_id: string; recipient: string }>(sql`
        select distinct d.organization_id, d.recipient from deliveries d join alert_matches m on m.id::text = d.match_key
        where m.document_id = ${warning.changeId}::uuid`);
      for (const row of orgs)
        expect(row.organization_id).toBe(row.recipient.startsWith("u-alfa") ? "org-alfa" : "org-beta");

      // The consolidated text catches up: only article 28 is fetched.
      replay.setLawDate("2018-12-06", LAW);
      mark = replay.log.length;
      const third = await pollAndAlert(deps(database, "2018-12-06"));
      expect(lawRequests(mark).blocks.map((p) => p.split("/").at(-1))).toEqual(["a28"]);
      expect(lawRequests(mark).whole).toEqual([]);
      expect(third.changes).toHaveLength(1);
      const changeId = (third.changes[0] as { changeId: string }).changeId;
      const [change] = await database.db.select().from(lawChanges).where(eq(lawChanges.id, changeId));
      expect(change).toMatchObject({
        kind: "consolidated",
        normId: ACT,
        blockIds: ["a28"],
        previousChangeId: warning.changeId,
      });
      const [done] = await database.db.select().from(lawAnnouncements).where(eq(lawAnnouncements.lawId, LAW));
      expect(done?.consolidatedAt).not.toBeNull();
      const late = await deliveriesOf(database, changeId);
      expect(
        late
          .filter((d) => d.channel === "inapp")
          .map((d) => d.recipient)
          .sort(),
      ).toEqual(["u-alfa", "u-beta", "u-beta-2"]);
      const lateMail = late.find((d) => d.recipient === "u-beta" && d.channel === "mail")?.payload as {
        text: string;
        subject: string;
      };
      const after = await loadLawText(database, LAW);
      const a28 = after?.blocks.find((b) => b.blockId === "a28");
      const newWording = a28?.versions.find((v) => v.normId === ACT)?.text ?? "";
      expect(newWording.length).toBeGreaterThan(50);
      expect(lateMail.text).toContain(newWording.slice(0, 200));
      expect(lateMail.text).toContain(`?change=${warning.changeId}`);
      expect(lateMail.text).toMatch(/Your group follows “[^”]+”( \(“[^”]+”\))?: Artículo 28[^\n]* changed/);
      expect(lateMail.text).toMatch(/compare\?block=a28/);
      // The text at a date: the old wording before, the new one from its entry into force.
      const inForce = a28?.versions.find((v) => v.normId === ACT)?.inForceOn as string;
      expect(textAt(after!, "2018-12-05").find((x) => x.block.blockId === "a28")?.version.normId).toBe(LAW);
      expect(textAt(after!, inForce).find((x) => x.block.blockId === "a28")?.version.normId).toBe(ACT);
      // law.changed to alfa's webhook for each change (the warning, then the wording), none to beta's.
      const events = await database.rows<{ recipient: string; payload: { body: Record<string, unknown> } }>(sql`
        select recipient, payload from deliveries where channel = 'webhook' order by created_at`);
      expect(events.map((e) => e.recipient)).toEqual([alfaHook.id, alfaHook.id]);
      expect(events.map((e) => e.payload.body.type)).toEqual(["law.changed", "law.changed"]);
      const lastEvent = events[1]?.payload.body.data as {
        change: { id: string; kind: string; previousChangeId: string };
        law: { id: string };
        blocks: { id: string; compareUrl: string }[];
      };
      expect(lastEvent.change).toMatchObject({
        id: changeId,
        kind: "consolidated",
        previousChangeId: warning.changeId,
      });
      expect(lastEvent.law.id).toBe(LAW);
      expect(lastEvent.blocks.map((b) => b.id)).toEqual(["a28"]);
      expect(lastEvent.blocks[0]?.compareUrl).toMatch(/compare\?block=a28/);
      // Why alfa's webhook hears of it: alfa's follow and the followed article that changed (none of beta's).
      const eventWhy = (
        lastEvent as unknown as {
          why: Array<{ via: string; law: { articles: { id: string }[] }; text: { es: string } }>;
        }
      ).why;
      expect(eventWhy).toHaveLength(1);
      expect(eventWhy[0]).toMatchObject({ via: "follow", law: { change: "consolidated", articles: [{ id: "a28" }] } });
      expect(eventWhy[0]?.text.es).toMatch(/^Sigues «[^»]+»( \(«[^»]+»\))?: ha cambiado Artículo 28/);

      // The alert's link (/app/documents/{change id}) leads to the law's page at that change.
      expect(await lawChangePath(database, changeId)).toBe(`/app/laws/${LAW}?change=${changeId}`);
      expect(await lawChangePath(database, "00000000-0000-4000-8000-000000000000")).toBeUndefined();
      expect(await lawChangePath(database, "not-a-uuid")).toBeUndefined();

      // Nothing for the a9-only follower, ever.
      const quiet = await database.rows(sql`select 1 from deliveries where recipient = 'u-alfa-2'`);
      expect(quiet).toEqual([]);

      // Polling again changes nothing and alerts nobody twice.
      const fourth = await pollAndAlert(deps(database, "2018-12-06"));
      expect(fourth.changes).toEqual([]);
    }, 180_000);

    it("a follow in the daily digest: matched, fanned out once after a stop, no mail at once, listed in the digest", async () => {
      const follow = await createFollow(database, "org-alfa", {
        lawId: LAW,
        blockIds: [],
        userId: "u-alfa-2",
        emailMode: "digest",
        language: "es",
      });
      expect("follow" in follow).toBe(true);
      // The latest change of the law, matched again: only the new follow is a new match.
      const [latest] = await database.rows<{ id: string }>(
        sql`select id from law_changes where law_id = ${LAW} order by created_at desc limit 1`,
      );
      const changeId = latest?.id as string;
      // The matches are stored first; a process stopped before the fan-out leaves them pending.
      const stored = await storeLawMatches(database, changeId, { siteUrl: "https://regwatch.example" });
      expect(stored.newMatches).toBe(1);
      const pending = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from alert_matches where document_id = ${changeId}::uuid and fanout_pending`,
      );
      expect(pending[0]?.n).toBe(1);
      expect((await deliveriesOf(database, changeId)).filter((d) => d.recipient === "u-alfa-2")).toEqual([]);
      // The next poll's sweep finishes it, once, even with two instances sweeping at the same time.
      const swept = await Promise.all([finishLawFanOut(database, directory), finishLawFanOut(database, directory)]);
      expect(swept[0] + swept[1]).toBe(1);
      expect(await finishLawFanOut(database, directory)).toBe(0);
      // Matching the change again finds nothing new.
      const again = await matchLawChange(database, changeId, {
        directory,
        siteUrl: "https://regwatch.example",
        mailFrom: "alerts@regwatch.example",
      });
      expect(again.newMatches).toBe(0);
      const mine = (await deliveriesOf(database, changeId)).filter((d) => d.recipient === "u-alfa-2");
      expect(mine.map((d) => d.channel)).toEqual(["inapp"]);
      const worker = createDeliveryWorker({
        database,
        transport: createMailTransport({ dataDir: "/tmp", log: createLogger("silent") }),
        mailFrom: "alerts@regwatch.example",
        siteUrl: "https://regwatch.example",
        log: createLogger("silent"),
      });
      await worker.drain();
      await worker.stop();
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
      const digest = await buildDigest(
        database,
        { userId: "u-alfa-2", email: "otro@alfa.example", language: "es" },
        today,
        {
          from: "alerts@regwatch.example",
          siteUrl: "https://regwatch.example",
        },
      );
      expect(digest?.subject).toBe(`Resumen del ${today}: 1 documento`);
      expect(digest?.text).toContain(`https://regwatch.example/app/documents/${changeId}`);
      expect(digest?.text).toMatch(/Artículo 28/);
      // That link leads to the law's page at the change.
      expect(await lawChangePath(database, changeId)).toBe(`/app/laws/${LAW}?change=${changeId}`);
    });

    it("never matches a follow of a law against ordinary documents (its empty filters are not 'any')", async () => {
      await createFollow(database, "org-gamma", {
        lawId: LAW,
        blockIds: [],
        userId: "u-alfa",
        emailMode: "immediate",
        language: "es",
      });
      const documentId = await insertStoredDocument(database, { title: "Orden de prueba sobre subvenciones" });
      const result = await matchDocument(database, documentId, {
        loadDocument: databaseDocuments(database),
        directory,
      });
      expect(result.matched).toBe(0);
      const rows = await database.rows(sql`select 1 from alert_matches where document_id = ${documentId}::uuid`);
      expect(rows).toEqual([]);
    });

    it("checks each law by itself when the change list answers 404", async () => {
      replay.setLawChangeList(false);
      replay.setLawDate("2019-11-05", LAW);
      const mark = replay.log.length;
      const result = await pollAndAlert(deps(database, "2019-11-05"));
      replay.setLawChangeList(true);
      expect(result.changeList).toBe("unavailable");
      const requests = lawRequests(mark);
      expect(requests.all.some((p) => p.endsWith(`/id/${LAW}/metadatos`))).toBe(true);
      // Between 2018-12-06 and 2019-11-05 articles 9 and 10 got new versions (Real Decreto-ley 14/2019): only those moved blocks.
      const fetched = requests.blocks.map((p) => p.split("/").at(-1)).sort();
      expect(fetched.length).toBeGreaterThan(0);
      const text = await loadLawText(database, LAW);
      for (const blockId of fetched) {
        expect(
          text?.blocks.find((b) => b.blockId === blockId)?.versions.map((v) => v.publishedOn),
          blockId,
        ).toBeDefined();
        expect(
          text?.blocks
            .find((b) => b.blockId === blockId)
            ?.versions.some((v) => v.publishedOn > "2018-12-06" && v.publishedOn <= "2019-11-05"),
        ).toBe(true);
      }
      expect(fetched.length).toBeLessThan(20);
      // The a9 follower is alerted now (article 9 changed).
      const a9 = await database.rows(sql`select 1 from deliveries where recipient = 'u-alfa-2' and channel = 'inapp'`);
      expect(a9.length).toBeGreaterThan(0);
    });

    it("finds a wording corrected in place with one whole-law request", async () => {
      const law = "BOE-A-2018-16673";
      const follow = await createFollow(database, "org-alfa", {
        lawId: law,
        blockIds: ["pr"],
        userId: "u-alfa",
        emailMode: "off",
        language: "es",
      });
      expect("follow" in follow).toBe(true);
      // The earlier capture: the preamble said "de 5 de diciembre" (README: corrected in place to "de 13 de diciembre").
      const whole = readFileSync(
        path.join(fixturesDir, "sources/boe/datosabiertos/api/legislacion-consolidada/id", `${law}.xml`),
        "utf8",
      );
      const earlier = whole
        .replace(/(<bloque id="pr"[\s\S]*?)de 13 de diciembre/, "$1de 5 de diciembre")
        .replace(
          /<fecha_actualizacion>\d{8}T\d{6}Z<\/fecha_actualizacion>/,
          "<fecha_actualizacion>20251230T060911Z</fecha_actualizacion>",
        );
      expect(earlier).not.toBe(whole);
      replay.setLawDate("2026-01-01", law);
      replay.setFaults([{ pattern: new RegExp(`/id/${law}$`), kind: "body", body: earlier, times: 1 }]);
      await pollAndAlert(deps(database, "2026-01-01"), { only: [law] });
      replay.setFaults([]);
      // Republished (fecha_actualizacion moves) with the same dates.
      replay.setLawDate(null, law);
      const mark = replay.log.length;
      const result = await pollAndAlert(deps(database, "2026-06-01"), { only: [law] });
      const paths = replay.log.slice(mark).map((r) => r.path);
      expect(paths.filter((p) => p.includes(`/id/${law}/texto/bloque/`))).toEqual([]);
      expect(paths.filter((p) => p.endsWith(`/id/${law}`))).toHaveLength(1);
      expect(result.changes).toHaveLength(1);
      const [change] = await database.db
        .select()
        .from(lawChanges)
        .where(and(eq(lawChanges.lawId, law), eq(lawChanges.kind, "consolidated")));
      expect(change?.blockIds).toEqual(["pr"]);
      expect(JSON.stringify(change?.details)).toContain("de 13 de diciembre");
    });
  });
}
