/** Notes, sharing and read receipts with real parts: PGlite and PostgreSQL, the SMTP sink, a chat receiver on loopback. */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unreadCount } from "../../app/.server/alerts/inbox.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { createDeliveryWorker } from "../../app/.server/alerts/worker.ts";
import type { AuditEventInput } from "../../app/.server/audit/types.ts";
import {
  type AuditRecorder,
  createNote,
  deleteNote,
  listNotesFor,
  noteInputSchema,
  updateNote,
  type Viewer,
} from "../../app/.server/collab/notes.ts";
import { readersOf, recordRead } from "../../app/.server/collab/reads.ts";
import { type ShareDeps, shareByEmail, shareInputSchema, shareToChat } from "../../app/.server/collab/sharing.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createMailTransport } from "../../app/.server/mail/transport.ts";
import { openMigrated, startReceiver } from "../support/alerts-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

const log = createLogger("silent");

function decodeQuotedPrintable(raw: string): string {
  const soft = raw.replace(/=\r?\n/g, "");
  return Buffer.from(
    soft.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}

const ana: Viewer = {
  userId: "ana",
  email: "ana@org1.example",
  organizationId: "org1",
  groupIds: ["legal"],
  role: "member",
  language: "es",
};
const bea: Viewer = {
  userId: "bea",
  email: "bea@org1.example",
  organizationId: "org1",
  groupIds: ["legal", "tax"],
  role: "member",
  language: "en",
};
const carl: Viewer = {
  userId: "carl",
  email: "carl@org1.example",
  organizationId: "org1",
  groupIds: ["tax"],
  role: "member",
};
const admin: Viewer = {
  userId: "root",
  email: "root@org1.example",
  organizationId: "org1",
  groupIds: [],
  role: "admin",
};
const outsider: Viewer = {
  userId: "eve",
  email: "eve@org2.example",
  organizationId: "org2",
  groupIds: ["legal"],
  role: "admin",
};

for (const target of databaseTargets()) {
  describe(`notes, sharing and reads on ${target.name}`, () => {
    let database: Database;
    let sink: SmtpSink;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const audit: AuditEventInput[] = [];
    const record: AuditRecorder = async (_tx, event) => {
      audit.push(event);
    };
    const documentId = randomUUID();

    beforeAll(async () => {
      database = await openMigrated(await target.create());
      sink = await startSmtpSink();
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await database?.close();
      await sink?.stop();
      await receiver?.stop();
      await target.cleanup();
    });

    it("shows notes by visibility across users and groups; only the author edits or deletes", async () => {
      const schema = noteInputSchema("es", ana.groupIds);
      const priv = await createNote(
        database.db,
        record,
        ana,
        documentId,
        schema.parse({ body: "mi **nota** privada", visibility: "private", paragraph: 3 }),
      );
      const group = await createNote(
        database.db,
        record,
        ana,
        documentId,
        schema.parse({ body: "para legal", visibility: "group", groupId: "legal" }),
      );
      await createNote(
        database.db,
        record,
        ana,
        documentId,
        schema.parse({ body: "para todos <script>x</script>", visibility: "organization" }),
      );
      expect(
        noteInputSchema("es", ana.groupIds)
          .safeParse({ body: "x", visibility: "group", groupId: "tax" })
          .error?.flatten().fieldErrors.groupId,
      ).toEqual(["Elige uno de tus grupos para una nota de grupo."]);

      const bodies = async (viewer: Viewer) =>
        (await listNotesFor(database.db, viewer, documentId)).map((n) => n.body).sort();
      expect(await bodies(ana)).toEqual(["mi **nota** privada", "para legal", "para todos <script>x</script>"]);
      expect(await bodies(bea)).toEqual(["para legal", "para todos <script>x</script>"]);
      expect(await bodies(carl)).toEqual(["para todos <script>x</script>"]);
      expect(await bodies(admin)).toEqual(["para todos <script>x</script>"]);
      expect(await bodies(outsider)).toEqual([]);
      const html = (await listNotesFor(database.db, carl, documentId))[0]?.html;
      expect(html).toBe("<p>para todos &#60;script&#62;x&#60;/script&#62;</p>");

      const edit = noteInputSchema("en", bea.groupIds).parse({ body: "hijacked", visibility: "organization" });
      expect(await updateNote(database.db, record, bea, group.id, edit)).toBeUndefined();
      expect(await deleteNote(database.db, record, bea, priv.id)).toBe(false);
      const updated = await updateNote(
        database.db,
        record,
        ana,
        group.id,
        schema.parse({ body: "para legal, revisado", visibility: "group", groupId: "legal" }),
      );
      expect(updated?.body).toBe("para legal, revisado");
      expect(await deleteNote(database.db, record, ana, priv.id)).toBe(true);
      expect(await bodies(ana)).toEqual(["para legal, revisado", "para todos <script>x</script>"]);
      expect(audit.map((e) => `${e.action} ${e.actor?.id}`)).toEqual([
        "note.created ana",
        "note.created ana",
        "note.created ana",
        "note.updated ana",
        "note.deleted ana",
      ]);

      // The audit event is in the note's transaction: when recording fails, no note is left.
      const failing: AuditRecorder = async () => {
        throw new Error("audit down");
      };
      await expect(
        createNote(database.db, failing, ana, documentId, schema.parse({ body: "lost", visibility: "private" })),
      ).rejects.toThrow("audit down");
      expect(await bodies(ana)).not.toContain("lost");
    });

    it("shares by mail without notes to outsiders, and to the group's chat; audited", async () => {
      const deps: ShareDeps = {
        record,
        mailFrom: "noreply@regwatch.example",
        siteUrl: "https://regwatch.example",
        loadDocument: async (id) =>
          id === documentId
            ? {
                id,
                title: "Orden ECO/1/2026",
                officialUrl: "https://www.boe.es/eli/es/o/2026/1",
                summary: "Resumen oficial de la orden.",
              }
            : undefined,
        membersByEmail: async (_org, emails) =>
          new Map(
            emails
              .filter((e) => e.endsWith("@org1.example"))
              .map((e) => [e, { userId: e.split("@")[0] ?? e, language: "en" as const }]),
          ),
      };
      const input = shareInputSchema("es").parse({
        recipients: ["Bea@org1.example", "someone@else.example"],
        message: "Mirad <b>esto</b>",
      });
      expect(shareInputSchema("en").safeParse({ recipients: ["not-an-email"] }).success).toBe(false);
      const result = await database.db.transaction((tx) =>
        shareByEmail(tx, deps, { from: ana, documentId, recipients: input.recipients, message: input.message }),
      );
      expect(result).toEqual({ ok: true, members: 1, outside: 1 });

      await database.db.insert((await import("../../app/.server/db/schema.ts")).alertProfiles).values({
        id: randomUUID(),
        organizationId: "org1",
        groupId: "legal",
        name: "Legal",
        chatWebhookUrl: `${receiver.base}/teams/legal`,
      });
      expect(
        await database.db.transaction((tx) => shareToChat(tx, deps, { from: carl, groupId: "legal", documentId })),
      ).toEqual({ ok: false, reason: "not-member" });
      expect(
        await database.db.transaction((tx) => shareToChat(tx, deps, { from: ana, groupId: "legal", documentId })),
      ).toMatchObject({ ok: true });

      const transport = createMailTransport({ smtpUrl: sink.url, dataDir: "/tmp", log });
      const worker = createDeliveryWorker({
        database,
        transport,
        mailFrom: deps.mailFrom,
        siteUrl: deps.siteUrl,
        settings: { allowPrivateUrls: true },
        log,
      });
      expect(await worker.drain()).toBe(3);
      await worker.stop();
      transport.close();

      await expect.poll(() => sink.messages.length).toBe(2);
      const member = decodeQuotedPrintable(sink.messages.find((m) => m.to.includes("bea@org1.example"))?.raw ?? "");
      const outside = decodeQuotedPrintable(
        sink.messages.find((m) => m.to.includes("someone@else.example"))?.raw ?? "",
      );
      expect(member).toContain(`https://regwatch.example/app/documents/${documentId}`);
      expect(member).toContain("Mirad &#60;b&#62;esto&#60;/b&#62;");
      expect(outside).toContain("https://www.boe.es/eli/es/o/2026/1");
      expect(outside).toContain("Resumen oficial de la orden.");
      expect(outside).not.toContain("/app/documents/");
      for (const raw of [member, outside]) {
        expect(raw).not.toContain("para legal");
        expect(raw).not.toContain("para todos");
      }
      const chat = receiver.received.find((r) => r.path === "/teams/legal");
      const card = JSON.parse(chat?.body ?? "{}");
      expect(card.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
      expect(JSON.stringify(card)).toContain("ana@org1.example ha compartido un documento");
      expect(audit.filter((e) => e.action.startsWith("share.")).map((e) => e.action)).toEqual([
        "share.emailed",
        "share.chat",
      ]);
    });

    it("records reads, marks the document's alerts read, and shows receipts to admins and the group", async () => {
      const profile = await createProfile(
        database.db,
        "org1",
        profileInputSchema("en").parse({ name: "p", userId: "bea" }),
      );
      await database.rows(
        sql`insert into alerts (user_id, document_id, profile_id, title) values ('bea', ${documentId}, ${profile.id}, 'Orden')`,
      );
      expect(await unreadCount(database.db, "bea")).toBe(1);
      await database.db.transaction((tx) => recordRead(tx, bea, documentId));
      await database.db.transaction((tx) => recordRead(tx, bea, documentId));
      await database.db.transaction((tx) => recordRead(tx, carl, documentId));
      expect(await unreadCount(database.db, "bea")).toBe(0);
      expect((await readersOf(database.db, admin, documentId))?.map((r) => r.userId)).toEqual(["bea", "carl"]);
      expect((await readersOf(database.db, ana, documentId, ["legal"]))?.length).toBe(2);
      expect(await readersOf(database.db, carl, documentId, ["legal"])).toBeUndefined();
      expect(await readersOf(database.db, outsider, documentId, ["legal"])).toEqual([]);
    });
  });
}
