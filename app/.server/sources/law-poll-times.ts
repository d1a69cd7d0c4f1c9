/**
 * When the law sources poll (Europe/Madrid, the kernel's time zone): the plug-ins' schedules are
 * built from these times and a pending law's page says when the next check is from the same ones.
 */
export interface DailyTimes {
  minute: number;
  /** Hours of the day (0-23), ascending. */
  hours: readonly number[];
}

const hoursFrom = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

/** BOE consolidated laws: hourly through the day (sources/consolidated). */
export const boeLawPollTimes: DailyTimes = { minute: 20, hours: hoursFrom(7, 21) };
/** EU consolidated versions: twice a day (sources/eu-consolidated). */
export const euLawPollTimes: DailyTimes = { minute: 40, hours: [8, 17] };

export function lawPollTimes(source: "boe" | "eu"): DailyTimes {
  return source === "eu" ? euLawPollTimes : boeLawPollTimes;
}

/** The times as a cron expression (every day). */
export function dailyCron(times: DailyTimes): string {
  return `${times.minute} ${times.hours.join(",")} * * *`;
}

const zone = "Europe/Madrid";

/** Minutes Madrid is ahead of UTC at an instant. */
function madridOffsetMinutes(at: Date): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return Math.round((wall - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

/** The first of the times after `now` (Madrid wall clock), as an instant. */
export function nextDailyRun(times: DailyTimes, now: Date): Date {
  const today = new Date(now.getTime() + madridOffsetMinutes(now) * 60_000);
  for (let day = 0; day <= 2; day++) {
    for (const hour of times.hours) {
      const wall = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + day, hour, times.minute);
      // The offset at the guess, then again at the result (a change of offset in between).
      let at = wall - madridOffsetMinutes(new Date(wall)) * 60_000;
      at = wall - madridOffsetMinutes(new Date(at)) * 60_000;
      if (at > now.getTime()) return new Date(at);
    }
  }
  throw new Error("nextDailyRun: no hours given");
}
