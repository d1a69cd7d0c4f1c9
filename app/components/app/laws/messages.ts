/** The law pages' messages by locale. */
import { laws as en } from "../../../i18n/en/laws";
import { laws as es, type LawsMessages } from "../../../i18n/es/laws";
import type { Locale } from "../../../i18n/locales";
import { longDay } from "../../../lib/long-day";

export type { LawsMessages };

export function lawsMessages(locale: Locale): LawsMessages {
  return locale === "en" ? en : es;
}

/** A date (YYYY-MM-DD) as the reader's language writes it. */
export function formatLawDate(value: string | null | undefined, locale: Locale): string {
  if (!value) return "—";
  return longDay(value, locale);
}

/**
 * A block's title as the reader sees it: the BOE names the blocks without a heading by their
 * kind in brackets ("[preambulo]", "[firma]"); those are named in words in the reader's language.
 */
export function blockTitle(title: string, language: Locale | LawsMessages): string {
  const messages = typeof language === "string" ? lawsMessages(language) : language;
  const names = messages.blockKinds as Record<string, string>;
  // "[preambulo]" as the index has it, or "preambulo" as the stored block keeps it.
  const kind = /^\[?([a-z_]+)\]?$/.exec(title.trim())?.[1];
  if (kind !== undefined && kind in names) return names[kind] ?? kind;
  if (title.trim() === "") return names.other ?? "";
  return title;
}
