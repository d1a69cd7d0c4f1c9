import { auditActions as en } from "../../i18n/en/audit";
import { auditActions as es } from "../../i18n/es/audit";
import type { Locale } from "../../i18n/locales";

/** An audit action in the reader's words (the code stays in the exports); an unknown code as it is. */
export function AuditAction({ action, locale }: { action: string; locale: Locale }) {
  const labels: Record<string, string> = locale === "en" ? en : es;
  const label = labels[action];
  if (!label) return <code>{action}</code>;
  return <span data-action={action}>{label}</span>;
}
