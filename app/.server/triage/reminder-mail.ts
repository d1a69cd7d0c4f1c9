/** The reminder before a due date: the notification centre's line and the mail, in the recipient's language. */
import { escapeHtml } from "../../lib/escape-html.ts";
import { longDay } from "../../lib/long-day.ts";
import { headerSafe } from "../mail/notification.ts";

export interface ReminderMailItem {
  kind: "triage" | "obligation";
  title: string;
  documentTitle: string;
  documentId: string;
  /** YYYY-MM-DD */
  dueOn: string;
}

export function reminderMail(
  item: ReminderMailItem,
  options: { language: "es" | "en"; siteUrl: string; today: string },
): { subject: string; text: string; html: string; notice: string } {
  const { language } = options;
  const when = longDay(item.dueOn, language);
  const url = `${options.siteUrl.replace(/\/$/, "")}/app/documents/${item.documentId}${item.kind === "triage" ? "#triage" : "#obligations"}`;
  const todayDue = item.dueOn === options.today;
  const es = language === "es";
  const what =
    item.kind === "triage"
      ? es
        ? `la decisión sobre «${item.title}»`
        : `the decision on “${item.title}”`
      : es
        ? `la obligación «${item.title}» (de «${item.documentTitle}»)`
        : `the obligation “${item.title}” (from “${item.documentTitle}”)`;
  const subject = headerSafe(
    es
      ? `Recordatorio: ${todayDue ? "vence hoy" : `vence el ${when}`}: ${item.title}`
      : `Reminder: ${todayDue ? "due today" : `due on ${when}`}: ${item.title}`,
    180,
  );
  const lines = es
    ? [
        `Tienes pendiente ${what}, con fecha límite ${todayDue ? "hoy" : `el ${when}`}.`,
        "Ábrelo para revisarlo o actualizar su estado.",
        "Puedes cambiar la hora y los días de antelación de estos recordatorios, o dejar de recibirlos por correo, en tu cuenta.",
      ]
    : [
        `You have ${what} pending, due ${todayDue ? "today" : `on ${when}`}.`,
        "Open it to review it or update its status.",
        "You can change the hour and the days ahead of these reminders, or stop getting them by mail, in your account.",
      ];
  const label = es ? "Abrir en Vigía Normativo" : "Open in Vigía Normativo";
  const text = `${lines.join("\n\n")}\n\n${label}: ${url}\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#212529">\n${lines
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join(
      "\n",
    )}\n<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#0d6efd;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></p>\n</body></html>`;
  const notice = es
    ? `Recordatorio (${todayDue ? "vence hoy" : `vence el ${when}`}): ${item.title}`
    : `Reminder (${todayDue ? "due today" : `due ${when}`}): ${item.title}`;
  return { subject, text, html, notice };
}
