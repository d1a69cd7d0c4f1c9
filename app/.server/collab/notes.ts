/**
 * Notes on documents: private (author only), group (members of that group) or organisation
 * (every member) visibility, optionally anchored to a paragraph, a safe Markdown subset; edited
 * and deleted by the author only; every change audited in the same transaction.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, or } from "drizzle-orm";
import { z } from "zod";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import type { AuditEventInput } from "../audit/types.ts";
import type { Db } from "../db/client.ts";
import { notes } from "../db/schema.ts";
import { renderMarkdown } from "./markdown.ts";

/** recordAudit(tx, event) from app/.server/audit/record.ts (branch `audit`). */
export type AuditRecorder = (tx: Db, event: AuditEventInput) => Promise<unknown>;

/** The signed-in member acting or reading. */
export interface Viewer {
  userId: string;
  email: string;
  organizationId: string;
  /** Groups the viewer belongs to in this organisation. */
  groupIds: string[];
  role: "owner" | "admin" | "member";
  language?: "es" | "en";
}

export function noteInputSchema(lang: "es" | "en", viewerGroupIds: string[]) {
  const t = serverMessagesFor(lang).notes;
  return z
    .object({
      body: z.string({ error: t.body }).trim().min(1, t.body).max(10_000, t.body),
      visibility: z.enum(["private", "group", "organization"], { error: t.visibility }),
      groupId: z.string().nullable().default(null),
      paragraph: z
        .number({ error: t.paragraph })
        .int(t.paragraph)
        .min(0, t.paragraph)
        .max(100_000, t.paragraph)
        .nullable()
        .default(null),
    })
    .strict()
    .superRefine((value, ctx) => {
      if (value.visibility === "group" && !(value.groupId && viewerGroupIds.includes(value.groupId)))
        ctx.addIssue({ code: "custom", path: ["groupId"], message: t.group });
    })
    .transform((value) => ({ ...value, groupId: value.visibility === "group" ? value.groupId : null }));
}

export type NoteInput = z.output<ReturnType<typeof noteInputSchema>>;

export interface NoteView {
  id: string;
  authorId: string;
  documentId: string;
  visibility: string;
  groupId: string | null;
  paragraph: number | null;
  body: string;
  html: string;
  createdAt: Date;
  updatedAt: Date;
  mine: boolean;
}

function toView(row: typeof notes.$inferSelect, viewer: Viewer): NoteView {
  return {
    id: row.id,
    authorId: row.authorId,
    documentId: row.documentId,
    visibility: row.visibility,
    groupId: row.groupId,
    paragraph: row.paragraph,
    body: row.body,
    html: renderMarkdown(row.body),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    mine: row.authorId === viewer.userId,
  };
}

function actor(viewer: Viewer) {
  return { id: viewer.userId, email: viewer.email };
}

export async function createNote(
  db: Db,
  record: AuditRecorder,
  viewer: Viewer,
  documentId: string,
  input: NoteInput,
): Promise<NoteView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(notes)
      .values({
        id: randomUUID(),
        organizationId: viewer.organizationId,
        authorId: viewer.userId,
        documentId,
        visibility: input.visibility,
        groupId: input.groupId,
        paragraph: input.paragraph,
        body: input.body,
      })
      .returning();
    if (!row) throw new Error("note insert returned nothing");
    await record(tx, {
      organizationId: viewer.organizationId,
      actor: actor(viewer),
      action: "note.created",
      object: { type: "note", id: row.id },
      detail: { documentId, visibility: row.visibility, groupId: row.groupId },
    });
    return toView(row, viewer);
  });
}

/** Author only; undefined when the note is not the viewer's (or does not exist). */
export async function updateNote(
  db: Db,
  record: AuditRecorder,
  viewer: Viewer,
  noteId: string,
  input: NoteInput,
): Promise<NoteView | undefined> {
  if (!z.uuid().safeParse(noteId).success) return undefined;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(notes)
      .set({
        body: input.body,
        visibility: input.visibility,
        groupId: input.groupId,
        paragraph: input.paragraph,
        updatedAt: new Date(),
      })
      .where(
        and(eq(notes.id, noteId), eq(notes.authorId, viewer.userId), eq(notes.organizationId, viewer.organizationId)),
      )
      .returning();
    if (!row) return undefined;
    await record(tx, {
      organizationId: viewer.organizationId,
      actor: actor(viewer),
      action: "note.updated",
      object: { type: "note", id: row.id },
      detail: { documentId: row.documentId, visibility: row.visibility, groupId: row.groupId },
    });
    return toView(row, viewer);
  });
}

export async function deleteNote(db: Db, record: AuditRecorder, viewer: Viewer, noteId: string): Promise<boolean> {
  if (!z.uuid().safeParse(noteId).success) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(notes)
      .where(
        and(eq(notes.id, noteId), eq(notes.authorId, viewer.userId), eq(notes.organizationId, viewer.organizationId)),
      )
      .returning({ id: notes.id, documentId: notes.documentId });
    if (!row) return false;
    await record(tx, {
      organizationId: viewer.organizationId,
      actor: actor(viewer),
      action: "note.deleted",
      object: { type: "note", id: row.id },
      detail: { documentId: row.documentId },
    });
    return true;
  });
}

/** The notes the viewer may see on a document, in paragraph then time order. */
export async function listNotesFor(db: Db, viewer: Viewer, documentId: string): Promise<NoteView[]> {
  const visible = or(
    eq(notes.visibility, "organization"),
    and(eq(notes.visibility, "private"), eq(notes.authorId, viewer.userId)),
    viewer.groupIds.length ? and(eq(notes.visibility, "group"), inArray(notes.groupId, viewer.groupIds)) : undefined,
  );
  const rows = await db
    .select()
    .from(notes)
    .where(and(eq(notes.organizationId, viewer.organizationId), eq(notes.documentId, documentId), visible))
    .orderBy(asc(notes.paragraph), asc(notes.createdAt));
  return rows.map((row) => toView(row, viewer));
}
