/**
 * Writes a feed's events as iCalendar (RFC 5545) through ical-generator: escaping, line folding,
 * DTSTAMP and all-day dates are the library's. Summaries name the kind in the feed's language.
 */
import ical, { ICalEventTransparency } from "ical-generator";
import { evidence as en } from "../../i18n/en/evidence.ts";
import { evidence as es } from "../../i18n/es/evidence.ts";
import type { CalendarEvent } from "./events.ts";

export interface IcsOptions {
  locale: "es" | "en";
  /** Calendar name shown by the client. */
  name: string;
  /** The platform's origin, for links back to the document. */
  siteUrl: string;
  /** DTSTAMP of every event: when the feed was written. */
  now?: Date;
}

const maxSummary = 180;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function writeIcs(events: readonly CalendarEvent[], options: IcsOptions): string {
  const t = options.locale === "en" ? en : es;
  const stamp = options.now ?? new Date();
  const calendar = ical({
    name: options.name,
    prodId: { company: "Vigia Normativo", product: "calendar", language: options.locale.toUpperCase() },
    ttl: 60 * 60,
  });
  for (const event of events) {
    const start = new Date(`${event.date}T00:00:00Z`);
    const end = new Date(start.getTime() + 86_400_000);
    const kind = t.calendar.kinds[event.kind];
    const what = event.detail ? `${event.detail} — ${event.title}` : event.title;
    const url = `${options.siteUrl.replace(/\/$/, "")}/app/documents/${event.documentId}`;
    calendar.createEvent({
      id: event.uid,
      start,
      end,
      allDay: true,
      stamp,
      summary: clip(`${kind}: ${what}`, maxSummary),
      description: `${kind}\n${what}\n${url}`,
      url,
      transparency: ICalEventTransparency.TRANSPARENT,
    });
  }
  return calendar.toString();
}
