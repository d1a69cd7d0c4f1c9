/**
 * The platform's mails (invitation, password reset, sign-in from a new device), rendered in the
 * recipient's language as text and HTML, and queued in mail_outbox inside the caller's
 * transaction; the outbox worker sends them.
 */
import { randomUUID } from "node:crypto";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import { escapeHtml } from "../../lib/escape-html.ts";
import { fillTemplate } from "../../lib/fill-template.ts";
import type { Executor } from "../audit/executor.ts";
import { mailOutbox } from "../db/schema/auth.ts";

export type MailLocale = "es" | "en";
export type PlatformMailKind = "invitation" | "password_reset" | "new_device";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function layout(paragraphs: readonly string[], link: { url: string; label: string } | null): RenderedMail["html"] {
  const body = paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join("\n");
  const button = link
    ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#0d6efd;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(link.label)}</a></p>\n<p style="font-size:13px;color:#555">${escapeHtml(link.url)}</p>`
    : "";
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#212529">\n${body}\n${button}\n</body></html>`;
}

function render(
  paragraphs: readonly string[],
  subject: string,
  link: { url: string; label: string } | null,
): RenderedMail {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : [])].join("\n\n");
  return { subject, text: `${text}\n`, html: layout(paragraphs, link) };
}

export function invitationMail(
  locale: MailLocale,
  data: { organizationName: string; inviterName: string | null; url: string; role: string },
): RenderedMail {
  const { roles, invitation: t } = serverMessagesFor(locale).mails;
  const values = {
    inviter: data.inviterName ?? t.someone,
    organization: data.organizationName,
    role: roles[data.role] ?? data.role,
  };
  return render([fillTemplate(t.invites, values), t.next, t.unexpected], fillTemplate(t.subject, values), {
    url: data.url,
    label: t.link,
  });
}

export function passwordResetMail(locale: MailLocale, data: { url: string }): RenderedMail {
  const t = serverMessagesFor(locale).mails.passwordReset;
  return render([t.asked, t.validity], t.subject, { url: data.url, label: t.link });
}

export function newDeviceMail(
  locale: MailLocale,
  data: { at: Date; userAgent: string; ip: string; sessionsUrl: string },
): RenderedMail {
  const t = serverMessagesFor(locale).mails.newDevice;
  const when = data.at.toISOString().replace("T", " ").slice(0, 16);
  return render(
    [
      fillTemplate(t.signedIn, { when }),
      fillTemplate(t.device, { device: data.userAgent || t.unknownDevice, ip: data.ip }),
      t.notYou,
    ],
    t.subject,
    { url: data.sessionsUrl, label: t.link },
  );
}

/** Queues a rendered mail in the caller's transaction. */
export async function queueMail(tx: Executor, kind: PlatformMailKind, to: string, mail: RenderedMail): Promise<string> {
  const id = randomUUID();
  await tx.insert(mailOutbox).values({ id, kind, to, subject: mail.subject, text: mail.text, html: mail.html });
  return id;
}
