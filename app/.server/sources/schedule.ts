/** Time helpers of the sources' poll plans: Madrid dates, day ranges, watch windows. */
import type { WatchWindow } from "./plugin.ts";

const TZ = "Europe/Madrid";

/** Today (or `at`) in Madrid, YYYY-MM-DD: the project's one helper (app/lib/madrid-date.ts). */
export { madridDate } from "../../lib/madrid-date.ts";

/** Days from `since` to `until` inclusive (YYYY-MM-DD), at most 366. */
export function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  const d = new Date(`${since}T12:00:00Z`);
  const end = new Date(`${until}T12:00:00Z`);
  while (d <= end && out.length < 366) {
    out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/** Whether `at` falls in the watch window (Europe/Madrid weekday and time). */
export function inWatchWindow(watch: WatchWindow, at = new Date()): boolean {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: TZ,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(part("weekday"));
  const minute = Number(part("hour")) * 60 + Number(part("minute"));
  return watch.days.includes(day) && minute >= watch.fromMinute && minute < watch.toMinute;
}

/** The shape of a watch window setting: "1-6 07:00-10:00" (weekdays optional, 0 = Sunday). */
export const WATCH_WINDOW_PATTERN = /^(?:[0-6]-[0-6] )?(?:[01]\d|2[0-3]):[0-5]\d-(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** "1-6 07:00-10:00" → weekdays 1..6 and minutes of the day [420, 600); null when malformed. */
export function parseWindow(value: string): WatchWindow | null {
  const m = /^(?:([0-6])-([0-6]) )?(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const first = Number(m[1] ?? 0);
  const last = Number(m[2] ?? 6);
  const days: number[] = [];
  for (let d = first; ; d = (d + 1) % 7) {
    days.push(d);
    if (d === last) break;
  }
  return {
    days: Object.freeze(days),
    fromMinute: Number(m[3]) * 60 + Number(m[4]),
    toMinute: Number(m[5]) * 60 + Number(m[6]),
  };
}

/** The cron minute field for "every `seconds`" rounded to minutes: "*\/5", or "0" for an hour or more. */
export function everyMinutes(seconds: number): { minutes: number; field: string } {
  const minutes = Math.max(1, Math.round(seconds / 60));
  return { minutes, field: minutes >= 60 ? "0" : `*/${minutes}` };
}
