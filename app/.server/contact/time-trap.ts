/**
 * The form's time trap: the page carries its render time signed with FORM_SECRET; a form sent
 * back sooner than a person could fill it, or with a forged token, is treated as a bot.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** A person needs longer than this to fill the form. */
export const minFillMs = 2000;

function sign(secret: string, issuedAt: number): string {
  return createHmac("sha256", secret).update(`contact-form:${issuedAt}`).digest("base64url");
}

export function issueFormToken(secret: string, now: number = Date.now()): string {
  return `${now}.${sign(secret, now)}`;
}

export type TokenVerdict = "ok" | "too-fast" | "forged";

export function checkFormToken(secret: string, token: string, now: number = Date.now()): TokenVerdict {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return "forged";
  const issuedAt = Number(match[1]);
  const expected = Buffer.from(sign(secret, issuedAt));
  const given = Buffer.from(match[2] as string);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "forged";
  if (issuedAt > now + 60_000) return "forged";
  return now - issuedAt < minFillMs ? "too-fast" : "ok";
}
