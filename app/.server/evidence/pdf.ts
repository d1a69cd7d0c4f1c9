/**
 * The evidence pack as a PDF (issue 39, decision 0149), made on the server with pdfkit and the
 * DejaVu Sans font embedded (every accent, «», € and the scripts of EU acts' names render; the
 * standard PDF fonts stop at Windows-1252). The same pack as the page and the JSON, in the
 * reader's language: each document with its triage decisions, its obligations (every field the
 * pack model holds, so fields added later appear without a change here), alerts, reads and notes;
 * then the audit excerpt in words and the chain's verification.
 */
import { createRequire } from "node:module";
import { fill, formatDateTime } from "../../components/app/messages.ts";
import { auditActions as auditEn } from "../../i18n/en/audit.ts";
import { evidence as en } from "../../i18n/en/evidence.ts";
import { auditActions as auditEs } from "../../i18n/es/audit.ts";
import { evidence as es } from "../../i18n/es/evidence.ts";
import type { Locale } from "../../i18n/locales.ts";
import { plural } from "../../lib/plural.ts";
import type { DocumentEvidence, EvidencePack } from "./pack.ts";

const require = createRequire(import.meta.url);
const fonts = {
  regular: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
};

type Names = Record<string, string>;

function day(value: string | null | undefined, locale: Locale): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return "—";
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${value}T00:00:00Z`),
  );
}

/** "reviewHistory" → "Review history": a field the labels do not know yet, readable. */
function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export async function evidencePdf(pack: EvidencePack, options: { locale: Locale; names: Names }): Promise<Buffer> {
  // pdfkit and fontkit (with their Unicode and Brotli tables) load on the first export, not with
  // every server: measured in a running server's heap, their source text alone was about 3.5 MB
  // (decision 0165).
  const { default: PDFDocument } = await import("pdfkit");
  const { locale, names } = options;
  const m = locale === "en" ? en : es;
  const t = m.pack;
  const actions: Record<string, string> = locale === "en" ? auditEn : auditEs;
  const none = t.none;
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    lang: locale,
    displayTitle: true,
    info: { Title: t.title, Author: pack.generatedBy.email, Creator: "Vigía Normativo" },
    bufferPages: true,
  });
  doc.registerFont("body", fonts.regular);
  doc.registerFont("bold", fonts.bold);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const heading = (text: string, size: number) => {
    doc.moveDown(0.6).font("bold").fontSize(size).fillColor("#111").text(text).moveDown(0.2);
  };
  const line = (text: string, opts: { indent?: number; size?: number; color?: string } = {}) => {
    doc
      .font("body")
      .fontSize(opts.size ?? 10)
      .fillColor(opts.color ?? "#111")
      .text(text, { indent: opts.indent ?? 0 });
  };
  const labelled = (label: string, value: string, indent = 0) => {
    doc
      .font("bold")
      .fontSize(10)
      .fillColor("#111")
      .text(`${label}: `, { continued: true, indent })
      .font("body")
      .text(value);
  };

  /** A value as a person reads it: a status, an impact, a day, an instant, a member's or group's name. */
  const valueText = (value: unknown): string => {
    if (value === null || value === undefined || value === "") return none;
    if (typeof value === "boolean") return value ? (locale === "en" ? "Yes" : "Sí") : locale === "en" ? "No" : "No";
    if (typeof value === "number") return String(value);
    if (typeof value !== "string") return JSON.stringify(value);
    if (value in m.overview.status) return m.overview.status[value as keyof typeof m.overview.status];
    if (value in t.obligationStatus) return t.obligationStatus[value as keyof typeof t.obligationStatus];
    if (value in t.impact) return t.impact[value as keyof typeof t.impact];
    if (value in t.pdf.reviewDecisions) return t.pdf.reviewDecisions[value as keyof typeof t.pdf.reviewDecisions];
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return day(value, locale);
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatDateTime(value, locale);
    return names[value] ?? value;
  };
  const fieldLabel = (field: string): string =>
    (t.fields as Record<string, string>)[field] ??
    (t.pdf.obligationFields as Record<string, string>)[field] ??
    humanise(field);

  /** Every field of an object (an obligation, a review), nested lists as indented entries. */
  const fields = (record: Record<string, unknown>, indent: number, skip: string[] = []) => {
    for (const [key, value] of Object.entries(record)) {
      if (skip.includes(key)) continue;
      if (Array.isArray(value)) {
        labelled(fieldLabel(key), value.length ? "" : none, indent);
        value.forEach((entry, index) => {
          if (entry && typeof entry === "object") {
            line(`${index + 1}.`, { indent: indent + 12 });
            fields(entry as Record<string, unknown>, indent + 24, ["id"]);
          } else line(`• ${valueText(entry)}`, { indent: indent + 12 });
        });
      } else if (value && typeof value === "object") {
        const entries = Object.entries(value as Record<string, unknown>);
        // A person or a group { id, name } reads as its name.
        if ("name" in (value as object) && entries.length <= 3) {
          labelled(fieldLabel(key), valueText((value as { name: unknown }).name), indent);
          continue;
        }
        // A change { from, to } reads as "from → to".
        if (entries.length === 2 && "from" in (value as object) && "to" in (value as object)) {
          const change = value as { from: unknown; to: unknown };
          labelled(fieldLabel(key), `${valueText(change.from)} → ${valueText(change.to)}`, indent);
        } else {
          labelled(fieldLabel(key), "", indent);
          fields(value as Record<string, unknown>, indent + 12);
        }
      } else labelled(fieldLabel(key), valueText(value), indent);
    }
  };

  const section = (document: DocumentEvidence) => {
    heading(document.title, 14);
    line(
      `${document.sourceId} · ${fill(t.published, { date: day(document.publishedOn, locale) })} · ${document.officialUrl}`,
      { size: 9, color: "#444" },
    );
    if (document.triage) line(fill(t.triageNow, { status: valueText(document.triage.status) }), { size: 10 });

    heading(t.sections.decisions, 12);
    if (document.decisions.length === 0) line(t.empty.decisions);
    for (const decision of document.decisions) {
      doc.moveDown(0.2);
      labelled(
        formatDateTime(decision.at, locale),
        decision.actor.id === "system" ? t.systemActor : decision.actor.name,
      );
      for (const [field, change] of Object.entries(decision.changes))
        line(`${fieldLabel(field)}: ${valueText(change.from)} → ${valueText(change.to)}`, { indent: 12 });
      if (decision.note && decision.note !== "alert") line(`${t.columns.note}: ${decision.note}`, { indent: 12 });
    }

    heading(t.sections.obligations, 12);
    if (document.obligations.length === 0) line(t.empty.obligations);
    for (const obligation of document.obligations) {
      doc.moveDown(0.3);
      doc.font("bold").fontSize(10).text(obligation.title);
      fields(obligation as unknown as Record<string, unknown>, 12, ["id", "title"]);
    }

    heading(t.sections.alerts, 12);
    if (document.alerts.length === 0) line(t.empty.alerts);
    for (const alert of document.alerts)
      line(
        [
          t.channels[alert.channel as keyof typeof t.channels] ?? alert.channel,
          alert.recipient ? `${alert.recipient.name} <${alert.recipient.email}>` : null,
          alert.via || null,
          t.deliveryStatus[alert.status as keyof typeof t.deliveryStatus] ?? alert.status,
          `${t.columns.sent}: ${formatDateTime(alert.sentAt, locale)}`,
          alert.readAt ? `${t.columns.readAt}: ${formatDateTime(alert.readAt, locale)}` : null,
        ]
          .filter(Boolean)
          .join(" · "),
      );

    heading(t.sections.reads, 12);
    if (document.reads.length === 0) line(t.empty.reads);
    for (const read of document.reads)
      line(
        `${read.reader.name} <${read.reader.email}> · ${t.columns.firstRead}: ${formatDateTime(read.firstReadAt, locale)} · ${t.columns.lastRead}: ${formatDateTime(read.lastReadAt, locale)}`,
      );

    heading(t.sections.notes, 12);
    if (document.notes.length === 0) line(t.empty.notes);
    for (const note of document.notes) {
      labelled(
        `${formatDateTime(note.createdAt, locale)} · ${note.author.name}`,
        t.visibility[note.visibility as keyof typeof t.visibility] ?? note.visibility,
      );
      line(note.body, { indent: 12 });
    }
  };

  doc.font("bold").fontSize(20).fillColor("#111").text(t.title);
  line(
    `${fill(t.generated, { date: formatDateTime(pack.generatedAt, locale), email: pack.generatedBy.email })}${
      pack.scope.from && pack.scope.to
        ? ` ${fill(t.scopePeriod, { from: day(pack.scope.from, locale), to: day(pack.scope.to, locale) })}`
        : ""
    }`,
    { size: 9, color: "#444" },
  );
  if (pack.truncated) line(fill(t.truncated, { max: 200 }));
  if (pack.documents.length === 0) line(t.noDocuments);
  for (const document of pack.documents) section(document);

  // Obligations anchored to an article of a followed law, with their reviews (oldest first).
  if (pack.lawObligations?.length) {
    heading(t.pdf.lawObligations, 14);
    for (const entry of pack.lawObligations) {
      doc.moveDown(0.3);
      doc.font("bold").fontSize(10).fillColor("#111").text(entry.obligation.title);
      line(
        `${entry.anchor.lawTitle} · ${entry.anchor.blockTitle} · ${entry.anchor.version.normId} (${day(entry.anchor.version.publishedOn, locale)})`,
        { size: 9, color: "#444", indent: 12 },
      );
      fields(entry.obligation as unknown as Record<string, unknown>, 12, ["id", "title"]);
      const rest = Object.fromEntries(
        Object.entries(entry).filter(([key]) => key !== "obligation" && key !== "anchor"),
      );
      fields(rest, 12);
    }
  }

  heading(t.sections.audit, 14);
  const v = pack.audit.verification;
  doc
    .font("bold")
    .fontSize(12)
    .fillColor(v.valid ? "#146c2e" : "#b02a37")
    .text(v.valid ? t.pdf.chainValid : t.pdf.chainBroken);
  line(
    v.valid
      ? plural(locale, t.chainValid, v.events)
      : fill(t.chainBroken, { id: v.firstBroken ?? none, reason: v.reason ?? none }),
  );
  doc.moveDown(0.4);
  if (pack.audit.events.length === 0) line(t.empty.audit);
  for (const event of pack.audit.events) {
    const action = actions[event.action] ?? event.action;
    line(
      `${event.seq}. ${formatDateTime(event.at, locale)} · ${event.actor?.email || none} · ${action}${
        event.object
          ? ` · ${t.pdf.objects[event.object.type as keyof typeof t.pdf.objects] ?? event.object.type} ${event.object.id}`
          : ""
      }`,
      { size: 9 },
    );
    line(`${t.columns.hash}: ${event.hash}`, { size: 7, color: "#555", indent: 12 });
  }

  // Page numbers, once every page exists.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("body")
      .fontSize(8)
      .fillColor("#555")
      .text(fill(t.pdf.page, { page: i + 1, pages: range.count }), 50, doc.page.height - 35, {
        align: "center",
        width: doc.page.width - 100,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
