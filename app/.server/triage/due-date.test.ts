import { describe, expect, it } from "vitest";
import { addDays, isOverdue, madridDay, madridHour, proposeDueDate } from "./due-date.ts";

describe("proposeDueDate", () => {
  it("proposes the entry into force (BOE: one fecha_vigencia)", () => {
    expect(proposeDueDate(["2026-12-01"], "2026-11-25")).toEqual({
      dueOn: "2026-12-01",
      dueSource: "entry_into_force",
    });
  });

  it("proposes the next date of application once the entry into force is past (staggered EU acts)", () => {
    const dates = ["2027-06-01", "2026-11-01", "2028-01-01"];
    expect(proposeDueDate(dates, "2026-11-25")).toEqual({ dueOn: "2027-06-01", dueSource: "application" });
    expect(proposeDueDate(dates, "2026-10-01")).toEqual({ dueOn: "2026-11-01", dueSource: "entry_into_force" });
  });

  it("proposes the latest date when every date is past (the item is then overdue), none without dates", () => {
    expect(proposeDueDate(["2020-01-01", "2021-06-30"], "2026-11-25")).toEqual({
      dueOn: "2021-06-30",
      dueSource: "application",
    });
    expect(proposeDueDate([], "2026-11-25")).toBeNull();
  });

  it("ignores what is not a calendar day and duplicates", () => {
    expect(proposeDueDate(["soon", "2026-13-45", "2026-12-01", "2026-12-01"], "2026-11-25")).toEqual({
      dueOn: "2026-12-01",
      dueSource: "entry_into_force",
    });
  });

  it("counts today as not yet past", () => {
    expect(proposeDueDate(["2026-11-25", "2027-01-01"], "2026-11-25")?.dueOn).toBe("2026-11-25");
  });
});

describe("Madrid days and overdue", () => {
  it("reads the day and hour in Europe/Madrid, not UTC", () => {
    // 23:30 UTC on 25 November is 00:30 on the 26th in Madrid (UTC+1 in winter).
    const late = new Date("2026-11-25T23:30:00Z");
    expect(madridDay(late)).toBe("2026-11-26");
    expect(madridHour(late)).toBe(0);
    // Summer time: UTC+2.
    expect(madridHour(new Date("2026-07-01T07:00:00Z"))).toBe(9);
  });

  it("adds days across months and years", () => {
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("marks open items past their due date as overdue, never decided or finished ones", () => {
    expect(isOverdue({ status: "under_review", dueOn: "2026-11-24" }, "2026-11-25")).toBe(true);
    expect(isOverdue({ status: "under_review", dueOn: "2026-11-25" }, "2026-11-25")).toBe(false);
    expect(isOverdue({ status: "done", dueOn: "2026-11-01" }, "2026-11-25")).toBe(false);
    expect(isOverdue({ status: "does_not_apply", dueOn: "2026-11-01" }, "2026-11-25")).toBe(false);
    expect(isOverdue({ status: "new", dueOn: null }, "2026-11-25")).toBe(false);
  });
});
