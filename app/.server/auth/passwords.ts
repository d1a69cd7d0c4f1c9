/**
 * Password policy: at least 12 characters, at most 256, and not a common password. The list
 * (fixtures/auth/common-passwords.txt.br, brotli, one a line, lower case) holds frequent passwords
 * and the words they are built from; a candidate is refused when it, or it stripped of case,
 * leetspeak, repeated characters and leading/trailing digits and symbols, is on the list.
 */
import { readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import { commonPasswordsFile } from "../fixtures-path.ts";

export const passwordMinLength = 12;
export const passwordMaxLength = 256;

let list: ReadonlySet<string> | undefined;

/** The list, read and decompressed once, on first use (about 16 KB on disk, 160 KB of text). */
export function commonPasswords(): ReadonlySet<string> {
  if (!list) {
    list = new Set(
      brotliDecompressSync(readFileSync(commonPasswordsFile))
        .toString("utf8")
        .split("\n")
        .map((line) => line.trim().toLowerCase())
        .filter((line) => line !== "" && !line.startsWith("#")),
    );
  }
  return list;
}

const leet: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
  "!": "i",
};

/** The forms of a candidate that are looked up. */
export function passwordForms(password: string): string[] {
  const lower = password.toLowerCase().normalize("NFKC");
  const trimmed = lower.replace(/^[\d\W_]+|[\d\W_]+$/gu, "");
  const unleetOf = (text: string) => [...text].map((char) => leet[char] ?? char).join("");
  const unleet = unleetOf(lower);
  const unleetTrimmed = unleetOf(trimmed).replace(/^[\d\W_]+|[\d\W_]+$/gu, "");
  const squeezed = unleetTrimmed.replace(/(.)\1+/gu, "$1");
  return [...new Set([lower, trimmed, unleet, unleetTrimmed, squeezed])].filter((form) => form !== "");
}

export type PasswordProblem = "too_short" | "too_long" | "common";

export function passwordProblem(password: string): PasswordProblem | null {
  if ([...password].length < passwordMinLength) return "too_short";
  if (password.length > passwordMaxLength) return "too_long";
  const set = commonPasswords();
  const forms = passwordForms(password);
  if (forms.some((form) => set.has(form))) return "common";
  // A password made of one short repeated unit (abcabcabcabc, 121212121212).
  if (/^(.{1,4})\1+$/u.test(password.toLowerCase())) return "common";
  return null;
}
