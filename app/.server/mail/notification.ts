/** The notification sales receives for a demo request: every field, escaped in HTML, none in a header unsanitised. */

import { escapeHtml } from "../../lib/escape-html.ts";
import type { Lead } from "../contact/store.ts";

const labels: [keyof Lead, string][] = [
  ["name", "Nombre / First name"],
  ["firstName", "Apellidos / Surname"],
  ["email", "Correo / Email"],
  ["position", "Cargo / Position"],
  ["company", "Empresa / Company"],
  ["phone", "Teléfono / Phone"],
  ["location", "Ubicación / Location"],
  ["comments", "Comentarios / Comments"],
  ["locale", "Idioma / Language"],
  ["createdAt", "Recibida / Received"],
  ["id", "Referencia / Reference"],
];

/** What may go in a header: one line, no control characters, bounded. */
export function headerSafe(value: string, max = 120): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const line = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function messageIdFor(requestId: string, siteUrl: string): string {
  let host = "localhost";
  try {
    host = new URL(siteUrl).hostname || host;
  } catch {
    // keep the default
  }
  return `<contact-${requestId}@${host}>`;
}

export interface NotificationOptions {
  from: string;
  to: string;
  siteUrl: string;
}

export interface Notification {
  from: string;
  to: string;
  /** The contact request's sender; platform mail has none. */
  replyTo?: { name: string; address: string };
  subject: string;
  messageId: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

function show(lead: Lead, key: keyof Lead): string {
  const value = lead[key];
  if (value instanceof Date) return value.toISOString();
  return value === null || value === undefined ? "" : String(value);
}

export function buildNotification(lead: Lead, options: NotificationOptions): Notification {
  const person = headerSafe(`${lead.name} ${lead.firstName}`, 80);
  const company = headerSafe(lead.company, 80);
  const text = [
    "Nueva solicitud de demo / New demo request",
    "",
    ...labels.map(([key, label]) => {
      const value = show(lead, key);
      return key === "comments" ? `${label}:\n${value || "—"}` : `${label}: ${value || "—"}`;
    }),
    "",
  ].join("\n");
  const rows = labels
    .map(([key, label]) => {
      const value = escapeHtml(show(lead, key)).replace(/\n/g, "<br>");
      return `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0">${value || "—"}</td></tr>`;
    })
    .join("\n");
  const html = `<!doctype html><html><body><h1 style="font-size:18px">Nueva solicitud de demo / New demo request</h1>\n<table>\n${rows}\n</table></body></html>`;
  return {
    from: options.from,
    to: options.to,
    replyTo: { name: person, address: headerSafe(lead.email, 254) },
    subject: headerSafe(`Solicitud de demo: ${company} — ${person}`, 200),
    messageId: messageIdFor(lead.id, options.siteUrl),
    text,
    html,
    headers: { "X-Contact-Request-Id": lead.id },
  };
}
