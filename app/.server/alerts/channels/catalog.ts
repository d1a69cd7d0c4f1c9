/** The channels' words come from the i18n catalogs (app/i18n/{es,en}/channels.ts); links and message ids every channel builds alike. */
import { channels as en } from "../../../i18n/en/channels.ts";
import { type ChannelMessages, channels as es } from "../../../i18n/es/channels.ts";
import { escapeHtml } from "../../../lib/escape-html.ts";
import { fillTemplate } from "../../../lib/fill-template.ts";
import type { Lang } from "../profiles.ts";

export function channelText(language: Lang | string | undefined): ChannelMessages {
  return language === "en" ? en : es;
}

/** `{name}` placeholders filled from `values` (the one helper: app/lib/fill-template.ts). */
export const fill = fillTemplate;

export function documentLink(siteUrl: string, documentId: string): string {
  return `${siteUrl.replace(/\/$/, "")}/app/documents/${encodeURIComponent(documentId)}`;
}

export function profileLink(siteUrl: string, profileId: string): string {
  return `${siteUrl.replace(/\/$/, "")}/app/profiles/${encodeURIComponent(profileId)}`;
}

/** An href only for http(s) URLs (an official URL comes from a source). */
export function safeHref(url: string): string {
  return /^https?:\/\//i.test(url) ? escapeHtml(url) : "#";
}

/** A Message-ID on the site's host, stable for the key (a retried mail keeps its id). */
export function messageId(key: string, siteUrl: string): string {
  let host = "localhost";
  try {
    host = new URL(siteUrl).hostname;
  } catch {}
  return `<${key.replace(/[^A-Za-z0-9.-]/g, "")}@${host}>`;
}
