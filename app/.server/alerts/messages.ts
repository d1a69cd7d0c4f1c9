/** What alerts say by email and in team chats, in es and en; every value escaped in HTML. */
import { company } from "../../content/company.ts";
import { escapeHtml, headerSafe } from "../mail/notification.ts";
import type { ChatPayload, EmailPayload } from "./matching.ts";
import type { Lang } from "./profiles.ts";

const t = {
  es: {
    subject: (title: string) => `Nueva alerta: ${title}`,
    intro: (profile: string) => `Un documento nuevo coincide con tu perfil «${profile}».`,
    open: "Ver en la plataforma",
    official: "Publicación oficial",
    change: "Cambiar o silenciar este perfil",
    digestSubject: (day: string, n: number) => `Resumen del ${day}: ${n} documento${n === 1 ? "" : "s"}`,
    digestIntro: (day: string) => `Documentos del ${day} que coinciden con tus perfiles:`,
    profiles: "Perfiles",
    chatIntro: (profile: string) => `Nuevo documento para «${profile}»`,
    sharedIntro: (who: string) => `${who} ha compartido un documento`,
    published: "Publicado",
  },
  en: {
    subject: (title: string) => `New alert: ${title}`,
    intro: (profile: string) => `A new document matches your profile “${profile}”.`,
    open: "Open in the platform",
    official: "Official publication",
    change: "Change or mute this profile",
    digestSubject: (day: string, n: number) => `Digest for ${day}: ${n} document${n === 1 ? "" : "s"}`,
    digestIntro: (day: string) => `Documents of ${day} that match your profiles:`,
    profiles: "Profiles",
    chatIntro: (profile: string) => `New document for “${profile}”`,
    sharedIntro: (who: string) => `${who} shared a document`,
    published: "Published",
  },
} as const;

export function documentLink(siteUrl: string, documentId: string): string {
  return `${siteUrl.replace(/\/$/, "")}/app/documents/${encodeURIComponent(documentId)}`;
}
export function profileLink(siteUrl: string, profileId: string): string {
  return `${siteUrl.replace(/\/$/, "")}/app/profiles/${encodeURIComponent(profileId)}`;
}
function safeHref(url: string): string {
  return /^https?:\/\//i.test(url) ? escapeHtml(url) : "#";
}

export interface AlertMail {
  from: string;
  to: string;
  replyTo: { name: string; address: string };
  subject: string;
  messageId: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

function messageId(key: string, siteUrl: string): string {
  let host = "localhost";
  try {
    host = new URL(siteUrl).hostname;
  } catch {}
  return `<${key.replace(/[^A-Za-z0-9.-]/g, "")}@${host}>`;
}

export function immediateMail(
  payload: EmailPayload,
  options: { from: string; siteUrl: string; deliveryId: string },
): AlertMail {
  const l = t[payload.language] ?? t.es;
  const doc = documentLink(options.siteUrl, payload.documentId);
  const change = profileLink(options.siteUrl, payload.profileId);
  const text = [
    l.intro(payload.profileName),
    "",
    payload.title,
    `${l.open}: ${doc}`,
    payload.officialUrl ? `${l.official}: ${payload.officialUrl}` : "",
    "",
    `${l.change}: ${change}`,
  ].join("\n");
  const html = `<!doctype html><html lang="${payload.language}"><body><p>${escapeHtml(l.intro(payload.profileName))}</p><h1 style="font-size:18px">${escapeHtml(payload.title)}</h1><p><a href="${escapeHtml(doc)}">${escapeHtml(l.open)}</a>${payload.officialUrl ? ` · <a href="${safeHref(payload.officialUrl)}">${escapeHtml(l.official)}</a>` : ""}</p><p style="font-size:12px"><a href="${escapeHtml(change)}">${escapeHtml(l.change)}</a></p></body></html>`;
  return {
    from: options.from,
    to: payload.email,
    replyTo: { name: company.tradeName, address: options.from },
    subject: headerSafe(l.subject(payload.title), 200),
    messageId: messageId(`alert-${options.deliveryId}`, options.siteUrl),
    text,
    html,
    headers: { "List-Unsubscribe": `<${change}>` },
  };
}

export interface DigestItem {
  documentId: string;
  title: string;
  profiles: { id: string; name: string }[];
}

export function digestMail(
  items: DigestItem[],
  options: { from: string; to: string; language: Lang; day: string; siteUrl: string; userId: string },
): AlertMail {
  const l = t[options.language] ?? t.es;
  const text = [
    l.digestIntro(options.day),
    "",
    ...items.flatMap((item) => [
      `- ${item.title}`,
      `  ${l.open}: ${documentLink(options.siteUrl, item.documentId)}`,
      `  ${l.profiles}: ${item.profiles.map((p) => `${p.name} (${l.change}: ${profileLink(options.siteUrl, p.id)})`).join("; ")}`,
    ]),
  ].join("\n");
  const lis = items
    .map(
      (item) =>
        `<li><a href="${escapeHtml(documentLink(options.siteUrl, item.documentId))}">${escapeHtml(item.title)}</a><br><small>${escapeHtml(l.profiles)}: ${item.profiles
          .map(
            (p) =>
              `<a href="${escapeHtml(profileLink(options.siteUrl, p.id))}" title="${escapeHtml(l.change)}">${escapeHtml(p.name)}</a>`,
          )
          .join(", ")}</small></li>`,
    )
    .join("\n");
  const html = `<!doctype html><html lang="${options.language}"><body><p>${escapeHtml(l.digestIntro(options.day))}</p><ul>\n${lis}\n</ul></body></html>`;
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: company.tradeName, address: options.from },
    subject: headerSafe(l.digestSubject(options.day, items.length), 200),
    messageId: messageId(`digest-${options.userId}-${options.day}`, options.siteUrl),
    text,
    html,
    headers: {},
  };
}

/** Slack's `{ text, blocks }`: mrkdwn with its three control characters escaped. */
function chatIntro(payload: ChatPayload): string {
  const l = t[payload.language] ?? t.es;
  return payload.sharedBy ? l.sharedIntro(payload.sharedBy) : l.chatIntro(payload.profileName);
}

export function slackMessage(payload: ChatPayload, siteUrl: string) {
  const l = t[payload.language] ?? t.es;
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const doc = documentLink(siteUrl, payload.documentId);
  const text = `${chatIntro(payload)}: ${payload.title} ${doc}`;
  return {
    text: esc(text),
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: `*${esc(chatIntro(payload))}*\n<${doc}|${esc(payload.title)}>` },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: `${esc(l.published)}: ${esc(payload.publishedOn)}${payload.officialUrl ? ` · <${payload.officialUrl}|${esc(l.official)}>` : ""}`,
          },
        ],
      },
    ],
  };
}

/** Microsoft Teams: an Adaptive Card attachment (what Workflows incoming webhooks accept). */
export function teamsMessage(payload: ChatPayload, siteUrl: string) {
  const l = t[payload.language] ?? t.es;
  const doc = documentLink(siteUrl, payload.documentId);
  const actions: { type: string; title: string; url: string }[] = [{ type: "Action.OpenUrl", title: l.open, url: doc }];
  if (/^https?:\/\//.test(payload.officialUrl))
    actions.push({ type: "Action.OpenUrl", title: l.official, url: payload.officialUrl });
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            { type: "TextBlock", text: chatIntro(payload), weight: "Bolder", wrap: true },
            { type: "TextBlock", text: payload.title, wrap: true },
            { type: "TextBlock", text: `${l.published}: ${payload.publishedOn}`, isSubtle: true, spacing: "Small" },
          ],
          actions,
        },
      },
    ],
  };
}

const share = {
  es: {
    subject: (who: string, title: string) => `${who} te envía: ${title}`,
    intro: (who: string) => `${who} ha compartido contigo este documento.`,
    message: "Mensaje",
    summary: "Resumen",
  },
  en: {
    subject: (who: string, title: string) => `${who} sent you: ${title}`,
    intro: (who: string) => `${who} shared this document with you.`,
    message: "Message",
    summary: "Summary",
  },
} as const;

/**
 * A shared document by mail. Members get the platform link; outside addresses the official link
 * and the summary. Neither ever carries notes (nothing here reads them).
 */
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
  const l = t[options.language] ?? t.es;
  const s = share[options.language] ?? share.es;
  const { document } = options;
  const link = options.member ? documentLink(options.siteUrl, document.id) : document.officialUrl;
  const linkLabel = options.member ? l.open : l.official;
  const text = [
    s.intro(options.senderEmail),
    "",
    document.title,
    `${linkLabel}: ${link}`,
    ...(!options.member && document.summary ? ["", `${s.summary}:`, document.summary] : []),
    ...(options.message ? ["", `${s.message}:`, options.message] : []),
  ].join("\n");
  const html = `<!doctype html><html lang="${options.language}"><body><p>${escapeHtml(s.intro(options.senderEmail))}</p><h1 style="font-size:18px">${escapeHtml(document.title)}</h1><p><a href="${safeHref(link)}">${escapeHtml(linkLabel)}</a></p>${!options.member && document.summary ? `<h2 style="font-size:15px">${escapeHtml(s.summary)}</h2><p>${escapeHtml(document.summary)}</p>` : ""}${options.message ? `<h2 style="font-size:15px">${escapeHtml(s.message)}</h2><p style="white-space:pre-wrap">${escapeHtml(options.message)}</p>` : ""}</body></html>`;
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: headerSafe(options.senderEmail, 100), address: options.senderEmail },
    subject: headerSafe(s.subject(options.senderEmail, document.title), 200),
    messageId: messageId(`share-${options.shareId}-${options.to.replace(/@/g, ".")}`, options.siteUrl),
    text,
    html,
    headers: {},
  };
}
