/**
 * The platform's mails (invitation, password reset, sign-in from a new device), rendered in the
 * recipient's language as text and HTML, and queued in mail_outbox inside the caller's
 * transaction; the outbox worker sends them.
 */
import { randomUUID } from "node:crypto";
import { escapeHtml } from "../../lib/escape-html.ts";
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
  if (locale === "en") {
    return render(
      [
        `${data.inviterName ?? "An administrator"} invites you to ${data.organizationName} on Vigía Normativo (role: ${data.role}).`,
        "Open the link to choose your name and password, then set up a second factor. The link is valid for 7 days and can be used once.",
        "If you were not expecting this invitation, ignore this mail.",
      ],
      `Invitation to ${data.organizationName} on Vigía Normativo`,
      { url: data.url, label: "Accept the invitation" },
    );
  }
  const roleEs = { owner: "propietario", admin: "administrador", member: "miembro" }[data.role] ?? data.role;
  return render(
    [
      `${data.inviterName ?? "Un administrador"} te invita a ${data.organizationName} en Vigía Normativo (rol: ${roleEs}).`,
      "Abre el enlace para indicar tu nombre y tu contraseña y configurar un segundo factor. El enlace es válido durante 7 días y solo puede usarse una vez.",
      "Si no esperaba esta invitación, ignore este correo.",
    ],
    `Invitación a ${data.organizationName} en Vigía Normativo`,
    { url: data.url, label: "Aceptar la invitación" },
  );
}

export function passwordResetMail(locale: MailLocale, data: { url: string }): RenderedMail {
  if (locale === "en") {
    return render(
      [
        "Someone asked to reset the password of your Vigía Normativo account.",
        "The link is valid for one hour and can be used once. If it was not you, ignore this mail: your password stays as it is.",
      ],
      "Reset your Vigía Normativo password",
      { url: data.url, label: "Choose a new password" },
    );
  }
  return render(
    [
      "Se ha pedido restablecer la contraseña de tu cuenta de Vigía Normativo.",
      "El enlace es válido durante una hora y solo puede usarse una vez. Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.",
    ],
    "Restablece tu contraseña de Vigía Normativo",
    { url: data.url, label: "Elegir una contraseña nueva" },
  );
}

export function newDeviceMail(
  locale: MailLocale,
  data: { at: Date; userAgent: string; ip: string; sessionsUrl: string },
): RenderedMail {
  const when = data.at.toISOString().replace("T", " ").slice(0, 16);
  if (locale === "en") {
    return render(
      [
        `Your Vigía Normativo account was signed in to from a device we had not seen before, on ${when} UTC.`,
        `Device: ${data.userAgent || "unknown"}. IP address: ${data.ip}.`,
        "If it was not you, end that session and change your password.",
      ],
      "New sign-in to Vigía Normativo",
      { url: data.sessionsUrl, label: "Review my sessions" },
    );
  }
  return render(
    [
      `Se ha iniciado sesión en tu cuenta de Vigía Normativo desde un dispositivo nuevo el ${when} UTC.`,
      `Dispositivo: ${data.userAgent || "desconocido"}. Dirección IP: ${data.ip}.`,
      "Si no has sido tú, cierra esa sesión y cambia tu contraseña.",
    ],
    "Nuevo inicio de sesión en Vigía Normativo",
    { url: data.sessionsUrl, label: "Revisar mis sesiones" },
  );
}

/** Queues a rendered mail in the caller's transaction. */
export async function queueMail(tx: Executor, kind: PlatformMailKind, to: string, mail: RenderedMail): Promise<string> {
  const id = randomUUID();
  await tx.insert(mailOutbox).values({ id, kind, to, subject: mail.subject, text: mail.text, html: mail.html });
  return id;
}
