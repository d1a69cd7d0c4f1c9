/** The daily digest mail: one entry per document with every profile that matched it; every value escaped in HTML. */
import { company } from "../../../../content/company.ts";
import { escapeHtml } from "../../../../lib/escape-html.ts";
import { headerSafe } from "../../../mail/notification.ts";
import type { Lang } from "../../profiles.ts";
import { channelText, documentLink, fill, messageId, profileLink } from "../catalog.ts";
import type { AlertMail } from "../mail/ready.ts";

export interface DigestItem {
  documentId: string;
  title: string;
  profiles: { id: string; name: string }[];
}

export function digestMail(
  items: DigestItem[],
  options: { from: string; to: string; language: Lang; day: string; siteUrl: string; userId: string },
): AlertMail {
  const all = channelText(options.language);
  const l = all.digest;
  const change = all.alert.change;
  const open = all.alert.open;
  const intro = fill(l.intro, { day: options.day });
  const text = [
    intro,
    "",
    ...items.flatMap((item) => [
      `- ${item.title}`,
      `  ${open}: ${documentLink(options.siteUrl, item.documentId)}`,
      `  ${l.profiles}: ${item.profiles.map((p) => `${p.name} (${change}: ${profileLink(options.siteUrl, p.id)})`).join("; ")}`,
    ]),
  ].join("\n");
  const lis = items
    .map(
      (item) =>
        `<li><a href="${escapeHtml(documentLink(options.siteUrl, item.documentId))}">${escapeHtml(item.title)}</a><br><small>${escapeHtml(l.profiles)}: ${item.profiles
          .map(
            (p) =>
              `<a href="${escapeHtml(profileLink(options.siteUrl, p.id))}" title="${escapeHtml(change)}">${escapeHtml(p.name)}</a>`,
          )
          .join(", ")}</small></li>`,
    )
    .join("\n");
  const html = `<!doctype html><html lang="${options.language}"><body><p>${escapeHtml(intro)}</p><ul>\n${lis}\n</ul></body></html>`;
  const subject = fill(items.length === 1 ? l.subjectOne : l.subjectOther, { day: options.day, count: items.length });
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: company.tradeName, address: options.from },
    subject: headerSafe(subject, 200),
    messageId: messageId(`digest-${options.userId}-${options.day}`, options.siteUrl),
    text,
    html,
    headers: {},
  };
}
