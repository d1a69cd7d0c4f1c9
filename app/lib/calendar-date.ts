/**
 * The one calendar-date parser (issue 37): every date the product reads (API parameters and
 * bodies, form fields, the law page's `?date=`, INGEST_SINCE, command options, dates in source
 * payloads) is `YYYY-MM-DD` naming a day that exists, checked here. zod's ISO date is the check
 * (four-digit year, two-digit month and day, month lengths and leap years), so a schema field,
 * the OpenAPI description (`format: date`) and a plain test of a string agree: 2023-02-30,
 * 2023-02-29, 2023-13-01 and 2023-1-1 are refused, 2024-02-29 is a day.
 *
 * Never `Date.parse` or `new Date(…)` to check a date: they roll 2023-02-30 over to 2 March.
 */
import { z } from "zod";

type DateParams = Parameters<typeof z.iso.date>[0];

/** A schema field for a calendar date; `params` as z.iso.date takes them (a message, an error map). */
export function calendarDate(params?: DateParams) {
  return z.iso.date(params);
}

const strict = calendarDate();

/** True when the value is a `YYYY-MM-DD` string naming a day that exists. */
export function isCalendarDate(value: unknown): value is string {
  return strict.safeParse(value).success;
}

/** The value when it is a calendar date, else undefined (for optional query parameters and filters). */
export function parseCalendarDate(value: string | null | undefined): string | undefined {
  return isCalendarDate(value) ? value : undefined;
}

/**
 * A date given in parts (a payload's `20230230`, `30.02.2023`) as `YYYY-MM-DD`, or undefined when
 * the parts do not name a day.
 */
export function calendarDateOf(
  year: string | number,
  month: string | number,
  day: string | number,
): string | undefined {
  const pad = (part: string | number, width: number) => String(part).padStart(width, "0");
  if (![year, month, day].every((part) => /^\d+$/.test(String(part)))) return undefined;
  return parseCalendarDate(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);
}
