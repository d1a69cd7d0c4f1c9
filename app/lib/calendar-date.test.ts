/**
 * Issue 37 item 4: one strict calendar-date parser. The table runs through the parser and through
 * each place that reads a date (API query schemas, the audit page's filters, the triage list's
 * filters, the obligation register's filters, INGEST_SINCE, source payloads), so a reader that
 * goes back to Date.parse or a bare regular expression fails here.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentQuerySchema } from "../.server/api/operations/documents.ts";
import { auditFiltersFrom } from "../.server/auth/audit-filters.ts";
import { ConfigError, loadConfig } from "../.server/config.ts";
import { splitConsolidatedCelex } from "../.server/sources/eu-consolidated/parse.ts";
import { isoDate } from "../.server/sources/xml.ts";
import { proposeDueDate } from "../.server/triage/due-date.ts";
import { parseTriageFilters } from "../.server/triage/filters.ts";
import { parseObligationFilters } from "../.server/triage/obligations.ts";
import { apiTokenFormSchema } from "./api-token-schema.ts";
import { calendarDate, calendarDateOf, isCalendarDate, parseCalendarDate } from "./calendar-date.ts";

const days = [
  ["2024-02-29", true, "a leap day"],
  ["2000-02-29", true, "a leap day of a year divisible by 400"],
  ["2023-12-31", true, "the last day of a year"],
  ["2023-02-28", true, "the last day of February"],
  ["2023-02-29", false, "29 February of a common year"],
  ["2023-02-30", false, "30 February (Date.parse makes it 2 March)"],
  ["1900-02-29", false, "29 February of a century not divisible by 400"],
  ["2023-04-31", false, "31 April"],
  ["2023-13-01", false, "month 13"],
  ["2023-00-10", false, "month 0"],
  ["2023-01-00", false, "day 0"],
  ["2023-01-32", false, "day 32"],
  ["2023-1-1", false, "one-digit month and day"],
  ["23-01-01", false, "a two-digit year"],
  ["2023/01/01", false, "slashes"],
  [" 2023-01-01", false, "a leading space"],
  ["2023-01-01T00:00", false, "a time"],
  ["20230101", false, "no dashes"],
  ["ayer", false, "a word"],
  ["", false, "empty"],
] as const;

describe("the calendar-date parser", () => {
  it.each(days)("%s: %s (%s)", (value, valid) => {
    expect(isCalendarDate(value)).toBe(valid);
    expect(parseCalendarDate(value)).toBe(valid ? value : undefined);
    expect(calendarDate().safeParse(value).success).toBe(valid);
  });

  it("reads dates given in parts, refusing days that do not exist", () => {
    expect(calendarDateOf("2024", "2", "29")).toBe("2024-02-29");
    expect(calendarDateOf(2023, 2, 29)).toBeUndefined();
    expect(calendarDateOf("2023", "02", "30")).toBeUndefined();
    expect(calendarDateOf("2023", "x", "01")).toBeUndefined();
  });
});

describe("every reader of a date uses it", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "calendar-date-"));
  const config = (since: string) => () => loadConfig({ DATA_DIR: dataDir, INGEST_SINCE: since });

  it.each(days.filter(([value]) => value !== ""))("%s: %s (%s)", (value, valid) => {
    const query = new URLSearchParams({ from: value, to: value, due_from: value, due_to: value });
    // API query parameters (documents; the same `day` serves triage, audit, evidence, laws).
    expect(documentQuerySchema.safeParse({ from: value }).success).toBe(valid);
    // The audit page's filters: a bad day is dropped, not rolled over.
    expect(auditFiltersFrom(query).from?.toISOString().slice(0, 10)).toBe(valid ? value : undefined);
    // The triage list's and the obligation register's filters.
    expect(parseTriageFilters(query).dueFrom).toBe(valid ? value : null);
    expect(parseObligationFilters(query).dueFrom).toBe(valid ? value : null);
    // A form: the API token's expiry (a day after today is asked; far-future equivalents).
    const future = value.replace(/^\d{4}/, "2999");
    expect(apiTokenFormSchema("en").safeParse({ name: "t", scope: "read", expiresAt: future }).success).toBe(
      isCalendarDate(future),
    );
    // The environment.
    if (valid) expect(config(value)().sources.since).toBe(value);
    else expect(config(value)).toThrow(ConfigError);
    // Source payloads: due-date proposals from a document's dates.
    expect(proposeDueDate([value], "2020-01-01")?.dueOn).toBe(valid ? value : undefined);
  });

  it("refuses impossible days in source payloads, written with or without dashes", () => {
    for (const value of ["2023-02-30", "2023-02-29", "2023-13-01", "20230230", "2023-04-31T10:00:00Z"]) {
      expect(isoDate(value), value).toBeUndefined();
    }
    expect(isoDate("2023-02-28T10:00:00Z")).toBe("2023-02-28");
    expect(isoDate("20240229")).toBe("2024-02-29");
    expect(splitConsolidatedCelex("02014R0596-20230230")).toBeNull();
    expect(splitConsolidatedCelex("02014R0596-20240229")?.date).toBe("2024-02-29");
  });
});
