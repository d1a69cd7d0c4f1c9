/**
 * Reviewed corrections as labelled data for `classify:eval --corrections file`: the JSON an admin
 * exported (GET /api/v1/corrections, /app/admin/corrections/export?format=json) and kept after
 * review (remove the rows you disagree with). Each row moves the gold areas of the labelled
 * entry with the same source id: "add" adds the area, "remove" takes it out. Rows on documents
 * outside the labelled set are counted, not measured (their payload is not in the fixtures).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { type AreaId, areaIds } from "../../lib/taxonomy.ts";

const reviewedSchema = z.array(
  z.looseObject({ sourceId: z.string().min(1), area: z.enum(areaIds), action: z.enum(["add", "remove"]) }),
);

export function readReviewedCorrections(file: string) {
  const parsed = reviewedSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? "invalid"}`.trim());
  }
  return parsed.data;
}

/** The entries with their gold areas corrected; how many rows applied and how many had no entry. */
export function applyReviewedCorrections<E extends { sourceId: string; areas: AreaId[] }>(
  entries: readonly E[],
  rows: readonly { sourceId: string; area: AreaId; action: "add" | "remove" }[],
): { entries: E[]; applied: number; outside: number } {
  const bySource = new Map<string, { area: AreaId; action: "add" | "remove" }[]>();
  for (const row of rows) bySource.set(row.sourceId, [...(bySource.get(row.sourceId) ?? []), row]);
  const known = new Set(entries.map((e) => e.sourceId));
  let applied = 0;
  const out = entries.map((entry) => {
    const moves = bySource.get(entry.sourceId);
    if (!moves) return entry;
    let areas = [...entry.areas];
    for (const move of moves) {
      areas = move.action === "add" ? [...new Set([...areas, move.area])] : areas.filter((a) => a !== move.area);
      applied++;
    }
    return { ...entry, areas };
  });
  const outside = rows.filter((row) => !known.has(row.sourceId)).length;
  return { entries: out, applied, outside };
}
