/**
 * The due date a triage item starts with, from the dates the document carries: BOE gives one
 * entry-into-force date (fecha_vigencia); EUR-Lex acts may carry several (entry into force, then
 * staggered application dates). The proposal is the first of them not yet past; when all are
 * past, the latest (the item is then overdue, which is the truth). Pure: tested on its own.
 */

import { isCalendarDate } from "../../lib/calendar-date.ts";
import { madridDate } from "../../lib/madrid-date.ts";
import type { DueSource } from "../db/schema/triage.ts";

export interface DueProposal {
  dueOn: string;
  dueSource: Exclude<DueSource, "manual">;
}

/** today: YYYY-MM-DD (Europe/Madrid, see madridDay). */
export function proposeDueDate(effectiveDates: readonly string[], today: string): DueProposal | null {
  const days = [...new Set(effectiveDates.filter((day) => isCalendarDate(day)))].sort();
  if (days.length === 0) return null;
  const index = days.findIndex((day) => day >= today);
  const chosen = index === -1 ? days.length - 1 : index;
  return { dueOn: days[chosen]!, dueSource: chosen === 0 ? "entry_into_force" : "application" };
}

/** The calendar day in Europe/Madrid of an instant (due dates and "overdue" are Madrid days). */
export function madridDay(now: Date): string {
  return madridDate(now);
}

/** The hour (0-23) in Europe/Madrid of an instant. */
export function madridHour(now: Date): number {
  return Number(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Madrid", hour: "2-digit", hourCycle: "h23" }).format(now),
  );
}

/** day + n days (YYYY-MM-DD). */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** Open items (not decided "does not apply" and not done) past their due date are overdue. */
export function isOverdue(item: { status: string; dueOn: string | null }, today: string): boolean {
  return item.dueOn !== null && item.dueOn < today && item.status !== "done" && item.status !== "does_not_apply";
}
