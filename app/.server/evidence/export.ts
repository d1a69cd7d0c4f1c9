/**
 * The evidence pack's request (a document, or a period of at most a year) parsed with errors in
 * the user's language, and its export: built, then audited (`evidence.exported`, with the scope
 * and the format) in one transaction with its actor. Viewing the page is an export too.
 */
import { z } from "zod";
import { fill } from "../../components/app/messages.ts";
import { evidence as en } from "../../i18n/en/evidence.ts";
import { evidence as es } from "../../i18n/es/evidence.ts";
import type { Locale } from "../../i18n/locales.ts";
import { calendarDate } from "../../lib/calendar-date.ts";
import { recordAudit } from "../audit/record.ts";
import type { Viewer } from "../collab/notes.ts";
import type { Database } from "../db/client.ts";
import { buildEvidencePack, type EvidencePack, type EvidenceScope } from "./pack.ts";

const maxDays = 366;

export function evidenceScopeSchema(locale: Locale) {
  const t = (locale === "en" ? en : es).pack;
  const day = calendarDate({ error: t.badDate });
  return z
    .object({
      document: z.uuid({ error: t.badDocument }).optional(),
      from: day.optional(),
      to: day.optional(),
    })
    .superRefine((value, ctx) => {
      if (value.document) return;
      if (!value.from || !value.to) {
        ctx.addIssue({ code: "custom", path: ["document"], message: t.missing });
        return;
      }
      const days = (Date.parse(value.to) - Date.parse(value.from)) / 86_400_000;
      if (days < 0) ctx.addIssue({ code: "custom", path: ["to"], message: t.badRange });
      else if (days > maxDays) ctx.addIssue({ code: "custom", path: ["to"], message: t.rangeTooLong });
    })
    .transform(
      (value): EvidenceScope =>
        value.document ? { document: value.document } : { from: value.from ?? "", to: value.to ?? "" },
    );
}

export type ScopeParse = { ok: true; scope: EvidenceScope } | { ok: false; fieldErrors: Record<string, string[]> };

/** The scope from query parameters (empty values are absent), or field errors in `locale`. */
export function parseEvidenceScope(params: URLSearchParams, locale: Locale): ScopeParse {
  const input: Record<string, string> = {};
  for (const key of ["document", "from", "to"]) {
    const value = params.get(key)?.trim();
    if (value) input[key] = value;
  }
  const parsed = evidenceScopeSchema(locale).safeParse(input);
  if (parsed.success) return { ok: true, scope: parsed.data };
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".") || "document";
    fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
  }
  return { ok: false, fieldErrors };
}

export function scopeErrorText(fieldErrors: Record<string, string[]>, locale: Locale): string {
  const t = (locale === "en" ? en : es).pack;
  return fill(t.invalid, { details: Object.values(fieldErrors).flat().join(" ") });
}

export interface ExportOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** page, json (the page's download) or api; with the API, the token id. */
  via: "page" | "json" | "api";
  tokenId?: string | undefined;
}

/** Builds the pack and records its export; null (nothing recorded) for an unknown or unreachable document. */
export async function exportEvidencePack(
  database: Database,
  viewer: Viewer,
  scope: EvidenceScope,
  origin: ExportOrigin,
): Promise<EvidencePack | null> {
  const pack = await buildEvidencePack(database, viewer, scope);
  if (!pack) return null;
  await recordAudit(database.db, {
    organizationId: viewer.organizationId,
    actor: { id: viewer.userId, email: viewer.email },
    action: "evidence.exported",
    object:
      "document" in scope
        ? { type: "document", id: scope.document }
        : { type: "evidence_period", id: `${scope.from}/${scope.to}` },
    ip: origin.ip,
    userAgent: origin.userAgent,
    detail: {
      via: origin.via,
      ...(origin.tokenId ? { tokenId: origin.tokenId } : {}),
      documents: pack.documents.length,
      chainValid: pack.audit.verification.valid,
    },
  });
  return pack;
}
