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

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A BOE id: BOE-A-2024-1234 (also BOE-B-…, the other sections). */
const boePattern = /^BOE-[A-Z]-\d{4}-\d{1,7}$/;
/** A CELEX number: sector, year, type and number (32016R0679, 52020PC0825, 62019CJ0311, 02016R0679-20160504). */
const celexPattern = /^[0-9CE]\d{4}[A-Z]{1,2}\d{1,5}(?:\(\d{1,2}\))?(?:-\d{8})?$/;

/**
 * A document reference as people write it: the platform's id, a BOE id or a CELEX number
 * (upper-cased, spaces aside); undefined when it is none of them.
 */
export function documentReference(value: string): string | undefined {
  const trimmed = value.trim();
  if (uuidPattern.test(trimmed)) return trimmed.toLowerCase();
  const upper = trimmed.replace(/\s+/g, "").toUpperCase();
  return boePattern.test(upper) || celexPattern.test(upper) ? upper : undefined;
}

export function evidenceScopeSchema(locale: Locale) {
  const t = (locale === "en" ? en : es).pack;
  const day = calendarDate({ error: t.badDate });
  return z
    .object({
      document: z
        .string()
        .transform((value, ctx) => {
          const reference = documentReference(value);
          if (!reference) ctx.addIssue({ code: "custom", message: t.badDocument });
          return reference ?? value;
        })
        .optional(),
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

export function notFoundText(locale: Locale): string {
  return (locale === "en" ? en : es).pack.notFound;
}

export function scopeErrorText(fieldErrors: Record<string, string[]>, locale: Locale): string {
  const t = (locale === "en" ? en : es).pack;
  return fill(t.invalid, { details: Object.values(fieldErrors).flat().join(" ") });
}

export interface ExportOrigin {
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** page, json or pdf (the page's downloads) or api; with the API, the token id. */
  via: "page" | "json" | "pdf" | "api";
  /** The file's format (json, pdf), audited with the export. */
  format?: "json" | "pdf";
  tokenId?: string | undefined;
}

/**
 * Builds the pack and records its export; null (nothing recorded) for an unknown or unreachable
 * document (a BOE id or CELEX number the organisation cannot see is as unknown as a wrong one).
 */
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
        ? { type: "document", id: pack.scope.document ?? scope.document }
        : { type: "evidence_period", id: `${scope.from}/${scope.to}` },
    ip: origin.ip,
    userAgent: origin.userAgent,
    detail: {
      via: origin.via,
      ...(origin.format ? { format: origin.format } : {}),
      ...("document" in scope && scope.document !== pack.scope.document ? { requested: scope.document } : {}),
      ...(origin.tokenId ? { tokenId: origin.tokenId } : {}),
      documents: pack.documents.length,
      chainValid: pack.audit.verification.valid,
    },
  });
  return pack;
}
