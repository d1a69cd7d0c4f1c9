import { auditActions as en, auditObjects as enObjects } from "../../i18n/en/audit";
import { auditActions as es, auditObjects as esObjects } from "../../i18n/es/audit";
import type { Locale } from "../../i18n/locales";

/** An audit action in the reader's words (the code stays in the exports); an unknown code as it is. */
export function AuditAction({ action, locale }: { action: string; locale: Locale }) {
  const labels: Record<string, string> = locale === "en" ? en : es;
  const label = labels[action];
  if (!label) return <code>{action}</code>;
  return <span data-action={action}>{label}</span>;
}

/** What an audit event is about: its kind in the reader's words, then its id ("Documento 06025c82-…"). */
export function auditObjectText(object: { type: string; id: string } | null, locale: Locale, none = "—"): string {
  if (!object) return none;
  const labels: Record<string, string> = locale === "en" ? enObjects : esObjects;
  return `${labels[object.type] ?? object.type} ${object.id}`.trim();
}
