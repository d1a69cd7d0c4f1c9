/**
 * The document page's side of corrections: the form's intent (`area.correct`) validated in the
 * reader's language, the correction stored and audited, the document matched again for alerts,
 * and the corrections the page shows.
 */

import { recordAudit } from "../../.server/audit/record.ts";
import type { MemberInfo } from "../../.server/auth/permissions.ts";
import type { Database, Db } from "../../.server/db/client.ts";
import {
  type CorrectionView,
  correctArea,
  correctionInputSchema,
  correctionsOf,
} from "../../.server/documents/corrections.ts";
import type { Locale } from "../../i18n/locales.ts";
import { fieldErrorsOf } from "../../lib/field-errors.ts";

export type CorrectionFormOutcome =
  | { ok: "corrected" | "undone" }
  | { form: "correction"; errors: Record<string, string[]>; values: Record<string, string>; status: 422 };

export const correctionIntent = "area.correct";

export async function correctionAction(
  deps: {
    database: Database;
    member: MemberInfo;
    locale: Locale;
    documentId: string;
    origin: { ip?: string | undefined; userAgent?: string | undefined };
    /** Alert matching of the document again (AlertsService.queueMatch). */
    rematch: (documentId: string) => Promise<void>;
  },
  form: FormData,
): Promise<CorrectionFormOutcome | null> {
  const values: Record<string, string> = {};
  for (const key of ["area", "action", "reason"]) {
    const value = form.get(key);
    if (typeof value === "string") values[key] = value.slice(0, 1000);
  }
  const parsed = correctionInputSchema(deps.locale).safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error.issues, { fallback: "reason" });
    return { form: "correction", errors, values, status: 422 };
  }
  const { member } = deps;
  const outcome = await correctArea(
    deps.database.db,
    (tx, event) => recordAudit(tx, event),
    {
      organizationId: member.organizationId,
      userId: member.userId,
      name: member.name || member.email,
      email: member.email,
      ip: deps.origin.ip,
      userAgent: deps.origin.userAgent,
    },
    deps.documentId,
    parsed.data,
    deps.locale,
  );
  if (!outcome.ok) {
    if (outcome.error === "not_found") return null;
    return { form: "correction", errors: { [outcome.field]: [outcome.message] }, values, status: 422 };
  }
  await deps.rematch(deps.documentId);
  return { ok: outcome.undone ? "undone" : "corrected" };
}

/** The organisation's corrections of one document, for the page. */
export async function correctionsView(db: Db, organizationId: string, documentId: string): Promise<CorrectionView[]> {
  return (await correctionsOf(db, organizationId, [documentId])).get(documentId) ?? [];
}
