/**
 * Corrections that teach (issue 23): a member marks one of a document's areas wrong, or adds a
 * missing one, with a reason. The correction is the organisation's own: its effective areas are
 * the stored labels less its "remove" rows plus its "add" rows (document page, API, search
 * filters and facets, alert matching); no other organisation's view changes. Every correction is
 * audited; admins list and export them as labelled data for `classify:eval --corrections`.
 *
 * Correcting back undoes: adding an area the organisation had marked wrong (or marking wrong an
 * area it had added) deletes its correction and the stored label shows again.
 */
import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { z } from "zod";
import { serverMessagesFor } from "../../i18n/server-messages.ts";
import { type AreaId, areaIds } from "../../lib/taxonomy.ts";
import type { AuditEventInput } from "../audit/types.ts";
import type { Db } from "../db/client.ts";
import { areaCorrections, documents } from "../db/schema.ts";
import type { AreaLabel } from "./types.ts";

type Lang = "es" | "en";
export type CorrectionAction = "add" | "remove";

export function correctionInputSchema(lang: Lang) {
  const t = serverMessagesFor(lang).corrections;
  return z.object({
    area: z.enum(areaIds, { error: t.area }),
    action: z.enum(["add", "remove"], { error: t.action }),
    reason: z.string({ error: t.reason }).trim().min(3, t.reason).max(500, t.reason),
  });
}
export type CorrectionInput = z.output<ReturnType<typeof correctionInputSchema>>;

export interface CorrectionActor {
  organizationId: string;
  userId: string;
  name: string;
  email: string;
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** Set when an API token made the correction (named in the audit detail). */
  tokenId?: string | undefined;
}

export interface CorrectionView {
  id: string;
  documentId: string;
  area: AreaId;
  action: CorrectionAction;
  reason: string;
  by: { name: string; email: string };
  at: string;
}

type Row = typeof areaCorrections.$inferSelect;

function view(row: Row): CorrectionView {
  return {
    id: row.id,
    documentId: row.documentId,
    area: row.area as AreaId,
    action: row.action,
    reason: row.reason,
    by: { name: row.userName, email: row.userEmail },
    at: row.createdAt.toISOString(),
  };
}

export type AuditRecorder = (tx: Db, event: AuditEventInput) => Promise<unknown>;

export type CorrectionOutcome =
  | { ok: true; correction: CorrectionView | null; undone: boolean }
  | { ok: false; error: "not_found" }
  | { ok: false; error: "field"; field: "area"; message: string };

/**
 * Records one correction for the actor's organisation (or undoes the opposite one) and audits
 * it, in one transaction. The caller then has the document matched again (alerts).
 */
export async function correctArea(
  db: Db,
  record: AuditRecorder,
  actor: CorrectionActor,
  documentId: string,
  input: CorrectionInput,
  lang: Lang,
): Promise<CorrectionOutcome> {
  return db.transaction(async (tx) => {
    const [doc] = await tx
      .select({ areaIds: documents.areaIds })
      .from(documents)
      .where(eq(documents.id, documentId))
      .for("update");
    if (!doc) return { ok: false, error: "not_found" } as const;
    const stored = (doc.areaIds ?? []).includes(input.area);
    const [existing] = await tx
      .select()
      .from(areaCorrections)
      .where(
        and(
          eq(areaCorrections.organizationId, actor.organizationId),
          eq(areaCorrections.documentId, documentId),
          eq(areaCorrections.area, input.area),
        ),
      );
    const effective = existing ? existing.action === "add" : stored;
    const t = serverMessagesFor(lang).corrections;
    if (input.action === "add" && effective) {
      return { ok: false, error: "field", field: "area", message: t.alreadyHas } as const;
    }
    if (input.action === "remove" && !effective) {
      return { ok: false, error: "field", field: "area", message: t.doesNotHave } as const;
    }
    const audit = (action: string, id: string, detail: Record<string, unknown>) =>
      record(tx as unknown as Db, {
        organizationId: actor.organizationId,
        actor: { id: actor.userId, email: actor.email },
        action,
        object: { type: "document", id: documentId },
        ip: actor.ip,
        userAgent: actor.userAgent,
        detail: { correctionId: id, ...detail, ...(actor.tokenId ? { tokenId: actor.tokenId } : {}) },
      });
    if (existing) {
      // The opposite of the organisation's earlier correction: back to the stored label.
      await tx.delete(areaCorrections).where(eq(areaCorrections.id, existing.id));
      await audit("document.area_correction_undone", existing.id, {
        area: input.area,
        action: input.action,
        reason: input.reason,
      });
      return { ok: true, correction: null, undone: true } as const;
    }
    const [row] = await tx
      .insert(areaCorrections)
      .values({
        organizationId: actor.organizationId,
        documentId,
        area: input.area,
        action: input.action,
        reason: input.reason,
        userId: actor.userId,
        userName: actor.name,
        userEmail: actor.email,
      })
      .returning();
    await audit("document.area_corrected", row!.id, { area: input.area, action: input.action, reason: input.reason });
    return { ok: true, correction: view(row!), undone: false } as const;
  });
}

/** The organisation's corrections of these documents, by document. */
export async function correctionsOf(
  db: Db,
  organizationId: string,
  documentIds: readonly string[],
): Promise<Map<string, CorrectionView[]>> {
  const out = new Map<string, CorrectionView[]>();
  if (documentIds.length === 0) return out;
  const rows = await db
    .select()
    .from(areaCorrections)
    .where(
      and(eq(areaCorrections.organizationId, organizationId), inArray(areaCorrections.documentId, [...documentIds])),
    )
    .orderBy(areaCorrections.createdAt);
  for (const row of rows) out.set(row.documentId, [...(out.get(row.documentId) ?? []), view(row)]);
  return out;
}

/** Every organisation's corrections of one document (alert matching: each profile sees its organisation's). */
export async function correctionsByOrganisation(
  db: Db,
  documentId: string,
): Promise<Map<string, { add: AreaId[]; remove: AreaId[] }>> {
  const rows = await db
    .select({
      organizationId: areaCorrections.organizationId,
      area: areaCorrections.area,
      action: areaCorrections.action,
    })
    .from(areaCorrections)
    .where(eq(areaCorrections.documentId, documentId));
  const out = new Map<string, { add: AreaId[]; remove: AreaId[] }>();
  for (const row of rows) {
    const entry = out.get(row.organizationId) ?? { add: [], remove: [] };
    entry[row.action].push(row.area as AreaId);
    out.set(row.organizationId, entry);
  }
  return out;
}

/** "corrected by Ana Ruiz: reason": the reason an added area carries (API, search results). */
export function correctionReason(correction: Pick<CorrectionView, "by" | "reason">): string {
  return `corrected by ${correction.by.name}: ${correction.reason}`;
}

/** The stored areas as the organisation sees them: its removals out, its additions in (score 1). */
export function applyCorrections(
  areas: readonly AreaLabel[],
  corrections: readonly CorrectionView[] = [],
): AreaLabel[] {
  if (corrections.length === 0) return [...areas];
  const removed = new Set(corrections.filter((c) => c.action === "remove").map((c) => c.area));
  const out = areas.filter((area) => !removed.has(area.id as AreaId));
  for (const correction of corrections) {
    if (correction.action !== "add" || out.some((area) => area.id === correction.area)) continue;
    out.push({ id: correction.area, score: 1, reasons: [correctionReason(correction)] });
  }
  return out;
}

/** The same for the ids only, from a per-organisation summary (alert matching). */
export function applyAreaIds<T extends { id: string }>(
  areas: readonly T[],
  correction: { add: AreaId[]; remove: AreaId[] } | undefined,
  make: (id: AreaId) => T,
): T[] {
  if (!correction) return [...areas];
  const out = areas.filter((area) => !correction.remove.includes(area.id as AreaId));
  for (const id of correction.add) if (!out.some((area) => area.id === id)) out.push(make(id));
  return out;
}

/** A document with other areas, its non-enumerable text kept (matching reads it; webhook bodies leave it out). */
function withAreas<D extends { areas: { id: string }[]; text?: string }>(document: D, areas: D["areas"]): D {
  const copy = { ...document, areas };
  Object.defineProperty(copy, "text", { value: document.text, enumerable: false });
  return copy;
}

/**
 * What alert matching needs of a document and its corrections: `widened` carries every area some
 * organisation added (the SQL prefilter), `of(organizationId)` the organisation's own view.
 */
export async function organisationViews<D extends { id: string; areas: { id: string }[]; text?: string }>(
  db: Db,
  document: D,
): Promise<{ widened: D; of: (organizationId: string | null) => D }> {
  const byOrganisation = await correctionsByOrganisation(db, document.id);
  if (byOrganisation.size === 0) return { widened: document, of: () => document };
  type Area = D["areas"][number];
  const make = (id: AreaId) => ({ id, score: 1, reasons: ["corrected by the organisation"] }) as unknown as Area;
  const added = [...byOrganisation.values()].flatMap((c) => c.add);
  const widened = withAreas(document, applyAreaIds(document.areas, { add: added, remove: [] }, make));
  const views = new Map<string, D>();
  for (const [organizationId, correction] of byOrganisation) {
    views.set(organizationId, withAreas(document, applyAreaIds(document.areas, correction, make)));
  }
  return { widened, of: (organizationId) => (organizationId ? (views.get(organizationId) ?? document) : document) };
}

export interface CorrectionExportRow extends CorrectionView {
  sourceId: string;
  title: string;
  /** The document's stored areas (the classifier's), for the reviewer. */
  storedAreas: string[];
}

/** The organisation's corrections, newest first, with their documents (admins' list and export). */
export async function listCorrections(
  db: Db,
  organizationId: string,
  options: { limit?: number; before?: { at: string; id: string } } = {},
): Promise<CorrectionExportRow[]> {
  const before = options.before;
  const rows = await db
    .select({
      correction: areaCorrections,
      sourceId: documents.sourceId,
      title: documents.title,
      storedAreas: documents.areaIds,
    })
    .from(areaCorrections)
    .innerJoin(documents, eq(documents.id, areaCorrections.documentId))
    .where(
      and(
        eq(areaCorrections.organizationId, organizationId),
        before
          ? or(
              lt(areaCorrections.createdAt, new Date(before.at)),
              and(eq(areaCorrections.createdAt, new Date(before.at)), lt(areaCorrections.id, before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(areaCorrections.createdAt), desc(areaCorrections.id))
    .limit(options.limit ?? 10_000);
  return rows.map((row) => ({
    ...view(row.correction),
    sourceId: row.sourceId,
    title: row.title,
    storedAreas: row.storedAreas ?? [],
  }));
}

const csvCell = (value: string) => {
  // Spreadsheet formulas are not run from a cell that starts with = + - @ (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const correctionCsvHeader = [
  "source_id",
  "document_id",
  "area",
  "action",
  "reason",
  "stored_areas",
  "corrected_by",
  "corrected_at",
  "title",
];

/** CSV with a header line (UTF-8, RFC 4180 quoting). */
export function correctionsCsv(rows: readonly CorrectionExportRow[]): string {
  const lines = [correctionCsvHeader.join(",")];
  for (const row of rows) {
    lines.push(
      [
        row.sourceId,
        row.documentId,
        row.area,
        row.action,
        row.reason,
        row.storedAreas.join(" "),
        row.by.email,
        row.at,
        row.title,
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
