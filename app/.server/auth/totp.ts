/**
 * RFC 6238 TOTP (SHA-1, 6 digits, 30 s) over better-auth's secret (its UTF-8 bytes are the
 * key, as in the otpauth:// URI it issues). Used to find which time-step a code belongs to,
 * so a code is accepted only once (the last accepted step is remembered per user).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const totpPeriodSeconds = 30;

export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, "0");
}

export function timeStep(now: number = Date.now()): number {
  return Math.floor(now / 1000 / totpPeriodSeconds);
}

/** The time-step (current ±1) whose code equals `code`, or null. */
export function matchingStep(secret: string | Buffer, code: string, now: number = Date.now()): number | null {
  const key = typeof secret === "string" ? Buffer.from(secret, "utf8") : secret;
  const current = timeStep(now);
  const given = Buffer.from(code.padEnd(6, " ").slice(0, 6));
  let found: number | null = null;
  for (const step of [current - 1, current, current + 1]) {
    const expected = Buffer.from(hotp(key, step));
    if (code.length === 6 && timingSafeEqual(given, expected) && found === null) found = step;
  }
  return found;
}
