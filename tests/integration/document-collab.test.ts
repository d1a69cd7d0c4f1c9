/**
 * Notes and sharing on the document page, through its action and loader in-process: notes
 * created, edited and deleted by their author only, visible by their visibility, anchored to a
 * paragraph, Markdown rendered safely; shares by email (members and outside addresses) and to a
 * group's chat queued in the deliveries outbox; every change audited.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import type { AppServices } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { alertProfiles } from "../../app/.server/db/schema/alerts.ts";
import { member as memberTable, organization, team, teamMember, user } from "../../app/.server/db/schema/auth.ts";
import * as documentRoute from "../../app/routes/app/document.tsx";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { memberInfo, pageContext, pageRequest } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

type Answer = { status: number; data: Record<string, unknown> };

describe("notes and sharing on the document page", () => {
  let database: Database;
  let gdpr = "";
  const ana = memberInfo();
  const bea = memberInfo({ userId: "user-bea", email: "bea@org-a.example", name: "Bea", memberId: "member-bea" });
  const carl = memberInfo({ userId: "user-carl", email: "carl@org-a.example", name: "Carl", memberId: "member-carl" });
  const services = {
    config: { mailFrom: "alertas@vigia.example", siteUrl: "https://vigia.example" },
  } as unknown as Partial<AppServices>;

  const post = async (who: typeof ana, form: Record<string, string>): Promise<Answer> => {
    const result = (await documentRoute.action(
      pageRequest(
        `/app/documents/${gdpr}`,
        pageContext(database, who, services),
        { id: gdpr },
        form,
      ) as unknown as Parameters<typeof documentRoute.action>[0],
    )) as unknown as { data: Record<string, unknown>; init: { status: number } };
    return { status: result.init?.status ?? 200, data: result.data };
  };
  const view = async (who: typeof ana) =>
    (
      await documentRoute.loader(
        pageRequest(`/app/documents/${gdpr}`, pageContext(database, who), { id: gdpr }) as unknown as Parameters<
          typeof documentRoute.loader
        >[0],
      )
    ).collab;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    const ids = await ingestRecorded(database, ["2018-12-06"]);
    gdpr = ids.get("32016R0679") ?? "";
    const now = new Date();
    await database.db.insert(organization).values({ id: "org-a", name: "Org A", slug: "org-a", createdAt: now });
    await database.db.insert(user).values(
      [ana, bea, carl].map((m) => ({
        id: m.userId,
        name: m.name,
        email: m.email,
        createdAt: now,
        updatedAt: now,
        locale: m === bea ? "en" : "es",
      })),
    );
    await database.db.insert(memberTable).values(
      [ana, bea, carl].map((m) => ({
        id: m.memberId,
        organizationId: "org-a",
        userId: m.userId,
        role: "member",
        createdAt: now,
      })),
    );
    await database.db.insert(team).values({ id: "team-legal", name: "Legal", organizationId: "org-a", createdAt: now });
    await database.db.insert(teamMember).values([
      { id: "tm-1", teamId: "team-legal", userId: ana.userId, createdAt: now },
      { id: "tm-2", teamId: "team-legal", userId: bea.userId, createdAt: now },
    ]);
    await database.db.insert(alertProfiles).values({
      id: randomUUID(),
      organizationId: "org-a",
      groupId: "team-legal",
      name: "Legal",
      chatWebhookUrl: "https://hooks.slack.com/services/T000/B000/XXXX",
    });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("creates notes with their visibility and anchor, rendered as safe Markdown, audited", async () => {
    const created = await post(ana, {
      intent: "note.create",
      body: "**Ojo** al artículo 17 <script>alert(1)</script> [guía](javascript:alert(1))",
      visibility: "group",
      groupId: "team-legal",
      paragraph: "3",
    });
    expect(created).toEqual({ status: 200, data: { ok: "noteCreated" } });
    expect((await post(ana, { intent: "note.create", body: "Solo para mí", visibility: "private" })).data.ok).toBe(
      "noteCreated",
    );

    const forAna = await view(ana);
    expect(forAna.notes.map((n) => [n.body.slice(0, 12), n.visibility, n.groupName, n.paragraph, n.mine])).toEqual([
      ["**Ojo** al a", "group", "Legal", 2, true],
      ["Solo para mí", "private", null, null, true],
    ]);
    const html = forAna.notes[0]?.html ?? "";
    expect(html).toContain("<strong>Ojo</strong>");
    expect(html).not.toContain("<script>");
    expect(html).not.toMatch(/href="javascript:/i);
    expect(forAna.noteGroups).toEqual([{ id: "team-legal", name: "Legal" }]);

    // Bea (same group) sees the group note, not the private one; Carl (no group) sees neither.
    expect((await view(bea)).notes.map((n) => [n.authorName, n.mine])).toEqual([["Ana", false]]);
    expect((await view(carl)).notes).toEqual([]);

    const events = await listAuditEvents(database.db, "org-a", { action: "note.created" });
    expect(events.items).toHaveLength(2);
    expect(events.items[1]).toMatchObject({ actor: { id: ana.userId }, object: { type: "note" }, userAgent: "vitest" });
  });

  it("refuses invalid notes with field errors and keeps what was typed", async () => {
    for (const [form, field] of [
      [{ body: "", visibility: "private" }, "body"],
      [{ body: "x", visibility: "everyone" }, "visibility"],
      [{ body: "x", visibility: "group" }, "groupId"],
      [{ body: "x", visibility: "group", groupId: "team-other" }, "groupId"],
      [{ body: "x", visibility: "private", paragraph: "0" }, "paragraph"],
      [{ body: "x", visibility: "private", paragraph: "100000" }, "paragraph"],
    ] as const) {
      const answer = await post(carl, { intent: "note.create", ...form });
      expect(answer.status, JSON.stringify(form)).toBe(422);
      expect(Object.keys(answer.data.errors as object), JSON.stringify(form)).toEqual([field]);
      expect(answer.data).toMatchObject({ form: "note-new", values: form });
    }
    // In the page's words, addressing the reader as «tú».
    const empty = await post(carl, { intent: "note.create", body: "", visibility: "private" });
    expect(empty.data.errors).toEqual({ body: ["Escribe la nota (máximo 10.000 caracteres)."] });
  });

  it("lets only the author edit and delete a note, each audited", async () => {
    const note = (await view(ana)).notes.find((n) => n.visibility === "group");
    const id = note?.id ?? "";
    const byBea = await post(bea, { intent: "note.update", id, body: "Cambiado", visibility: "organization" });
    expect(byBea.status).toBe(404);
    expect((await post(bea, { intent: "note.delete", id })).status).toBe(404);

    const edited = await post(ana, {
      intent: "note.update",
      id,
      body: "Ojo al *artículo 17*",
      visibility: "organization",
    });
    expect(edited.data.ok).toBe("noteUpdated");
    const forCarl = await view(carl);
    expect(forCarl.notes.map((n) => [n.body, n.visibility, n.paragraph])).toEqual([
      ["Ojo al *artículo 17*", "organization", null],
    ]);
    expect(forCarl.notes[0]?.html).toContain("<em>artículo 17</em>");

    expect((await post(ana, { intent: "note.delete", id })).data.ok).toBe("noteDeleted");
    expect((await view(carl)).notes).toEqual([]);
    const actions = (await listAuditEvents(database.db, "org-a", { action: "note.*" })).items.map((e) => e.action);
    expect(actions.filter((a) => a === "note.updated")).toHaveLength(1);
    expect(actions.filter((a) => a === "note.deleted")).toHaveLength(1);
  });

  it("shares by email to members and outside addresses, queued in the outbox and audited", async () => {
    const invalid = await post(ana, { intent: "share.email", recipients: "no-es-un-correo", message: "" });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.data.errors as object)).toEqual(["recipients"]);

    const shared = await post(ana, {
      intent: "share.email",
      recipients: "BEA@org-a.example, socia@bufete.example",
      message: "Para la reunión del lunes",
    });
    expect(shared).toEqual({ status: 200, data: { ok: "sharedEmail", members: 1, outside: 1 } });
    const rows = await database.rows<{ channel: string; recipient: string; payload: Record<string, unknown> }>(
      sql`select channel, recipient, payload from deliveries where match_key like 'share:%' and channel = 'mail' order by recipient`,
    );
    expect(rows.map((r) => [r.channel, r.recipient])).toEqual([
      ["mail", "bea@org-a.example"],
      ["mail", "socia@bufete.example"],
    ]);
    const outside = JSON.stringify(rows[1]?.payload);
    expect(outside).toContain("eur-lex.europa.eu");
    expect(outside).not.toContain("artículo 17");
    const history = (await view(ana)).shares;
    expect(history).toEqual([
      expect.objectContaining({ action: "share.emailed", by: ana.email, members: 1, outside: 1 }),
    ]);
  });

  it("shares to a group's chat: members of the group only, and only where a chat is set", async () => {
    expect((await view(carl)).chatGroups).toEqual([]);
    const refused = await post(carl, { intent: "share.chat", groupId: "team-legal" });
    expect(refused).toEqual({ status: 403, data: { failure: "not_member", status: 403 } });
    const unknown = await post(ana, { intent: "share.chat", groupId: "team-nope" });
    expect(unknown.status).toBe(422);

    const posted = await post(ana, { intent: "share.chat", groupId: "team-legal" });
    expect(posted).toEqual({ status: 200, data: { ok: "sharedChat", group: "Legal" } });
    const [chat] = await database.rows<{ recipient: string }>(
      sql`select recipient from deliveries where channel = 'chat'`,
    );
    expect(chat?.recipient).toBe("https://hooks.slack.com/services/T000/B000/XXXX");
    const events = await listAuditEvents(database.db, "org-a", { action: "share.chat" });
    expect(events.items.map((e) => [e.actor?.email, e.object])).toEqual([[ana.email, { type: "document", id: gdpr }]]);
    expect((await view(bea)).shares.map((s) => [s.action, s.groupName])).toEqual([
      ["share.chat", "Legal"],
      ["share.emailed", null],
    ]);
  });
});
