/** The daily digest mail: one entry per document with every profile that matched it; every value escaped in HTML. */
import { company } from "../../../../content/company.ts";
import { escapeHtml } from "../../../../lib/escape-html.ts";
import { longDay } from "../../../../lib/long-day.ts";
import { plural } from "../../../../lib/plural.ts";
import { headerSafe } from "../../../mail/notification.ts";
import type { Lang } from "../../profiles.ts";
import { channelText, documentLink, fill, messageId, profileLink } from "../catalog.ts";
import type { AlertMail } from "../mail/ready.ts";

export interface DigestItem {
  documentId: string;
  title: string;
  /** Each profile that matched, with why (in the recipient's language) when the alert kept it. */
  profiles: { id: string; name: string; why?: string }[];
}

/** Open work of the recipient's that is overdue or due soon (triage/digest-deadlines.ts gives them). */
export interface DigestDeadline {
  /** review: an obligation whose anchored law article changed (documentTitle: the law; article: the article). */
  kind: "triage" | "obligation" | "review";
  title: string;
  documentTitle: string;
  documentId: string;
  /** YYYY-MM-DD ("" for a review, which has none) */
  dueOn: string;
  article?: string;
  /** Where it opens when not the document page (a review: /app/obligations/{id}/review). */
  path?: string;
}

export function digestMail(
  items: DigestItem[],
  options: {
    from: string;
    to: string;
    language: Lang;
    day: string;
    siteUrl: string;
    userId: string;
    /** The recipient's deadlines as of `today` (the day the digest is sent). */
    deadlines?: DigestDeadline[];
    today?: string;
  },
): AlertMail {
  const all = channelText(options.language);
  const l = all.digest;
  const change = all.alert.change;
  const open = all.alert.open;
  const intro = fill(l.intro, { day: options.day });
  const deadlines = options.deadlines ?? [];
  const today = options.today ?? options.day;
  const when = (deadline: DigestDeadline) =>
    deadline.kind === "review"
      ? l.reviewNeeded
      : deadline.dueOn < today
        ? fill(l.overdue, { date: longDay(deadline.dueOn, options.language) })
        : deadline.dueOn === today
          ? l.dueToday
          : fill(l.dueOn, { date: longDay(deadline.dueOn, options.language) });
  const what = (deadline: DigestDeadline) =>
    deadline.kind === "triage"
      ? fill(l.decision, { title: deadline.title })
      : deadline.kind === "review"
        ? fill(l.review, { title: deadline.title, article: deadline.article ?? "", document: deadline.documentTitle })
        : fill(l.obligation, { title: deadline.title, document: deadline.documentTitle });
  const deadlineLink = (deadline: DigestDeadline) =>
    deadline.path
      ? `${options.siteUrl.replace(/\/$/, "")}${deadline.path}`
      : `${documentLink(options.siteUrl, deadline.documentId)}${deadline.kind === "triage" ? "#triage" : "#obligations"}`;
  const deadlineText = deadlines.length
    ? [
        "",
        l.deadlines,
        "",
        ...deadlines.flatMap((deadline) => [
          `- ${what(deadline)} (${when(deadline)})`,
          `  ${open}: ${deadlineLink(deadline)}`,
        ]),
      ]
    : [];
  const text = [
    ...(items.length ? [intro, ""] : []),
    ...items.flatMap((item) => [
      `- ${item.title}`,
      `  ${open}: ${documentLink(options.siteUrl, item.documentId)}`,
      `  ${l.profiles}: ${item.profiles.map((p) => `${p.name} (${change}: ${profileLink(options.siteUrl, p.id)})`).join("; ")}`,
      ...item.profiles.flatMap((p) => (p.why ? [`  ${all.why.label}: ${p.why}`] : [])),
    ]),
    ...deadlineText,
  ].join("\n");
  const lis = items
    .map(
      (item) =>
        `<li><a href="${escapeHtml(documentLink(options.siteUrl, item.documentId))}">${escapeHtml(item.title)}</a><br><small>${escapeHtml(l.profiles)}: ${item.profiles
          .map(
            (p) =>
              `<a href="${escapeHtml(profileLink(options.siteUrl, p.id))}" title="${escapeHtml(change)}">${escapeHtml(p.name)}</a>`,
          )
          .join(", ")}</small>${item.profiles
          .filter((p) => p.why)
          .map((p) => `<br><small data-why>${escapeHtml(p.why ?? "")}</small>`)
          .join("")}</li>`,
    )
    .join("\n");
  const deadlineHtml = deadlines.length
    ? `<h2>${escapeHtml(l.deadlines)}</h2><ul>\n${deadlines
        .map(
          (deadline) =>
            `<li><a href="${escapeHtml(deadlineLink(deadline))}">${escapeHtml(what(deadline))}</a><br><small>${escapeHtml(when(deadline))}</small></li>`,
        )
        .join("\n")}\n</ul>`
    : "";
  const documentsHtml = items.length ? `<p>${escapeHtml(intro)}</p><ul>\n${lis}\n</ul>` : "";
  const html = `<!doctype html><html lang="${options.language}"><body>${documentsHtml}${deadlineHtml}</body></html>`;
  const subject = items.length
    ? plural(options.language, l.subject, items.length, { day: options.day })
    : plural(options.language, l.subjectDeadline, deadlines.length, { day: options.day });
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
