/**
 * Sharing a document by mail (members: a link into the platform; outside addresses: the official
 * link and the summary, never notes) or to a group's team chat. Both go through the deliveries
 * outbox (stored in the caller's transaction, sent by the delivery worker) and are audited.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import { type ChatPayload, chatFormat } from "../alerts/channels/chat.ts";
import { shareMail } from "../alerts/channels/mail/share.ts";
import type { Db } from "../db/client.ts";
import { alertProfiles, deliveries } from "../db/schema.ts";
import type { AuditRecorder, Viewer } from "./notes.ts";

export interface ShareableDocument {
  id: string;
  title: string;
  officialUrl: string;
  /** The plain summary outsiders may read (e.g. the epigraph); never notes. */
  summary: string;
  publishedOn?: string;
}

export interface ShareDeps {
  record: AuditRecorder;
  loadDocument(id: string): Promise<ShareableDocument | undefined>;
  /** Members of the organisation among these addresses (lower-cased keys). */
  membersByEmail(
    organizationId: string,
    emails: string[],
  ): Promise<Map<string, { userId: string; language: "es" | "en" }>>;
  mailFrom: string;
  siteUrl: string;
}

export function shareInputSchema(lang: "es" | "en") {
  const t = serverMessagesFor(lang).sharing;
  return z
    .object({
      recipients: z
        .array(z.email({ error: t.recipients }).max(254, t.recipients), { error: t.recipients })
        .min(1, t.recipients)
        .max(20, t.recipients),
      message: z.string({ error: t.message }).trim().max(2000, t.message).default(""),
    })
    .strict();
}

export type ShareResult =
  | { ok: true; members: number; outside: number }
  | { ok: false; reason: "not-found" | "no-chat" | "not-member" };

export async function shareByEmail(
  tx: Db,
  deps: ShareDeps,
  options: { from: Viewer; documentId: string; recipients: string[]; message: string },
): Promise<ShareResult> {
  const document = await deps.loadDocument(options.documentId);
  if (!document) return { ok: false, reason: "not-found" };
  const viewer = options.from;
  const emails = [...new Set(options.recipients.map((e) => e.trim().toLowerCase()))];
  const members = await deps.membersByEmail(viewer.organizationId, emails);
  const shareId = randomUUID();
  const rows = emails.map((to) => {
    const member = members.get(to);
    const mail = shareMail({
      member: Boolean(member),
      from: deps.mailFrom,
      to,
      senderEmail: viewer.email,
      language: member?.language ?? viewer.language ?? "es",
      message: options.message,
      document,
      siteUrl: deps.siteUrl,
      shareId,
    });
    return {
      id: randomUUID(),
      matchKey: `share:${shareId}`,
      channel: "mail",
      recipient: to,
      organizationId: viewer.organizationId,
      payload: mail,
    };
  });
  await tx.insert(deliveries).values(rows);
  const outside = emails.length - members.size;
  await deps.record(tx, {
    organizationId: viewer.organizationId,
    actor: { id: viewer.userId, email: viewer.email },
    action: "share.emailed",
    object: { type: "document", id: document.id },
    detail: { shareId, members: members.size, outside },
  });
  return { ok: true, members: members.size, outside };
}

/** The group's chat URL: the one set on its alert profiles (the newest). */
export async function groupChatUrl(tx: Db, organizationId: string, groupId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ url: alertProfiles.chatWebhookUrl })
    .from(alertProfiles)
    .where(
      and(
        eq(alertProfiles.organizationId, organizationId),
        eq(alertProfiles.groupId, groupId),
        isNotNull(alertProfiles.chatWebhookUrl),
      ),
    )
    .orderBy(desc(alertProfiles.updatedAt))
    .limit(1);
  return row?.url ?? undefined;
}

export async function shareToChat(
  tx: Db,
  deps: ShareDeps,
  options: { from: Viewer; groupId: string; documentId: string },
): Promise<ShareResult> {
  const viewer = options.from;
  if (!viewer.groupIds.includes(options.groupId) && viewer.role === "member")
    return { ok: false, reason: "not-member" };
  const document = await deps.loadDocument(options.documentId);
  if (!document) return { ok: false, reason: "not-found" };
  const url = await groupChatUrl(tx, viewer.organizationId, options.groupId);
  if (!url) return { ok: false, reason: "no-chat" };
  const shareId = randomUUID();
  const payload: ChatPayload = {
    url,
    format: chatFormat(url),
    sharedBy: viewer.email,
    language: viewer.language ?? "es",
    documentId: document.id,
    profileId: "",
    profileName: "",
    title: document.title,
    officialUrl: document.officialUrl,
    publishedOn: document.publishedOn ?? "",
  };
  await tx.insert(deliveries).values({
    id: randomUUID(),
    matchKey: `share:${shareId}`,
    channel: "chat",
    recipient: url,
    organizationId: viewer.organizationId,
    payload,
  });
  await deps.record(tx, {
    organizationId: viewer.organizationId,
    actor: { id: viewer.userId, email: viewer.email },
    action: "share.chat",
    object: { type: "document", id: document.id },
    detail: { shareId, groupId: options.groupId },
  });
  return { ok: true, members: 0, outside: 0 };
}
