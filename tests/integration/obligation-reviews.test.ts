/**
 * Issue 39: obligations anchored to an article of a followed law, on PGlite and PostgreSQL, with
 * the recorded consolidated BOE-A-2015-10565 moving in time through the replay server (its block
 * a28 gets the wording of BOE-A-2018-16673 on 2018-12-06; fixtures/laws/README.md):
 * - organisation A records an obligation on article 28 (and one on article 9) over the API, as the
 *   OpenAPI document declares; B, which does not follow the law, gets 404;
 * - the poll that writes a28's new version opens a review on the a28 obligation only, in the same
 *   transaction: the owner's in-app notification, a mail delivered to a real SMTP peer, the digest,
 *   and an `obligation.review_needed` event a real HTTP receiver gets signed (Standard Webhooks);
 *   B, following the law too, hears nothing;
 * - the review shows the word-level comparison; the decision re-anchors the obligation to the new
 *   version, is kept with actor and time, audited, and in the evidence pack (the act's document
 *   pack and the period's).
 */
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDigest } from "../../app/.server/alerts/channels/digest/index.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import { createApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { createContactStore } from "../../app/.server/contact/store.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { team, teamMember } from "../../app/.server/db/schema/auth.ts";
import { buildEvidencePack } from "../../app/.server/evidence/pack.ts";
import { createFollow } from "../../app/.server/laws/follows.ts";
import { lawAlertsFor } from "../../app/.server/laws/service.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { createOutboxWorker, defaultOutboxSettings } from "../../app/.server/outbox/worker.ts";
import { pollAndAlert } from "../../app/.server/sources/consolidated/alerting.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { digestDeadlines } from "../../app/.server/triage/digest-deadlines.ts";
import { configureReviewLinks, reviewPathOf } from "../../app/.server/triage/law-anchors.ts";
import { memoryDirectory, startReceiver } from "../support/alerts-fixtures.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

const log = createLogger("silent");
const silent = { info() {}, warn() {}, error() {} };
const LAW = "BOE-A-2015-10565";
const ACT = "BOE-A-2018-16673";
const SITE = "https://regwatch.example";

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
});
afterAll(async () => {
  await replay?.close();
});

for (const target of databaseTargets()) {
  describe(`obligations anchored to a law's article (${target.name})`, () => {
    let database: Database;
    let api: Awaited<ReturnType<typeof apiServicesFor>>;
    let checker: ReturnType<typeof openApiChecker>;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let sink: SmtpSink;
    let hookSecret = "";
    const tokens = { ana: "", carl: "" };
    const ids = { a28: "", a9: "" };

    const call = async (path: string, token: string, init: { method?: string; body?: unknown; lang?: string } = {}) => {
      const response = await callApi(api, path, {
        token,
        ...(init.method ? { method: init.method } : {}),
        headers: {
          ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(init.lang ? { "accept-language": init.lang } : {}),
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      const text = await response.text();
      const body = text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
      return { status: response.status, body };
    };
    const valid = (path: string, method: string, status: number, body: unknown) =>
      expect(checker.check(path, method, status, body)).toEqual([]);
    const deps = (today: string) => ({
      now: () => new Date(`${today}T12:00:00Z`),
      database,
      http: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 1, backoffMs: 10 }),
      baseUrl: replay.url,
      log: silent,
      lawAlerts: lawAlertsFor(database, memoryDirectory([], {})),
    });

    beforeAll(async () => {
      configureReviewLinks(SITE);
      database = await openMigratedDatabase(await target.create());
      api = await apiServicesFor(database);
      receiver = await startReceiver();
      sink = await startSmtpSink();
      await ensureMember(database, { organizationId: "org-a", userId: "ana", email: "ana@a.example" });
      await ensureMember(database, { organizationId: "org-a", userId: "bea", email: "bea@a.example", role: "member" });
      await ensureMember(database, { organizationId: "org-b", userId: "carl", email: "carl@b.example" });
      await database.rows(sql`update auth_user set locale = 'en' where id = 'bea'`);
      await database.db
        .insert(team)
        .values({ id: "team-b", name: "B", organizationId: "org-b", createdAt: new Date() });
      await database.db.insert(teamMember).values({ id: "tm-b", teamId: "team-b", userId: "carl" });
      const token = async (organizationId: string, createdBy: string) =>
        (await createApiToken(database.db, { organizationId, name: createdBy, scope: "read", createdBy })).token;
      tokens.ana = await token("org-a", "ana");
      tokens.carl = await token("org-b", "carl");
      const hookInput = (name: string) =>
        webhookInputSchema("en", { allowPrivate: true }).parse({
          url: `${receiver.base}/hooks/${name}`,
          events: ["obligation.review_needed", "obligation.updated"],
        });
      hookSecret = (await createWebhook(database.db, "org-a", hookInput("a"))).secret;
      await createWebhook(database.db, "org-b", hookInput("b"));
      // A follows articles 9 and 28; the law's text as it stood on 2018-12-05 (before the act).
      replay.setLawDate("2018-12-05", LAW);
      const follow = await createFollow(database, "org-a", {
        lawId: LAW,
        blockIds: [],
        userId: "ana",
        emailMode: "off",
        language: "es",
      });
      expect("follow" in follow).toBe(true);
      const first = await pollAndAlert(deps("2018-12-05"));
      expect(first.laws).toMatchObject([{ lawId: LAW, status: "first" }]);
      checker = openApiChecker((await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>);
    }, 240_000);
    afterAll(async () => {
      replay.setLawDate(null, LAW);
      await receiver?.stop();
      await sink?.stop();
      await database?.close();
      await target.cleanup();
    });

    it("records an obligation on an article of a followed law; another organisation's law is 404", async () => {
      const body = { block: "a28", title: "Aportar documentos al procedimiento", owner: { userId: "bea" } };
      expect(checker.checkRequest("/api/v1/laws/{id}/obligations", "post", body)).toEqual([]);
      const made = await call(`/api/v1/laws/${LAW}/obligations`, tokens.ana, { method: "POST", body });
      expect(made.status).toBe(201);
      valid("/api/v1/laws/{id}/obligations", "post", 201, made.body);
      expect(made.body).toMatchObject({
        anchorKind: "article",
        documentId: null,
        anchor: "a28",
        reviewNeeded: false,
        law: { id: LAW, blockId: "a28", version: { normId: LAW } },
        owner: { type: "user", id: "bea" },
      });
      expect(made.body.law.blockTitle).toMatch(/^Artículo 28/);
      expect(made.body.excerpt).toMatch(/^Artículo 28\. Documentos aportados/);
      ids.a28 = made.body.id;
      // Article 9 at its first version, by its norm; owned by nobody (its creator is told).
      const a9 = await call(`/api/v1/laws/${LAW}/obligations`, tokens.ana, {
        method: "POST",
        body: { block: "a9", version: LAW, title: "Identificar a los interesados" },
      });
      expect(a9.status).toBe(201);
      ids.a9 = a9.body.id;
      const listed = await call(`/api/v1/laws/${LAW}/obligations`, tokens.ana);
      expect(listed.status).toBe(200);
      valid("/api/v1/laws/{id}/obligations", "get", 200, listed.body);
      expect(listed.body.map((o: { id: string }) => o.id).sort()).toEqual([ids.a28, ids.a9].sort());
      const one = await call(`/api/v1/obligations/${ids.a28}`, tokens.ana);
      valid("/api/v1/obligations/{id}", "get", 200, one.body);

      // B does not follow the law: not found, as the laws API; bad input in the caller's language.
      expect((await call(`/api/v1/laws/${LAW}/obligations`, tokens.carl, { method: "POST", body })).status).toBe(404);
      expect((await call(`/api/v1/laws/${LAW}/obligations`, tokens.carl)).status).toBe(404);
      expect((await call(`/api/v1/obligations/${ids.a28}`, tokens.carl)).status).toBe(404);
      const bad = await call(`/api/v1/laws/${LAW}/obligations`, tokens.ana, {
        method: "POST",
        body: { block: "a999", title: "Nada" },
        lang: "es",
      });
      expect(bad.status).toBe(422);
      expect(bad.body.fieldErrors.block).toEqual(["Elige un artículo de la ley donde está la obligación."]);
      const badVersion = await call(`/api/v1/laws/${LAW}/obligations`, tokens.ana, {
        method: "POST",
        body: { block: "a28", version: "BOE-A-1999-1", title: "Nada más" },
        lang: "en",
      });
      expect(badVersion.status).toBe(422);
      expect(badVersion.body.fieldErrors.version).toEqual(["Choose a version of that article."]);
      // The review API answers "no review pending" before the article changes.
      const early = await call(`/api/v1/obligations/${ids.a28}/review`, tokens.ana, {
        method: "POST",
        body: { decision: "still_applies" },
        lang: "en",
      });
      expect(early.status).toBe(422);
      expect(early.body.fieldErrors.decision).toEqual(["This obligation has no review pending."]);
    });

    it("sends the a28 obligation to review when the poll writes the article's new wording, and tells its owner only", async () => {
      // B follows the whole law too (its group): it must hear nothing of A's obligations.
      await createFollow(database, "org-b", {
        lawId: LAW,
        blockIds: [],
        groupId: "team-b",
        emailMode: "off",
        language: "en",
      });
      replay.setLawDate("2018-12-06", LAW);
      const polled = await pollAndAlert(deps("2018-12-06"));
      expect(polled.changes).toHaveLength(1);

      const reviews = await database.rows<{ obligation_id: string; decision: string | null }>(
        sql`select obligation_id::text as obligation_id, decision from obligation_reviews`,
      );
      expect(reviews).toEqual([{ obligation_id: ids.a28, decision: null }]);
      const one = await call(`/api/v1/obligations/${ids.a28}`, tokens.ana);
      expect(one.body.reviewNeeded).toBe(true);
      expect((await call(`/api/v1/obligations/${ids.a9}`, tokens.ana)).body.reviewNeeded).toBe(false);
      const register = await call("/api/v1/obligations?review=1", tokens.ana);
      valid("/api/v1/obligations", "get", 200, register.body);
      expect(register.body.map((o: { id: string }) => o.id)).toEqual([ids.a28]);

      // In-app: the owner (bea) only, linked to the review page.
      const inapp = await database.rows<{ user_id: string; document_id: string; title: string }>(
        sql`select user_id, document_id::text as document_id, title from alerts order by id`,
      );
      expect(inapp.map((row) => row.user_id)).toEqual(["bea"]);
      expect(inapp[0]?.title).toMatch(/^Review needed: Aportar documentos/);
      expect(await reviewPathOf(database.db, "org-a", inapp[0]!.document_id)).toBe(
        `/app/obligations/${ids.a28}/review`,
      );
      expect(await reviewPathOf(database.db, "org-b", inapp[0]!.document_id)).toBeUndefined();

      // Mail: through the platform outbox to a real SMTP peer, in bea's language.
      const outbox = createOutboxWorker({
        database,
        store: createContactStore(database, "x".repeat(32)),
        transport: createMailTransport({ smtpUrl: sink.url, dataDir: "/tmp", log }),
        mail: { from: "web@regwatch.example", to: "sales@regwatch.example", siteUrl: SITE },
        settings: { ...defaultOutboxSettings, pollMs: 50 },
        log,
      });
      expect(await outbox.drain()).toBeGreaterThanOrEqual(1);
      await outbox.stop();
      const mails = sink.messages.filter((m) => m.raw.includes("obligations/"));
      expect(mails.map((m) => m.to)).toEqual([["bea@a.example"]]);
      expect(mails[0]?.headers.subject).toContain("Review needed");
      // Quoted-printable: soft line breaks joined.
      expect(mails[0]?.raw.replace(/=\r?\n/g, "")).toContain(`${SITE}/app/obligations/${ids.a28}/review`);

      // The digest lists the review for bea, not for carl.
      const deadlines = await digestDeadlines(database, "bea", "2018-12-07");
      expect(deadlines).toMatchObject([{ kind: "review", title: "Aportar documentos al procedimiento" }]);
      expect(await digestDeadlines(database, "carl", "2018-12-07")).toEqual([]);
      const digest = await buildDigest(
        database,
        { userId: "bea", email: "bea@a.example", language: "en" },
        "2018-12-07",
        { from: "alerts@regwatch.example", siteUrl: SITE, deadlines: digestDeadlines },
      );
      expect(digest?.text).toContain("Review the obligation “Aportar documentos al procedimiento”");
      expect(digest?.text).toContain(`${SITE}/app/obligations/${ids.a28}/review`);

      // Webhook: A's receiver gets obligation.review_needed signed; B's nothing.
      const worker = createDeliveryWorker({
        database,
        transport: createMailTransport({ dataDir: "/tmp", log }),
        mailFrom: "alerts@regwatch.example",
        siteUrl: SITE,
        settings: { retryBaseMs: 50, retryMaxMs: 100, httpTimeoutMs: 2000, allowPrivateUrls: true },
        log,
      });
      await worker.drain();
      await worker.stop();
      const got = receiver.received.filter((r) => r.path === "/hooks/a" && r.body.includes("review_needed"));
      expect(got).toHaveLength(1);
      const event = new Webhook(hookSecret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as {
        type: string;
        data: { obligation: { id: string }; law: { id: string }; block: { id: string }; version: { normId: string } };
      };
      expect(event.type).toBe("obligation.review_needed");
      expect(event.data.obligation.id).toBe(ids.a28);
      expect(event.data.law.id).toBe(LAW);
      expect(event.data.block.id).toBe("a28");
      expect(event.data.version.normId).toBe(ACT);
      // A tampered body fails the signature check.
      expect(() =>
        new Webhook(hookSecret).verify(
          got[0]!.body.replace(ids.a28, ids.a9),
          got[0]!.headers as Record<string, string>,
        ),
      ).toThrow();
      expect(receiver.received.filter((r) => r.path === "/hooks/b")).toHaveLength(0);
      // The system's change is audited (no actor).
      const audited = (await listAuditEvents(database.db, "org-a", { action: "obligation.review_needed" })).items;
      expect(audited.map((e) => [e.object?.id, e.actor])).toEqual([[ids.a28, null]]);

      // A poll with nothing new opens nothing more.
      await pollAndAlert(deps("2018-12-06"));
      expect(await database.rows(sql`select 1 from obligation_reviews`)).toHaveLength(1);
    });

    it("shows the word-level comparison and records the decision: re-anchored, audited, in the evidence pack", async () => {
      const review = await call(`/api/v1/obligations/${ids.a28}/review`, tokens.ana);
      expect(review.status).toBe(200);
      valid("/api/v1/obligations/{id}/review", "get", 200, review.body);
      expect(review.body.review).toMatchObject({ decision: null, from: { normId: LAW }, to: { normId: ACT } });
      expect(review.body.diff.insertedWords + review.body.diff.deletedWords).toBeGreaterThan(0);
      expect((await call(`/api/v1/obligations/${ids.a28}/review`, tokens.carl)).status).toBe(404);

      const bad = await call(`/api/v1/obligations/${ids.a28}/review`, tokens.ana, {
        method: "POST",
        body: { decision: "maybe" },
        lang: "es",
      });
      expect(bad.status).toBe(422);
      expect(bad.body.fieldErrors.decision).toEqual([
        "Elige una decisión: sigue aplicando, ha cambiado o ya no aplica.",
      ]);
      const body = {
        decision: "changed",
        text: "Aportar los documentos salvo los ya en poder de la Administración.",
        note: "LO 3/2018",
      };
      expect(checker.checkRequest("/api/v1/obligations/{id}/review", "post", body)).toEqual([]);
      const decided = await call(`/api/v1/obligations/${ids.a28}/review`, tokens.ana, { method: "POST", body });
      expect(decided.status).toBe(200);
      valid("/api/v1/obligations/{id}/review", "post", 200, decided.body);
      expect(decided.body.obligation).toMatchObject({
        reviewNeeded: false,
        description: body.text,
        law: { version: { normId: ACT } },
      });
      expect(decided.body.review).toMatchObject({ decision: "changed", note: "LO 3/2018", decidedBy: { id: "ana" } });
      const again = await call(`/api/v1/obligations/${ids.a28}/review`, tokens.ana, { method: "POST", body });
      expect(again.status).toBe(422);

      const audited = (await listAuditEvents(database.db, "org-a", { action: "obligation.reviewed" })).items;
      expect(audited).toHaveLength(1);
      expect(audited[0]?.actor).toEqual({ id: "ana", email: "ana@a.example" });
      expect(audited[0]?.object).toEqual({ type: "obligation", id: ids.a28 });

      // The evidence pack: the act's document pack and the period's both hold the chain.
      await database.rows(sql`insert into documents (source, source_id, title, language, published_on, official_url,
        record, content_hash) values ('boe', ${ACT}, 'Ley Orgánica 3/2018', 'es', '2018-12-06', 'https://www.boe.es/x',
        '{}'::jsonb, 'h-act')`);
      const [act] = await database.rows<{ id: string }>(
        sql`select id::text as id from documents where source_id = ${ACT}`,
      );
      const viewer = {
        userId: "ana",
        email: "ana@a.example",
        organizationId: "org-a",
        groupIds: [],
        role: "admin" as const,
      };
      const pack = await buildEvidencePack(database, viewer, { document: act!.id });
      expect(pack?.lawObligations.map((o) => o.obligation.id)).toEqual([ids.a28]);
      const entry = pack!.lawObligations[0]!;
      expect(entry.anchor).toMatchObject({ lawId: LAW, blockId: "a28", version: { normId: ACT } });
      expect(entry.reviews).toMatchObject([
        { from: { normId: LAW }, to: { normId: ACT }, decision: "changed", decidedBy: { id: "ana" } },
      ]);
      expect(entry.reviews[0]?.decidedAt).toBeTruthy();
      expect(pack?.audit.events.map((e) => e.action)).toEqual(
        expect.arrayContaining(["obligation.created", "obligation.review_needed", "obligation.reviewed"]),
      );
      expect(pack?.audit.verification.valid).toBe(true);
      const today = new Date().toISOString().slice(0, 10);
      const period = await buildEvidencePack(database, viewer, { from: today, to: today });
      expect(period?.lawObligations.map((o) => o.obligation.id).sort()).toEqual([ids.a28, ids.a9].sort());
      const other = await buildEvidencePack(
        database,
        { ...viewer, userId: "carl", email: "carl@b.example", organizationId: "org-b" },
        { from: today, to: today },
      );
      expect(other?.lawObligations).toEqual([]);
    });
  });
}
