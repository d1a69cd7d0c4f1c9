/** What a law alert says: the in-app title and the mail (es/en), every value escaped in HTML. */
import { company } from "../../content/company.ts";
import { lawAlerts as en } from "../../i18n/en/law-alerts.ts";
import { lawAlerts as es } from "../../i18n/es/law-alerts.ts";
import { escapeHtml } from "../../lib/escape-html.ts";
import type { AlertMail } from "../alerts/channels/mail/ready.ts";
import type { Lang } from "../alerts/profiles.ts";
import { type MatchWhy, whyText } from "../alerts/why.ts";
import type { ChangedBlockDetail } from "../law-texts/changes.ts";
import { headerSafe } from "../mail/notification.ts";
import { lawChangeLink, lawCompareLink, lawLink } from "./links.ts";

export const lawCatalog = (lang: Lang) => (lang === "en" ? en : es);

export interface LawChangeView {
  changeId: string;
  kind: "announced" | "consolidated";
  lawId: string;
  lawTitle: string;
  /** Block titles named or changed, in text order. */
  blockTitles: string[];
  blocks: ChangedBlockDetail[];
  previousChangeId: string | null;
  act?: { id: string; documentId: string | null; relation: string; publishedOn: string };
}

const MAX_WORDING = 4000;

function shortLaw(title: string): string {
  const m = /^([^,]+,\s*de\s+\d+\s+de\s+\w+)/.exec(title);
  return m?.[1] ?? (title.length > 90 ? `${title.slice(0, 87)}…` : title);
}

export function lawAlertTitle(view: LawChangeView, lang: Lang): string {
  const l = lawCatalog(lang);
  const blocks = view.blockTitles.join(", ");
  const law = shortLaw(view.lawTitle);
  return view.kind === "announced" ? l.announcedTitle(law, blocks) : l.changedTitle(law, blocks || l.wholeLaw);
}

export function lawAlertMail(
  view: LawChangeView,
  options: {
    from: string;
    siteUrl: string;
    to: string;
    language: Lang;
    profileId: string;
    profileName: string;
    key: string;
    /** Why the follow matched (decision 0148). */
    why?: MatchWhy;
  },
): AlertMail {
  const l = lawCatalog(options.language);
  const lawUrl = lawLink(options.siteUrl, view.lawId);
  const profileUrl = `${options.siteUrl.replace(/\/$/, "")}/app/profiles/${encodeURIComponent(options.profileId)}`;
  const text: string[] = [];
  const html: string[] = [];
  const intro = view.kind === "announced" ? l.introAnnounced(options.profileName) : l.introChanged(options.profileName);
  const why = options.why ? whyText(options.why, options.language, options.profileName) : "";
  text.push(intro, "", view.lawTitle, ...(why ? [why] : []), `${l.openLaw}: ${lawUrl}`, "");
  html.push(
    `<p>${escapeHtml(intro)}</p><h1 style="font-size:18px"><a href="${escapeHtml(lawUrl)}">${escapeHtml(view.lawTitle)}</a></h1>${why ? `<p data-why>${escapeHtml(why)}</p>` : ""}`,
  );
  if (view.act) {
    const actUrl = view.act.documentId
      ? `${options.siteUrl.replace(/\/$/, "")}/app/documents/${encodeURIComponent(view.act.documentId)}`
      : `https://www.boe.es/buscar/doc.php?id=${encodeURIComponent(view.act.id)}`;
    const line = l.announcedBy(view.act.id, view.act.relation);
    text.push(line, `${l.publishedOn(view.act.publishedOn)}`, `${l.openAct}: ${actUrl}`, "");
    html.push(
      `<p>${escapeHtml(line)}<br>${escapeHtml(l.publishedOn(view.act.publishedOn))} · <a href="${escapeHtml(actUrl)}">${escapeHtml(l.openAct)}</a></p>`,
    );
    const named = view.blockTitles.length ? view.blockTitles.join(", ") : l.notNamed;
    text.push(`${l.articlesNamed}: ${named}`, "");
    html.push(`<p><strong>${escapeHtml(l.articlesNamed)}:</strong> ${escapeHtml(named)}</p>`);
  }
  for (const block of view.blocks) {
    const wording =
      block.text.length > MAX_WORDING ? `${block.text.slice(0, MAX_WORDING)}… ${l.truncated}` : block.text;
    const compare = lawCompareLink(options.siteUrl, view.lawId, block.blockId, block.normId);
    const dates = [l.publishedOn(block.publishedOn), block.inForceOn ? l.inForce(block.inForceOn) : ""]
      .filter(Boolean)
      .join(" · ");
    const heading = `${block.title} — ${block.corrected ? l.corrected : l.newWording} (${block.normId})`;
    text.push(heading, dates, wording, `${l.compare}: ${compare}`, "");
    html.push(
      `<h2 style="font-size:16px">${escapeHtml(heading)}</h2><p style="font-size:12px">${escapeHtml(dates)}</p><blockquote>${escapeHtml(wording)}</blockquote><p><a href="${escapeHtml(compare)}">${escapeHtml(l.compare)}</a></p>`,
    );
  }
  if (view.previousChangeId) {
    const earlier = lawChangeLink(options.siteUrl, view.lawId, view.previousChangeId);
    text.push(`${l.earlier}: ${earlier}`, "");
    html.push(`<p><a href="${escapeHtml(earlier)}">${escapeHtml(l.earlier)}</a></p>`);
  }
  text.push(`${l.change}: ${profileUrl}`);
  html.push(`<p style="font-size:12px"><a href="${escapeHtml(profileUrl)}">${escapeHtml(l.change)}</a></p>`);
  let host = "localhost";
  try {
    host = new URL(options.siteUrl).hostname;
  } catch {}
  const lawShort = shortLaw(view.lawTitle);
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: company.tradeName, address: options.from },
    subject: headerSafe(view.kind === "announced" ? l.subjectAnnounced(lawShort) : l.subjectChanged(lawShort), 200),
    messageId: `<law-${options.key.replace(/[^A-Za-z0-9.-]/g, "")}@${host}>`,
    text: text.join("\n"),
    html: `<!doctype html><html lang="${options.language}"><body>${html.join("")}</body></html>`,
    headers: { "List-Unsubscribe": `<${profileUrl}>` },
  };
}
