/**
 * A shared document by mail. Members get the platform link; outside addresses the official link
 * and the summary. Neither ever carries notes (nothing here reads them).
 */
import { escapeHtml } from "../../../../lib/escape-html.ts";
import { headerSafe } from "../../../mail/notification.ts";
import type { Lang } from "../../profiles.ts";
import { channelText, documentLink, fill, messageId, safeHref } from "../catalog.ts";
import type { AlertMail } from "./ready.ts";

export function shareMail(options: {
  member: boolean;
  from: string;
  to: string;
  senderEmail: string;
  language: Lang;
  message: string;
  document: { id: string; title: string; officialUrl: string; summary: string };
  siteUrl: string;
  shareId: string;
}): AlertMail {
  const all = channelText(options.language);
  const s = all.share;
  const { document } = options;
  const link = options.member ? documentLink(options.siteUrl, document.id) : document.officialUrl;
  const linkLabel = options.member ? all.alert.open : all.alert.official;
  const intro = fill(s.intro, { who: options.senderEmail });
  const text = [
    intro,
    "",
    document.title,
    `${linkLabel}: ${link}`,
    ...(!options.member && document.summary ? ["", `${s.summary}:`, document.summary] : []),
    ...(options.message ? ["", `${s.message}:`, options.message] : []),
  ].join("\n");
  const html = `<!doctype html><html lang="${options.language}"><body><p>${escapeHtml(intro)}</p><h1 style="font-size:18px">${escapeHtml(document.title)}</h1><p><a href="${safeHref(link)}">${escapeHtml(linkLabel)}</a></p>${!options.member && document.summary ? `<h2 style="font-size:15px">${escapeHtml(s.summary)}</h2><p>${escapeHtml(document.summary)}</p>` : ""}${options.message ? `<h2 style="font-size:15px">${escapeHtml(s.message)}</h2><p style="white-space:pre-wrap">${escapeHtml(options.message)}</p>` : ""}</body></html>`;
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: headerSafe(options.senderEmail, 100), address: options.senderEmail },
    subject: headerSafe(fill(s.subject, { who: options.senderEmail, title: document.title }), 200),
    messageId: messageId(`share-${options.shareId}-${options.to.replace(/@/g, ".")}`, options.siteUrl),
    text,
    html,
    headers: {},
  };
}
