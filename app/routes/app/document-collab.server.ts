/**
 * Notes and shares on the document page: what the page lists (the member's visible notes with
 * their authors, the groups they may write to or share with, the shares recorded in the audit
 * trail) and the page's form actions, each through collab/notes.ts and collab/sharing.ts (which
 * write their audit events in the transaction of the change).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { listAuditEvents } from "../../.server/audit/query.ts";
import { recordAudit } from "../../.server/audit/record.ts";
import type { MemberInfo } from "../../.server/auth/permissions.ts";
import {
  createNote,
  deleteNote,
  listNotesFor,
  noteInputSchema,
  updateNote,
  type Viewer,
} from "../../.server/collab/notes.ts";
import { type ShareDeps, shareByEmail, shareInputSchema, shareToChat } from "../../.server/collab/sharing.ts";
import type { Database, Db } from "../../.server/db/client.ts";
import { member as memberTable, team, user } from "../../.server/db/schema/auth.ts";
import { getDocument } from "../../.server/documents/search.ts";
import type { Locale } from "../../i18n/locales.ts";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import { fieldErrorsOf } from "../../lib/field-errors.ts";
import { viewerOf } from "./document.server.ts";

export interface NoteItem {
  id: string;
  authorName: string;
  visibility: "private" | "group" | "organization";
  groupId: string | null;
  groupName: string | null;
  paragraph: number | null;
  body: string;
  /** Safe HTML from collab/markdown.ts (escaped text, a small set of tags, safe links). */
  html: string;
  createdAt: string;
  updatedAt: string;
  mine: boolean;
}

export interface ShareItem {
  action: "share.emailed" | "share.chat";
  by: string;
  at: string;
  members: number;
  outside: number;
  groupName: string | null;
}

export interface CollabView {
  notes: NoteItem[];
  /** Groups the member may write group notes to (theirs). */
  noteGroups: { id: string; name: string }[];
  /** Groups the member may share with by chat (theirs; every group for admins). */
  chatGroups: { id: string; name: string }[];
  shares: ShareItem[];
}

async function groupNames(db: Db, organizationId: string, ids?: string[]): Promise<{ id: string; name: string }[]> {
  if (ids && ids.length === 0) return [];
  return db
    .select({ id: team.id, name: team.name })
    .from(team)
    .where(
      ids
        ? and(eq(team.organizationId, organizationId), inArray(team.id, ids))
        : eq(team.organizationId, organizationId),
    )
    .orderBy(asc(team.name));
}

export async function collabView(database: Database, member: MemberInfo, documentId: string): Promise<CollabView> {
  const db = database.db;
  const viewer = await viewerOf(db, member);
  const notes = await listNotesFor(db, viewer, documentId);
  const authorIds = [...new Set(notes.map((n) => n.authorId))];
  const authors =
    authorIds.length > 0
      ? await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, authorIds))
      : [];
  const authorName = new Map(authors.map((a) => [a.id, a.name]));
  const allGroups = await groupNames(db, member.organizationId);
  const groupName = new Map(allGroups.map((g) => [g.id, g.name]));
  const noteGroups = allGroups.filter((g) => viewer.groupIds.includes(g.id));
  const chatGroups = member.role === "member" ? noteGroups : allGroups;
  const events = await listAuditEvents(db, member.organizationId, {
    action: "share.*",
    objectType: "document",
    objectId: documentId,
    limit: 20,
  });
  const shares: ShareItem[] = [];
  for (const event of events.items) {
    const detail = event.detail ?? {};
    shares.push({
      action: event.action as ShareItem["action"],
      by: event.actor?.email ?? "",
      at: new Date(event.at).toISOString(),
      members: Number(detail.members ?? 0),
      outside: Number(detail.outside ?? 0),
      groupName: typeof detail.groupId === "string" ? (groupName.get(detail.groupId) ?? null) : null,
    });
  }
  return {
    notes: notes.map((n) => ({
      id: n.id,
      authorName: authorName.get(n.authorId) ?? n.authorId,
      visibility: n.visibility as NoteItem["visibility"],
      groupId: n.groupId,
      groupName: n.groupId ? (groupName.get(n.groupId) ?? null) : null,
      paragraph: n.paragraph,
      body: n.body,
      html: n.html,
      createdAt: n.createdAt.toISOString(),
      updatedAt: n.updatedAt.toISOString(),
      mine: n.mine,
    })),
    noteGroups,
    chatGroups,
    shares,
  };
}

export type CollabOutcome =
  | { ok: "noteCreated" | "noteUpdated" | "noteDeleted" }
  | { ok: "sharedEmail"; members: number; outside: number }
  | { ok: "sharedChat"; group: string }
  | { failure: "not_found" | "no_chat" | "not_member"; status: 404 | 403 | 409 }
  | { form: string; errors: Record<string, string[]>; values: Record<string, string>; status: 422 };

function fieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  locale: Locale,
): Record<string, string[]> {
  // One message a field: the page's wording where it has one, else the last issue's.
  const errors = fieldErrorsOf(issues, { fallback: "body" });
  for (const [key, list] of Object.entries(errors))
    errors[key] = [(serverMessagesFor(locale).documentForms as Record<string, string>)[key] ?? list.at(-1) ?? ""];
  return errors;
}

export interface CollabActionDeps {
  database: Database;
  member: MemberInfo;
  locale: Locale;
  documentId: string;
  origin: { ip?: string | undefined; userAgent?: string | undefined };
  mailFrom: string;
  siteUrl: string;
  /** Paragraphs of the document's text (a note's anchor must be one of them). */
  paragraphCount: number;
}

/** The document page's form actions: note.create|update|delete, share.email|chat. */
export async function collabAction(deps: CollabActionDeps, form: FormData): Promise<CollabOutcome | null> {
  const { database, member, locale, documentId, origin } = deps;
  const db = database.db;
  const intent = String(form.get("intent") ?? "");
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && key !== "intent") values[key] = value;
  const viewer: Viewer = await viewerOf(db, member);
  const record = (tx: Db, event: Parameters<typeof recordAudit>[1]) =>
    recordAudit(tx, { ...event, ip: origin.ip, userAgent: origin.userAgent });

  if (intent === "note.create" || intent === "note.update") {
    const paragraph = values.paragraph?.trim() ?? "";
    const parsed = noteInputSchema(locale, viewer.groupIds).safeParse({
      body: values.body ?? "",
      visibility: values.visibility ?? "",
      groupId: values.groupId ? values.groupId : null,
      // The form counts paragraphs from 1, as the page shows them; notes keep the index.
      paragraph: paragraph === "" ? null : Number(paragraph) - 1,
    });
    const formId = intent === "note.create" ? "note-new" : `note-${values.id ?? ""}`;
    if (!parsed.success) return { form: formId, errors: fieldErrors(parsed.error.issues, locale), values, status: 422 };
    if (parsed.data.paragraph !== null && parsed.data.paragraph >= deps.paragraphCount) {
      return {
        form: formId,
        errors: { paragraph: [serverMessagesFor(locale).documentForms.paragraph] },
        values,
        status: 422,
      };
    }
    if (intent === "note.create") {
      await createNote(db, record, viewer, documentId, parsed.data);
      return { ok: "noteCreated" };
    }
    const updated = await updateNote(db, record, viewer, values.id ?? "", parsed.data);
    return updated && updated.documentId === documentId ? { ok: "noteUpdated" } : { failure: "not_found", status: 404 };
  }
  if (intent === "note.delete") {
    return (await deleteNote(db, record, viewer, values.id ?? ""))
      ? { ok: "noteDeleted" }
      : { failure: "not_found", status: 404 };
  }
  // Everything a share reads goes through the share's own transaction (PGlite has one connection):
  // the document is read first, the members inside it.
  const doc = intent.startsWith("share.") ? await getDocument(database, documentId, member.organizationId) : null;
  const shareDeps = (tx: Db): ShareDeps => ({
    record,
    async loadDocument(id) {
      return doc && doc.id === id
        ? {
            id: doc.id,
            title: doc.title,
            officialUrl: doc.officialUrl,
            summary: doc.epigraph ?? doc.department ?? "",
            publishedOn: doc.publishedOn,
          }
        : undefined;
    },
    async membersByEmail(organizationId, emails) {
      if (emails.length === 0) return new Map();
      const rows = await tx
        .select({ email: user.email, userId: user.id, locale: user.locale })
        .from(memberTable)
        .innerJoin(user, eq(user.id, memberTable.userId))
        .where(and(eq(memberTable.organizationId, organizationId), inArray(sql`lower(${user.email})`, emails)));
      return new Map(
        rows.map((r) => [r.email.toLowerCase(), { userId: r.userId, language: r.locale === "en" ? "en" : "es" }]),
      );
    },
    mailFrom: deps.mailFrom,
    siteUrl: deps.siteUrl,
  });
  if (intent === "share.email") {
    const recipients = (values.recipients ?? "")
      .split(/[\s,;]+/)
      .map((e) => e.trim())
      .filter(Boolean);
    const parsed = shareInputSchema(locale).safeParse({ recipients, message: values.message ?? "" });
    if (!parsed.success)
      return { form: "share-email", errors: fieldErrors(parsed.error.issues, locale), values, status: 422 };
    const result = await db.transaction((tx) =>
      shareByEmail(tx, shareDeps(tx), {
        from: viewer,
        documentId,
        recipients: parsed.data.recipients,
        message: parsed.data.message,
      }),
    );
    if (!result.ok) return { failure: "not_found", status: 404 };
    return { ok: "sharedEmail", members: result.members, outside: result.outside };
  }
  if (intent === "share.chat") {
    const groupId = values.groupId ?? "";
    const groups = await groupNames(db, member.organizationId, [groupId]);
    const group = groups[0];
    if (!group) {
      const message = locale === "es" ? "Elige uno de los grupos." : "Choose one of the groups.";
      return { form: "share-chat", errors: { groupId: [message] }, values, status: 422 };
    }
    const result = await db.transaction((tx) => shareToChat(tx, shareDeps(tx), { from: viewer, groupId, documentId }));
    if (!result.ok) {
      if (result.reason === "not-found") return { failure: "not_found", status: 404 };
      if (result.reason === "not-member") return { failure: "not_member", status: 403 };
      return { failure: "no_chat", status: 409 };
    }
    return { ok: "sharedChat", group: group.name };
  }
  return null;
}
