import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./outbox.ts";

describe("the outbox's back-off", () => {
  const settings = { retryBaseMs: 1000, retryMaxMs: 30_000 };

  it("doubles each attempt, with half of it random, and never goes over the cap", () => {
    expect(retryDelayMs(1, settings, () => 0)).toBe(500);
    expect(retryDelayMs(1, settings, () => 1)).toBe(1000);
    expect(retryDelayMs(2, settings, () => 0)).toBe(1000);
    expect(retryDelayMs(3, settings, () => 1)).toBe(4000);
    expect(retryDelayMs(6, settings, () => 1)).toBe(30_000);
    expect(retryDelayMs(60, settings, () => 0)).toBe(15_000);
  });

  it("spreads retries of the same attempt (jitter)", () => {
    const delays = Array.from({ length: 50 }, () => retryDelayMs(4, settings));
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(4000);
      expect(delay).toBeLessThanOrEqual(8000);
    }
    expect(new Set(delays).size).toBeGreaterThan(10);
  });
});
