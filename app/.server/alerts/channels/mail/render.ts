/** The alert mail sent at once: rendered at send time from its payload, in the recipient's language; every value escaped in HTML. */
import { company } from "../../../../content/company.ts";
import { escapeHtml } from "../../../../lib/escape-html.ts";
import { headerSafe } from "../../../mail/notification.ts";
import { whyText } from "../../why.ts";
import { channelText, documentLink, fill, messageId, profileLink, safeHref } from "../catalog.ts";
import type { EmailPayload } from "./index.ts";
import type { AlertMail } from "./ready.ts";

export function immediateMail(
  payload: EmailPayload,
  options: { from: string; siteUrl: string; deliveryId: string },
): AlertMail {
  const l = channelText(payload.language).alert;
  const intro = fill(l.intro, { profile: payload.profileName });
  const doc = documentLink(options.siteUrl, payload.documentId);
  const change = profileLink(options.siteUrl, payload.profileId);
  const why = payload.why ? whyText(payload.why, payload.language, payload.profileName) : "";
  const text = [
    intro,
    "",
    payload.title,
    ...(why ? [why] : []),
    `${l.open}: ${doc}`,
    payload.officialUrl ? `${l.official}: ${payload.officialUrl}` : "",
    "",
    `${l.change}: ${change}`,
  ].join("\n");
  const html = `<!doctype html><html lang="${payload.language}"><body><p>${escapeHtml(intro)}</p><h1 style="font-size:18px">${escapeHtml(payload.title)}</h1>${why ? `<p data-why>${escapeHtml(why)}</p>` : ""}<p><a href="${escapeHtml(doc)}">${escapeHtml(l.open)}</a>${payload.officialUrl ? ` · <a href="${safeHref(payload.officialUrl)}">${escapeHtml(l.official)}</a>` : ""}</p><p style="font-size:12px"><a href="${escapeHtml(change)}">${escapeHtml(l.change)}</a></p></body></html>`;
  return {
    from: options.from,
    to: payload.email,
    replyTo: { name: company.tradeName, address: options.from },
    subject: headerSafe(fill(l.subject, { title: payload.title }), 200),
    messageId: messageId(`alert-${options.deliveryId}`, options.siteUrl),
    text,
    html,
    headers: { "List-Unsubscribe": `<${change}>` },
  };
}
