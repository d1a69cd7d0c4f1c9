/** The ICS writer (ical-generator) read back by ical.js, and the feed's URL kept out of logs. */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "../logger.ts";
import { writeIcs } from "./ics.ts";

describe("calendar ICS", () => {
  const event = {
    uid: "obligation-1@vigia-normativo",
    kind: "obligation_due" as const,
    date: "2026-12-09",
    title: 'Ley 1/2026, de medidas; urgentes, con \\ barra y "comillas" '.repeat(3).trim(),
    documentId: "doc-1",
    detail: "Notificar, en plazo",
  };

  it("writes all-day, stamped, folded events that ical.js reads back intact", () => {
    const text = writeIcs([event], {
      locale: "en",
      name: "Feed",
      siteUrl: "https://vigia.example/",
      now: new Date("2026-11-25T10:00:00Z"),
    });
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent");
    if (!vevent) throw new Error("no event");
    const parsed = new ICAL.Event(vevent);
    expect(parsed.uid).toBe(event.uid);
    expect(parsed.startDate.isDate).toBe(true);
    expect(parsed.startDate.toString()).toBe("2026-12-09");
    expect(parsed.endDate.toString()).toBe("2026-12-10");
    expect(vevent.getFirstPropertyValue("dtstamp")?.toString()).toBe("2026-11-25T10:00:00Z");
    expect(parsed.summary.startsWith("Obligation due: Notificar, en plazo — Ley 1/2026, de medidas; urgentes")).toBe(
      true,
    );
    expect(parsed.description).toContain('con \\ barra y "comillas"');
    expect(vevent.getFirstPropertyValue("url")?.toString()).toBe("https://vigia.example/app/documents/doc-1");
  });

  it("keeps a feed's token out of log lines", () => {
    const token = `cal_${"Ab1_-".repeat(8)}xyz`;
    expect(redactSecrets(`GET /calendar/${token}.ics 200`)).toBe("GET /calendar/[redacted] 200");
  });
});
