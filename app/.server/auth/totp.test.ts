import { describe, expect, it } from "vitest";
import { hotp, matchingStep, timeStep } from "./totp.ts";

describe("totp", () => {
  it("matches the RFC 4226 test vectors", () => {
    const key = Buffer.from("12345678901234567890");
    expect([0, 1, 2, 3, 9].map((counter) => hotp(key, counter))).toEqual([
      "755224",
      "287082",
      "359152",
      "969429",
      "520489",
    ]);
  });

  it("finds the step of a code within one period either side, and nothing beyond", () => {
    const secret = "abcdefghijklmnopqrstuvwxyz012345";
    const now = 1_800_000_000_000;
    const step = timeStep(now);
    const key = Buffer.from(secret);
    expect(matchingStep(secret, hotp(key, step), now)).toBe(step);
    expect(matchingStep(secret, hotp(key, step - 1), now)).toBe(step - 1);
    expect(matchingStep(secret, hotp(key, step + 3), now)).toBeNull();
    expect(matchingStep(secret, "12345", now)).toBeNull();
  });
});
