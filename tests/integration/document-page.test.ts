/**
 * The document page's loader (/app/documents/:id) in-process on recorded documents: what it
 * returns, and what opening writes: `document.read` in the audit trail, the read receipt, the
 * reader's alerts for that document marked read; admins see who opened it, members do not.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, useLoaderData } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unreadCount } from "../../app/.server/alerts/inbox.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { classify } from "../../app/.server/classify/classify.ts";
import { reclassifyStale } from "../../app/.server/classify/reclassify.ts";
import { createTopic, rematchOrganisation, topicsOfDocument } from "../../app/.server/classify/topics.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { alerts } from "../../app/.server/db/schema/alerts.ts";
import { user } from "../../app/.server/db/schema/auth.ts";
import { documentReads } from "../../app/.server/db/schema/collab.ts";
import { DocumentText } from "../../app/components/app/documents/document-text.tsx";
import * as documentRoute from "../../app/routes/app/document.tsx";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { memberInfo, pageContext, pageRequest, settle } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

describe("document page loader", () => {
  let database: Database;
  let ids: Map<string, string>;
  const ana = memberInfo();
  const root = memberInfo({
    userId: "user-root",
    email: "root@org-a.example",
    name: "Root",
    role: "admin",
    locale: "en",
  });
  const eve = memberInfo({ userId: "user-eve", email: "eve@org-b.example", name: "Eve", organizationId: "org-b" });

  const load = (member: typeof ana, id: string) =>
    settle(() =>
      documentRoute.loader(
        pageRequest(`/app/documents/${id}`, pageContext(database, member), { id }) as unknown as Parameters<
          typeof documentRoute.loader
        >[0],
      ),
    );

  beforeAll(async () => {
    database = await openMigratedDatabase();
    ids = await ingestRecorded(database, ["2018-12-06"]);
    const now = new Date();
    await database.db.insert(user).values([
      { id: ana.userId, name: "Ana", email: ana.email, createdAt: now, updatedAt: now },
      { id: root.userId, name: "Root", email: root.email, createdAt: now, updatedAt: now },
    ]);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("returns the document with its metadata, classification, text and provenance", async () => {
    const id = ids.get("32016R0679") ?? "";
    const { data } = await load(ana, id);
    const doc = data?.document;
    expect(doc).toMatchObject({
      id,
      source: "eurlex",
      sourceId: "32016R0679",
      language: "en",
      kind: "regulation",
      jurisdiction: "EU",
      relevance: "high",
      publishedOn: "2016-04-27",
      effectiveDates: ["2016-05-24", "2018-05-25"],
    });
    expect(doc?.title).toContain("General Data Protection Regulation");
    expect(doc?.paragraphs.length).toBeGreaterThan(100);
    expect(doc?.paragraphs.some((p) => p.text.includes("natural persons"))).toBe(true);
    expect(doc?.areas.map((a) => a.id)).toContain("data-protection");
    const dataProtection = doc?.areas.find((a) => a.id === "data-protection");
    expect(dataProtection?.explanations.length).toBeGreaterThan(0);
    expect(dataProtection?.explanations[0]?.es).toEqual(expect.any(String));
    expect(data?.reasons?.kind.es).not.toBe("");
    expect(doc?.provenance.map((p) => p.parser)).toEqual(expect.arrayContaining([expect.stringMatching(/^cellar/)]));
    for (const p of doc?.provenance ?? []) expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(data?.backHref).toBe("/app/search");
    // Members do not see read receipts.
    expect(data?.readers).toBeNull();
  });

  it("writes document.read, the read receipt, and marks the reader's alerts for it read", async () => {
    const id = ids.get("BOE-A-2018-16673") ?? "";
    const other = ids.get("BOE-A-2018-16672") ?? "";
    const profileId = randomUUID();
    await database.db.insert(alerts).values([
      { userId: ana.userId, documentId: id, profileId, title: "LOPDGDD" },
      { userId: ana.userId, documentId: other, profileId, title: "Otra" },
      { userId: root.userId, documentId: id, profileId, title: "LOPDGDD" },
    ]);
    expect(await unreadCount(database.db, ana.userId)).toBe(2);

    const { data } = await load(ana, id);
    expect(data?.document.title).toContain("Ley Orgánica 3/2018");

    const events = await listAuditEvents(database.db, "org-a", { action: "document.read", objectId: id });
    expect(events.items).toHaveLength(1);
    expect(events.items[0]).toMatchObject({
      actor: { id: ana.userId, email: ana.email },
      action: "document.read",
      object: { type: "document", id },
      userAgent: "vitest",
    });
    expect(events.items[0]?.ipHash).toMatch(/^[0-9a-f]+$/);
    const receipts = await database.db.select().from(documentReads).where(sql`document_id = ${id}::uuid`);
    expect(receipts.map((r) => [r.userId, r.organizationId])).toEqual([[ana.userId, "org-a"]]);
    // Only that document's alert, only Ana's.
    expect(await unreadCount(database.db, ana.userId)).toBe(1);
    expect(await unreadCount(database.db, root.userId)).toBe(1);
  });

  it("shows the organisation's own topics (to it alone) and the document's label history", async () => {
    const id = ids.get("BOE-A-2018-16673") ?? "";
    const record = async () => undefined;
    await createTopic(
      database.db,
      record,
      { organizationId: "org-a", userId: ana.userId, email: ana.email },
      {
        name: "RGPD interno",
        keywords: ["DATOS PERSONALES"],
        area: "data-protection",
      },
    );
    await rematchOrganisation(database, "org-a");
    // New tables, rules or model: a pass under another version that changes this document's relevance.
    await reclassifyStale(database, {
      version: "test-next",
      classify: (doc) => ({
        ...classify(doc),
        relevance: doc.sourceId === "BOE-A-2018-16673" ? "low" : classify(doc).relevance,
      }),
    });

    const { data } = await load(ana, id);
    expect(data?.topics).toEqual([
      expect.objectContaining({
        name: "RGPD interno",
        area: "data-protection",
        reasons: [expect.objectContaining({ es: expect.stringContaining("DATOS PERSONALES") })],
      }),
    ]);
    expect(data?.history.map((entry) => [entry.cause, entry.relevance])).toEqual([
      ["reclassified", "low"],
      ["ingested", "high"],
    ]);
    expect(await topicsOfDocument(database.db, "org-b", id)).toEqual([]);
  });

  it("leads back to the search the reader came from, and only to a search of this site", async () => {
    const id = ids.get("32016R0679") ?? "";
    const back = async (referer: string) => {
      const args = pageRequest(`/app/documents/${id}`, pageContext(database, ana), { id });
      args.request.headers.set("referer", referer);
      return (await documentRoute.loader(args as unknown as Parameters<typeof documentRoute.loader>[0])).backHref;
    };
    expect(await back("http://127.0.0.1:3000/app/search?q=datos&source=eurlex")).toBe(
      "/app/search?q=datos&source=eurlex",
    );
    expect(await back("https://evil.example/app/search?q=x")).toBe("/app/search");
    expect(await back("http://127.0.0.1:3000/app/admin/audit")).toBe("/app/search");
  });

  it("shows admins who opened it and when", async () => {
    const id = ids.get("BOE-A-2018-16673") ?? "";
    const { data } = await load(root, id);
    expect(data?.readers?.map((r) => [r.name, r.email])).toEqual([
      ["Ana", ana.email],
      ["Root", root.email],
    ]);
    const first = data?.readers?.[0];
    expect(Date.parse(first?.lastReadAt ?? "")).toBeGreaterThanOrEqual(Date.parse(first?.firstReadAt ?? ""));
  });

  it("answers 404 for unknown ids and for another organisation's feed entries", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const { thrown } = await load(ana, id);
      expect((thrown as { init?: { status?: number } }).init?.status).toBe(404);
    }
    const events = await listAuditEvents(database.db, "org-b", { action: "document.read" });
    expect(events.items).toHaveLength(0);
    const outsider = await load(eve, ids.get("BOE-A-2018-16673") ?? "");
    expect(outsider.data?.document.sourceId).toBe("BOE-A-2018-16673");
  });

  it("renders the text as elements from the paragraphs, escaping whatever markup a source sent", async () => {
    const { data } = await load(ana, ids.get("32016R0679") ?? "");
    if (!data) throw new Error("no data");
    const hostile = {
      ...data,
      document: {
        ...data.document,
        paragraphs: [
          { kind: "heading" as const, text: "Article 1" },
          { kind: "paragraph" as const, text: 'Text <script>alert(1)</script> <img src=x onerror="x()">' },
        ],
      },
    };
    // The text alone, and the whole page through a static data router (Form needs one).
    const text = renderToStaticMarkup(
      createElement(DocumentText, { paragraphs: hostile.document.paragraphs, lang: "en" }),
    );
    expect(text).toContain('<h3 id="p-0" data-n="1" class="h6 mt-4 fw-semibold">Article 1</h3>');
    expect(text).toContain(
      '<p id="p-1" data-n="2">Text &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&quot;x()&quot;&gt;</p>',
    );
    const Page = documentRoute.default as unknown as (
      props: Record<string, unknown>,
    ) => ReturnType<typeof createElement>;
    const handler = createStaticHandler([
      {
        id: "doc",
        path: "/app/documents/:id",
        loader: () => hostile,
        Component: () =>
          createElement(Page, { loaderData: useLoaderData(), actionData: undefined, params: {}, matches: [] }),
      },
    ]);
    const context = await handler.query(new Request(`http://127.0.0.1/app/documents/${data.document.id}`));
    if (context instanceof Response) throw new Error("unexpected response");
    const html = renderToStaticMarkup(
      createElement(StaticRouterProvider, {
        router: createStaticRouter(handler.dataRoutes, context),
        context,
        hydrate: false,
      }),
    );
    expect(html).toContain(text);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("Decisión 2011/833/UE");
    // The area's score as the classifier gives it (its value follows the bundled rules and model).
    expect(html).toMatch(/\(Puntuación [01],\d\d\)/);
    expect(html).toContain("Ver en la fuente oficial");
    expect(html).toMatch(/<label for="note-new-body" class="form-label">Texto de la nota<\/label>/);
  });

  it("sends a visitor without a member to sign in", async () => {
    const { thrown } = await load(null as unknown as typeof ana, ids.get("BOE-A-2018-16673") ?? "");
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/app/login");
  });
});
