/**
 * The calendar day in Europe/Madrid (the BOE's and the product's day), as YYYY-MM-DD: "today"
 * for ingestion, source counters and digests, whatever zone the server runs in.
 */
const madridDay = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" });

export function madridDate(at: Date = new Date()): string {
  return madridDay.format(at);
}

/** The Madrid day `days` whole days before `at` (24-hour steps, as the callers count them). */
export function madridDateDaysAgo(days: number, at: Date = new Date()): string {
  return madridDay.format(new Date(at.getTime() - days * 86_400_000));
}
