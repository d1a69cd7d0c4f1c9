import { describe, expect, it } from "vitest";
import { madridDate, madridDateDaysAgo } from "./madrid-date.ts";

describe("madridDate", () => {
  it("is the calendar day in Madrid, not in UTC", () => {
    // 23:30 UTC on 31 December is already 1 January in Madrid (UTC+1 in winter).
    expect(madridDate(new Date("2025-12-31T23:30:00Z"))).toBe("2026-01-01");
    // 22:30 UTC on 30 June is 00:30 on 1 July in Madrid (UTC+2 in summer).
    expect(madridDate(new Date("2026-06-30T22:30:00Z"))).toBe("2026-07-01");
    expect(madridDate(new Date("2026-06-30T21:30:00Z"))).toBe("2026-06-30");
  });

  it("counts days back in 24-hour steps", () => {
    expect(madridDateDaysAgo(30, new Date("2026-03-31T10:00:00Z"))).toBe("2026-03-01");
  });
});
