import { describe, expect, it } from "vitest";
import { boeLawPollTimes, dailyCron, euLawPollTimes, nextDailyRun } from "./law-poll-times.ts";

describe("the law sources' poll times", () => {
  it("are the plug-ins' cron schedules", () => {
    expect(dailyCron(boeLawPollTimes)).toBe("20 7,8,9,10,11,12,13,14,15,16,17,18,19,20,21 * * *");
    expect(dailyCron(euLawPollTimes)).toBe("40 8,17 * * *");
  });

  it.each([
    ["winter, during the day", boeLawPollTimes, "2026-12-06T10:30:00Z", "2026-12-06T11:20:00Z"],
    ["winter, after the last poll: the next morning", boeLawPollTimes, "2026-12-06T20:30:00Z", "2026-12-07T06:20:00Z"],
    ["summer (UTC+2)", boeLawPollTimes, "2026-07-01T05:00:00Z", "2026-07-01T05:20:00Z"],
    ["the night clocks go forward", boeLawPollTimes, "2026-03-28T21:00:00Z", "2026-03-29T05:20:00Z"],
    ["the night clocks go back", boeLawPollTimes, "2026-10-24T21:00:00Z", "2026-10-25T06:20:00Z"],
    ["EU, between its two polls", euLawPollTimes, "2026-12-06T09:00:00Z", "2026-12-06T16:40:00Z"],
    ["EU, after the second", euLawPollTimes, "2026-12-06T16:50:00Z", "2026-12-07T07:40:00Z"],
    ["exactly at a poll: the next one", euLawPollTimes, "2026-12-06T07:40:00Z", "2026-12-06T16:40:00Z"],
  ])("next check, %s", (_name, times, now, next) => {
    expect(nextDailyRun(times, new Date(now)).toISOString()).toBe(new Date(next).toISOString());
  });
});
