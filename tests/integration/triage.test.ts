/**
 * Triage and obligations (issue 26) on PGlite and PostgreSQL, through the API's route modules:
 * an alert brings a document to organisation A as "new" with its due date proposed from the entry
 * into force; a member triages it (under review, a group, a due date), the change is in the history,
 * audited, and sent to A's webhook receiver signed (document.triaged); obligations only once it
 * applies (obligation.created, obligation.updated); the register exports JSON and CSV; reminders
 * reach the group's member once. Organisation B sees none of A's work, and neither B nor A can
 * triage a feed entry outside its reach. Every answer checked against the OpenAPI document.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDigest } from "../../app/.server/alerts/channels/digest/index.ts";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import { createApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { team, teamMember } from "../../app/.server/db/schema/auth.ts";
import { sourceFeeds } from "../../app/.server/db/schema/documents.ts";
import { alertProfiles, alerts, mailOutbox, reminderSettings, triageItems } from "../../app/.server/db/schema.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { digestDeadlines } from "../../app/.server/triage/digest-deadlines.ts";
import { addDays, madridDay } from "../../app/.server/triage/due-date.ts";
import { parseTriageFilters } from "../../app/.server/triage/filters.ts";
import { listTriage } from "../../app/.server/triage/list.ts";
import { runReminders } from "../../app/.server/triage/reminders.ts";
import { startTriage } from "../../app/.server/triage/store.ts";
import { startReceiver } from "../support/alerts-fixtures.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

const log = createLogger("silent");

for (const target of databaseTargets()) {
  describe(`triage and obligations on ${target.name}`, () => {
    let database: Database;
    let api: Awaited<ReturnType<typeof apiServicesFor>>;
    let checker: ReturnType<typeof openApiChecker>;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let hookSecret = "";
    const ids = { doc: "", feedDoc: "" };
    const tokens = { ana: "", carl: "" };
    const today = madridDay(new Date());
    const inForce = addDays(today, 20);

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
      return { status: response.status, body, headers: response.headers };
    };
    const valid = (path: string, method: string, status: number, body: unknown, media?: string) =>
      expect(checker.check(path, method, status, body, media)).toEqual([]);

    beforeAll(async () => {
      database = await openMigratedDatabase(await target.create());
      api = await apiServicesFor(database);
      receiver = await startReceiver();
      const [doc] = await database.rows<{ id: string }>(sql`insert into documents
        (source, source_id, title, language, titles, published_on, kind, jurisdiction, areas, relevance, official_url,
          effective_dates, record, content_hash, paragraphs)
        values ('boe', 'BOE-A-2026-7001', 'Real Decreto de prevención del blanqueo de capitales', 'es', '{}'::jsonb,
          ${today}, 'royal-decree', 'ES', ${JSON.stringify([{ id: "aml", score: 0.9, reasons: ["test"] }])}::jsonb, 'high',
          'https://www.boe.es/x', ${JSON.stringify([inForce])}::jsonb, '{}'::jsonb, 'h1',
          ${JSON.stringify([
            { kind: "heading", text: "Artículo 1. Objeto" },
            { kind: "paragraph", text: "Los sujetos obligados identificarán al titular real." },
            { kind: "paragraph", text: "Se conservarán los documentos durante diez años." },
          ])}::jsonb)
        returning id`);
      ids.doc = doc!.id;
      const [feed] = await database.db
        .insert(sourceFeeds)
        .values({ organizationId: "org-b", url: "https://b.example/feed.rss", name: "Privado B" })
        .returning();
      const [feedDoc] = await database.rows<{ id: string }>(sql`insert into documents
        (source, source_id, feed_id, title, language, published_on, official_url, record, content_hash, paragraphs)
        values ('feed', 'b-1', ${feed!.id}, 'Aviso reservado de B', 'es', ${today}, '', '{}'::jsonb, 'h2',
          ${JSON.stringify([{ kind: "paragraph", text: "reservado" }])}::jsonb) returning id`);
      ids.feedDoc = feedDoc!.id;
      await ensureMember(database, { organizationId: "org-a", userId: "ana", email: "ana@a.example" });
      await ensureMember(database, { organizationId: "org-a", userId: "bea", email: "bea@a.example", role: "member" });
      await ensureMember(database, { organizationId: "org-b", userId: "carl", email: "carl@b.example" });
      await database.db.insert(team).values([
        { id: "team-compliance", name: "Cumplimiento", organizationId: "org-a", createdAt: new Date() },
        { id: "team-b", name: "Equipo B", organizationId: "org-b", createdAt: new Date() },
      ]);
      await database.db.insert(teamMember).values({ id: "tm-1", teamId: "team-compliance", userId: "bea" });
      const token = async (organizationId: string, createdBy: string) =>
        (await createApiToken(database.db, { organizationId, name: createdBy, scope: "read", createdBy })).token;
      // Tokens are admins' (api/tokens.ts): bea, a plain member, works through the pages' services.
      tokens.ana = await token("org-a", "ana");
      tokens.carl = await token("org-b", "carl");
      const hook = await createWebhook(
        database.db,
        "org-a",
        webhookInputSchema("en", { allowPrivate: true }).parse({
          url: `${receiver.base}/hooks/a`,
          events: ["document.matched", "document.triaged", "obligation.created", "obligation.updated"],
        }),
      );
      hookSecret = hook.secret;
      await createWebhook(
        database.db,
        "org-b",
        webhookInputSchema("en", { allowPrivate: true }).parse({
          url: `${receiver.base}/hooks/b`,
          events: ["document.matched", "document.triaged", "obligation.created", "obligation.updated"],
        }),
      );
      await database.db.insert(alertProfiles).values({
        id: randomUUID(),
        organizationId: "org-a",
        userId: "ana",
        name: "Blanqueo",
        areas: ["aml"],
      });
      checker = openApiChecker((await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>);
    }, 240_000);
    afterAll(async () => {
      await receiver?.stop();
      await database?.close();
      await target.cleanup();
    });

    it("starts the document as new for the organisation the alert reached, due on its entry into force", async () => {
      await matchDocument(database, ids.doc, {
        loadDocument: databaseDocuments(database),
        directory: databaseDirectory(database),
        onMatched: startTriage,
      });
      const items = await database.db.select().from(triageItems);
      expect(items.map((i) => [i.organizationId, i.status, i.dueOn, i.dueSource])).toEqual([
        ["org-a", "new", inForce, "entry_into_force"],
      ]);
      const got = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana);
      expect(got.status).toBe(200);
      valid("/api/v1/documents/{id}/triage", "get", 200, got.body);
      expect(got.body.history).toHaveLength(1);
      expect(got.body.history[0].actor.id).toBe("system");
    });

    it("a member triages it: history, audit, signed document.triaged webhook", async () => {
      // The contract's shape of an assignee: { groupId } (or { userId }), as the OpenAPI description says too.
      const change = {
        status: "under_review",
        assignee: { groupId: "team-compliance" },
        dueOn: addDays(today, 2),
        impact: "high",
        note: "Lo mira cumplimiento",
      };
      expect(checker.checkRequest("/api/v1/documents/{id}/triage", "put", change)).toEqual([]);
      const put = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, { method: "PUT", body: change });
      expect(put.status).toBe(200);
      valid("/api/v1/documents/{id}/triage", "put", 200, put.body);
      expect(put.body.triage).toMatchObject({
        status: "under_review",
        assignee: { type: "group", id: "team-compliance", name: "Cumplimiento" },
        dueOn: addDays(today, 2),
        dueSource: "manual",
        impact: "high",
      });
      expect(put.body.changes.status).toEqual({ from: "new", to: "under_review" });
      const history = (await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana)).body.history;
      expect(history.at(-1)).toMatchObject({ actor: { id: "ana" }, note: "Lo mira cumplimiento" });
      const events = (await listAuditEvents(database.db, "org-a", { action: "triage.updated" })).items;
      expect(events).toHaveLength(1);
      expect(events[0]?.actor).toEqual({ id: "ana", email: "ana@a.example" });

      const worker = createDeliveryWorker({
        database,
        transport: createMailTransport({ dataDir: "/tmp", log }),
        mailFrom: "alerts@regwatch.example",
        siteUrl: "https://regwatch.example",
        settings: { retryBaseMs: 50, retryMaxMs: 100, httpTimeoutMs: 2000, allowPrivateUrls: true },
        log,
      });
      await worker.drain();
      await worker.stop();
      // The hook also got the alert's document.matched; the triage event is the other one.
      const got = receiver.received.filter((r) => r.path === "/hooks/a" && r.body.includes('"document.triaged"'));
      expect(got).toHaveLength(1);
      const event = new Webhook(hookSecret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as {
        type: string;
        data: { document: { id: string }; triage: { status: string }; actor: { id: string } };
      };
      expect(event.type).toBe("document.triaged");
      expect(event.data.document.id).toBe(ids.doc);
      expect(event.data.triage.status).toBe("under_review");
      expect(event.data.actor.id).toBe("ana");
      // Organisation B's receiver hears nothing of A's work (only the public document's own match).
      expect(receiver.received.filter((r) => r.path === "/hooks/b" && r.body.includes("triaged"))).toHaveLength(0);
      expect(receiver.received.filter((r) => r.path === "/hooks/a")).toHaveLength(2);
    });

    it("refuses bad input with field errors in the caller's language", async () => {
      const es = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, {
        method: "PUT",
        body: { status: "maybe" },
        lang: "es",
      });
      expect(es.status).toBe(422);
      expect(es.body.fieldErrors.status).toEqual(["Elige un estado de la lista."]);
      const outsider = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, {
        method: "PUT",
        body: { assignee: { type: "group", id: "team-b" } },
        lang: "en",
      });
      expect(outsider.status).toBe(422);
      expect(outsider.body.fieldErrors.assignee).toEqual(["Choose a person or a group of your organisation."]);
      // Both at once, or neither: refused by the code and by the OpenAPI description alike.
      for (const assignee of [{ userId: "ana", groupId: "team-compliance" }, { name: "Ana" }, "ana"]) {
        expect(checker.checkRequest("/api/v1/documents/{id}/triage", "put", { assignee })).not.toEqual([]);
        const bad = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, {
          method: "PUT",
          body: { assignee },
          lang: "es",
        });
        expect(bad.status, JSON.stringify(assignee)).toBe(422);
        expect(bad.body.fieldErrors.assignee).toEqual(["Elige una persona o un grupo de tu organización."]);
      }
      // { userId } assigns a member; the first shape ({ type, id }) is still read (decision 0123).
      for (const assignee of [{ userId: "ana" }, { type: "user", id: "ana" }]) {
        expect(checker.checkRequest("/api/v1/documents/{id}/triage", "put", { assignee })).toEqual([]);
        const ok = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, { method: "PUT", body: { assignee } });
        expect(ok.status, JSON.stringify(assignee)).toBe(200);
        expect(ok.body.triage.assignee).toMatchObject({ type: "user", id: "ana" });
      }
      const outsiderUser = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, {
        method: "PUT",
        body: { assignee: { userId: "carl" } },
      });
      expect(outsiderUser.status).toBe(422);
      // Back to the group, as the next tests expect.
      const back = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, {
        method: "PUT",
        body: { assignee: { groupId: "team-compliance" } },
      });
      expect(back.body.triage.assignee).toMatchObject({ type: "group", id: "team-compliance" });
    });

    it("keeps each organisation's triage its own, and a feed entry outside the reach is 404", async () => {
      const mine = await call(`/api/v1/documents/${ids.doc}/triage`, tokens.carl);
      expect(mine.status).toBe(200);
      expect(mine.body.triage).toMatchObject({ status: "new", assignee: null, updatedBy: null });
      expect(mine.body.history).toEqual([]);
      const list = await call("/api/v1/triage", tokens.carl);
      valid("/api/v1/triage", "get", 200, list.body);
      expect(list.body.items).toEqual([]);
      for (const [token, method, body] of [
        [tokens.ana, "GET", undefined],
        [tokens.ana, "PUT", { status: "applies" }],
      ] as const) {
        const denied = await call(`/api/v1/documents/${ids.feedDoc}/triage`, token, {
          method,
          ...(body ? { body } : {}),
        });
        expect(denied.status).toBe(404);
      }
      expect(
        (
          await call(`/api/v1/documents/${ids.feedDoc}/obligations`, tokens.ana, {
            method: "POST",
            body: { anchor: "p-0", title: "Nada" },
          })
        ).status,
      ).toBe(404);
      // B's own feed entry is B's to triage.
      expect(
        (
          await call(`/api/v1/documents/${ids.feedDoc}/triage`, tokens.carl, {
            method: "PUT",
            body: { status: "done" },
          })
        ).status,
      ).toBe(200);
      // "me" is the user and their groups: bea is in the assigned group, ana is not.
      const beaList = await listTriage(
        database.db,
        { organizationId: "org-a", userId: "bea" },
        parseTriageFilters(new URLSearchParams("assignee=me")),
      );
      expect(beaList.items.map((i) => i.documentId)).toEqual([ids.doc]);
      expect((await call("/api/v1/triage?assignee=me", tokens.ana)).body.items).toEqual([]);
      const all = await call("/api/v1/triage?status=under_review", tokens.ana);
      valid("/api/v1/triage", "get", 200, all.body);
      expect(all.body).toMatchObject({ total: 1, page: 1, pageCount: 1 });
    });

    it("records obligations only once it applies, anchored to a paragraph; updates them; exports the register", async () => {
      const early = await call(`/api/v1/documents/${ids.doc}/obligations`, tokens.ana, {
        method: "POST",
        body: { anchor: "p-1", title: "Identificar al titular real" },
        lang: "en",
      });
      expect(early.status).toBe(422);
      expect(early.body.fieldErrors.status).toEqual([
        "Obligations can only be recorded on a document marked “applies”.",
      ]);
      await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, { method: "PUT", body: { status: "applies" } });
      const first = await call(`/api/v1/documents/${ids.doc}/obligations`, tokens.ana, {
        method: "POST",
        body: {
          anchor: "p-1",
          title: "Identificar al titular real",
          owner: { type: "user", id: "bea" },
          dueOn: addDays(today, 1),
          reference: "POL-KYC-3",
        },
      });
      expect(first.status).toBe(201);
      valid("/api/v1/documents/{id}/obligations", "post", 201, first.body);
      expect(first.body).toMatchObject({
        anchor: "p-1",
        excerpt: "Los sujetos obligados identificarán al titular real.",
        owner: { type: "user", id: "bea" },
        status: "open",
      });
      const second = await call(`/api/v1/documents/${ids.doc}/obligations`, tokens.ana, {
        method: "POST",
        body: {
          anchor: "p-2",
          title: "=Conservar documentos diez años",
          owner: { type: "group", id: "team-compliance" },
          dueOn: addDays(today, 3),
        },
      });
      expect(second.status).toBe(201);
      const badAnchor = await call(`/api/v1/documents/${ids.doc}/obligations`, tokens.ana, {
        method: "POST",
        body: { anchor: "p-9", title: "No existe" },
      });
      expect(badAnchor.status).toBe(422);
      const patched = await call(`/api/v1/obligations/${second.body.id}`, tokens.ana, {
        method: "PATCH",
        body: { status: "in_progress", note: "empezamos" },
      });
      expect(patched.status).toBe(200);
      valid("/api/v1/obligations/{id}", "patch", 200, patched.body);
      const one = await call(`/api/v1/obligations/${second.body.id}`, tokens.ana);
      valid("/api/v1/obligations/{id}", "get", 200, one.body);
      expect(one.body.history.map((h: { actor: { id: string } }) => h.actor.id)).toEqual(["ana", "ana"]);
      // B can reach neither the obligation nor the document's list of them.
      expect((await call(`/api/v1/obligations/${second.body.id}`, tokens.carl)).status).toBe(404);
      expect((await call(`/api/v1/documents/${ids.doc}/obligations`, tokens.carl)).body).toEqual([]);
      expect((await call("/api/v1/obligations", tokens.carl)).body).toEqual([]);

      const perDoc = await call(`/api/v1/documents/${ids.doc}/obligations`, tokens.ana);
      valid("/api/v1/documents/{id}/obligations", "get", 200, perDoc.body);
      expect(perDoc.body).toHaveLength(2);
      const register = await call("/api/v1/obligations?status=in_progress", tokens.ana);
      valid("/api/v1/obligations", "get", 200, register.body);
      expect(register.body.map((o: { title: string }) => o.title)).toEqual(["=Conservar documentos diez años"]);
      const csv = await call("/api/v1/obligations?format=csv", tokens.ana);
      expect(csv.headers.get("content-type")).toContain("text/csv");
      valid("/api/v1/obligations", "get", 200, csv.body, "text/csv");
      expect(csv.body).toContain("'=Conservar documentos diez años");
      expect(String(csv.body).split("\r\n")[0]).toMatch(/^id,source_id,document_id/);
      expect((await listAuditEvents(database.db, "org-a", { action: "obligations.exported" })).items).toHaveLength(2);

      const worker = createDeliveryWorker({
        database,
        transport: createMailTransport({ dataDir: "/tmp", log }),
        mailFrom: "alerts@regwatch.example",
        siteUrl: "https://regwatch.example",
        settings: { retryBaseMs: 50, retryMaxMs: 100, httpTimeoutMs: 2000, allowPrivateUrls: true },
        log,
      });
      await worker.drain();
      await worker.stop();
      const types = receiver.received
        .filter((r) => r.path === "/hooks/a")
        .map(
          (r) => (new Webhook(hookSecret).verify(r.body, r.headers as Record<string, string>) as { type: string }).type,
        );
      expect(types).toEqual(
        expect.arrayContaining(["document.triaged", "obligation.created", "obligation.created", "obligation.updated"]),
      );
      expect(types.filter((t) => t === "obligation.created")).toHaveLength(2);
    });

    it("reminds the group's member once before the due dates, in-app and by mail", async () => {
      await database.db.insert(reminderSettings).values({ userId: "bea", hour: 0, daysBefore: 3 });
      const first = await runReminders(database, { siteUrl: "https://regwatch.example" });
      // The triage item (group) and both obligations (bea's own and the group's): bea only; ana is in no group.
      expect(first).toEqual({ reminders: 3, mails: 3 });
      expect(await runReminders(database, { siteUrl: "https://regwatch.example" })).toEqual({ reminders: 0, mails: 0 });
      const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "reminder"));
      expect(mails.map((m) => m.to)).toEqual(["bea@a.example", "bea@a.example", "bea@a.example"]);
      expect(mails.map((m) => m.subject).join("\n")).toContain("Recordatorio");
      const inbox = await database.db.select().from(alerts).where(eq(alerts.userId, "bea"));
      expect(inbox).toHaveLength(3);
      // Moving a due date reminds again.
      await call(`/api/v1/documents/${ids.doc}/triage`, tokens.ana, {
        method: "PUT",
        body: { dueOn: addDays(today, 1) },
      });
      expect(await runReminders(database, { siteUrl: "https://regwatch.example" })).toEqual({ reminders: 1, mails: 1 });
      const [item] = await database.db
        .select()
        .from(triageItems)
        .where(and(eq(triageItems.organizationId, "org-a"), eq(triageItems.documentId, ids.doc)));
      expect(item?.dueOn).toBe(addDays(today, 1));
    });

    it("lists the same deadlines in the member's daily digest, overdue ones marked, nobody else's", async () => {
      const site = "https://regwatch.example";
      const yesterday = addDays(today, -1);
      const digestOf = (userId: string, email: string, language: "es" | "en") =>
        buildDigest(database, { userId, email, language }, yesterday, {
          from: "alerts@regwatch.example",
          siteUrl: site,
          deadlines: digestDeadlines,
        });
      // Bea has no digest profile alert that day: the digest is her deadlines alone (sent today).
      const mail = await digestOf("bea", "bea@a.example", "es");
      expect(mail?.subject).toBe(`Resumen del ${yesterday}: 3 plazos`);
      const text = mail?.text ?? "";
      expect(text).toContain("Tus plazos vencidos o próximos:");
      expect(text).toContain("Decidir si aplica «Real Decreto de prevención del blanqueo de capitales»");
      expect(text).toContain("Obligación «Identificar al titular real»");
      expect(text).toContain("Obligación «=Conservar documentos diez años»");
      expect(text).toContain(`${site}/app/documents/${ids.doc}#triage`);
      expect(text).toContain(`${site}/app/documents/${ids.doc}#obligations`);
      expect(mail?.html).toContain("<h2>Tus plazos vencidos o próximos:</h2>");
      // Soonest first.
      expect(text.indexOf("Decidir si aplica")).toBeLessThan(text.indexOf("=Conservar documentos"));
      // Ana is assigned nothing and has no digest alert: no digest; Carl's organisation reaches none of it.
      expect(await digestOf("ana", "ana@a.example", "es")).toBeUndefined();
      expect(await digestOf("carl", "carl@b.example", "es")).toBeUndefined();

      // An overdue obligation is marked; a decided document leaves the list; English for an English reader.
      await database.rows(sql`update obligations set due_on = ${addDays(today, -2)}::date
        where title = 'Identificar al titular real'`);
      await database.rows(sql`update triage_items set status = 'does_not_apply' where document_id = ${ids.doc}::uuid
        and organization_id = 'org-a'`);
      const later = await digestOf("bea", "bea@a.example", "en");
      expect(later?.subject).toBe(`Digest for ${yesterday}: 2 deadlines`);
      expect(later?.text).not.toContain("Decide whether");
      expect(later?.text).toMatch(
        /Obligation “Identificar al titular real” \(from “Real Decreto[^”]*”\) \(was due on /,
      );
      // Outside the reminder window (3 days): not listed.
      await database.rows(sql`update obligations set due_on = ${addDays(today, 10)}::date
        where title = '=Conservar documentos diez años'`);
      const last = await digestOf("bea", "bea@a.example", "en");
      expect(last?.subject).toBe(`Digest for ${yesterday}: 1 deadline`);
    });
  });
}
