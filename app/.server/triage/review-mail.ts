/** The notice that an obligation's anchored article changed: the notification centre's line and the mail, in the recipient's language. */
import { escapeHtml } from "../../lib/escape-html.ts";
import { headerSafe } from "../mail/notification.ts";

export interface ReviewMailItem {
  obligationId: string;
  title: string;
  lawTitle: string;
  blockTitle: string;
  /** The act that gave the new wording. */
  normId: string;
}

export function reviewMail(
  item: ReviewMailItem,
  options: { language: "es" | "en"; siteUrl: string },
): { subject: string; text: string; html: string; notice: string } {
  const es = options.language === "es";
  const url = `${options.siteUrl.replace(/\/$/, "")}/app/obligations/${item.obligationId}/review`;
  const subject = headerSafe(es ? `Revisión necesaria: ${item.title}` : `Review needed: ${item.title}`, 180);
  const lines = es
    ? [
        `Ha cambiado el texto consolidado de «${item.lawTitle}»: ${item.blockTitle} (${item.normId}).`,
        `La obligación «${item.title}», anclada a ese artículo, necesita revisión: compara la redacción anterior con la nueva y decide si sigue aplicando, ha cambiado o ya no aplica.`,
      ]
    : [
        `The consolidated text of ${item.blockTitle} of “${item.lawTitle}” has changed (${item.normId}).`,
        `The obligation “${item.title}”, anchored to that article, needs a review: compare the former wording with the new one and decide whether it still applies, has changed or no longer applies.`,
      ];
  const label = es ? "Revisar en Vigía Normativo" : "Review in Vigía Normativo";
  const text = `${lines.join("\n\n")}\n\n${label}: ${url}\n`;
  const html = `<!doctype html><html lang="${options.language}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#212529">\n${lines
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join(
      "\n",
    )}\n<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#0d6efd;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a></p>\n</body></html>`;
  const notice = es
    ? `Revisión necesaria: ${item.title} (${item.blockTitle} modificado)`
    : `Review needed: ${item.title} (${item.blockTitle} changed)`;
  return { subject, text, html, notice };
}
