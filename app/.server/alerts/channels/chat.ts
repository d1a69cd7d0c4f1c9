/** What Slack and Teams share: the payload of a "chat" row, which app a URL belongs to, and the rows for a group profile's chat. */
import { z } from "zod";
import { matchWhy, whyText } from "../why.ts";
import { channelText, fill } from "./catalog.ts";
import type { PreparedDelivery, ProfileMatch } from "./types.ts";

export type ChatFormat = "slack" | "teams";

export const chatPayload = z.object({
  url: z.string(),
  /** Set when a member shared the document to the group's chat (instead of a profile match). */
  sharedBy: z.string().optional(),
  format: z.enum(["slack", "teams"]),
  language: z.enum(["es", "en"]),
  documentId: z.string(),
  profileId: z.string(),
  profileName: z.string(),
  title: z.string(),
  officialUrl: z.string(),
  publishedOn: z.string(),
  /** Why it matched (decision 0148); absent on a shared document and on rows stored before. */
  why: matchWhy.optional(),
});
export type ChatPayload = z.infer<typeof chatPayload>;

/** Slack's incoming webhooks live on hooks.slack.com; Teams' on Microsoft hosts; elsewhere (tests) a path naming "teams". */
export function chatFormat(url: string): ChatFormat {
  const parsed = new URL(url);
  if (parsed.hostname === "hooks.slack.com") return "slack";
  if (/(\.webhook\.office\.com|\.logic\.azure\.com|\.powerplatform\.com)$/.test(parsed.hostname)) return "teams";
  return /teams/i.test(parsed.pathname) ? "teams" : "slack";
}

export function chatIntro(payload: ChatPayload): string {
  const l = channelText(payload.language).chat;
  return payload.sharedBy ? fill(l.shared, { who: payload.sharedBy }) : fill(l.intro, { profile: payload.profileName });
}

/** The why line of a chat message, in the profile's language (none for a shared document). */
export function chatWhy(payload: ChatPayload): string | undefined {
  return payload.why && !payload.sharedBy ? whyText(payload.why, payload.language, payload.profileName) : undefined;
}

/** Matching asks Slack and Teams about every group profile: each URL is parsed once (a bounded memo). */
const formats = new Map<string, ChatFormat>();
function knownFormat(url: string): ChatFormat {
  let format = formats.get(url);
  if (!format) {
    format = chatFormat(url);
    if (formats.size >= 5000) formats.clear();
    formats.set(url, format);
  }
  return format;
}

/** A group profile with a chat URL of this app posts each new match there, in the profile's language. */
export function prepareChat(format: ChatFormat, match: ProfileMatch): PreparedDelivery[] {
  const { profile } = match;
  if (!profile.groupId || !profile.chatWebhookUrl || knownFormat(profile.chatWebhookUrl) !== format) return [];
  const payload: ChatPayload = {
    url: profile.chatWebhookUrl,
    format,
    language: profile.language === "en" ? "en" : "es",
    documentId: match.documentId,
    profileId: profile.id,
    profileName: profile.name,
    title: match.document.title,
    officialUrl: match.document.officialUrl,
    publishedOn: match.document.publishedOn,
    why: match.why,
  };
  return [{ kind: "chat", recipient: profile.chatWebhookUrl, payload }];
}
