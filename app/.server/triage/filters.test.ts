import { describe, expect, it } from "vitest";
import { parseAssignee, parseTriageFilters, triageFiltersQuery } from "./filters.ts";

const parse = (query: string) => parseTriageFilters(new URLSearchParams(query));

describe("parseTriageFilters", () => {
  it("reads every filter of the list's form", () => {
    expect(
      parse(
        "status=new&status=under_review&assignee=group:team-1&area=aml&due_from=2026-11-01&due_to=2026-12-31&overdue=1&page=3",
      ),
    ).toEqual({
      statuses: ["new", "under_review"],
      assignee: { kind: "group", id: "team-1" },
      area: "aml",
      dueFrom: "2026-11-01",
      dueTo: "2026-12-31",
      overdue: true,
      page: 3,
    });
  });

  it("accepts comma-separated statuses (the API) and drops unknown ones", () => {
    expect(parse("status=applies,maybe,done").statuses).toEqual(["applies", "done"]);
  });

  it("drops what is not valid instead of failing: a stale link still opens the list", () => {
    expect(parse("assignee=robot:1&area=astrology&due_from=2026-02-30&page=-2&overdue=yes")).toEqual({
      statuses: [],
      assignee: null,
      area: null,
      dueFrom: null,
      dueTo: null,
      overdue: false,
      page: 1,
    });
  });

  it("reads a reversed date range as meant", () => {
    const filters = parse("due_from=2026-12-31&due_to=2026-11-01");
    expect([filters.dueFrom, filters.dueTo]).toEqual(["2026-11-01", "2026-12-31"]);
  });

  it("knows me, none, user: and group: assignees; ids are bounded and plain", () => {
    expect(parseAssignee("me")).toEqual({ kind: "me" });
    expect(parseAssignee("none")).toEqual({ kind: "none" });
    expect(parseAssignee("user:ana_1")).toEqual({ kind: "user", id: "ana_1" });
    expect(parseAssignee("user:ana'; drop table x")).toBeNull();
    expect(parseAssignee("group:")).toBeNull();
  });

  it("writes the filters back as a query (pagination links keep them)", () => {
    const filters = parse("status=applies&assignee=me&overdue=on");
    expect(triageFiltersQuery(filters, 2)).toBe("?status=applies&assignee=me&overdue=1&page=2");
    expect(triageFiltersQuery(parse(""))).toBe("");
  });
});
