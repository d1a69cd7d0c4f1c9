/** Names of the taxonomy's ids and formatted dates for the document pages (isomorphic). */
import type { Locale } from "../../../i18n/locales";
import { areas, jurisdictions, kinds } from "../../../lib/taxonomy";

const byId = <T extends { id: string; name: { es: string; en: string } }>(list: readonly T[]) =>
  new Map(list.map((entry) => [entry.id as string, entry.name]));
const areaNames = byId(areas);
const jurisdictionNames = byId(jurisdictions);
const kindNames = byId(kinds);

export const areaLabel = (id: string, locale: Locale) => areaNames.get(id)?.[locale] ?? id;
export const jurisdictionLabel = (id: string | null, locale: Locale) =>
  id ? (jurisdictionNames.get(id)?.[locale] ?? id) : "—";
export const kindLabel = (id: string | null, locale: Locale) => (id ? (kindNames.get(id)?.[locale] ?? id) : "—");

/** A YYYY-MM-DD day as "6 dic 2018" / "6 Dec 2018" (no time zone shift: it is a calendar day). */
export function formatDay(day: string | null | undefined, locale: Locale): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return "—";
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", {
    dateStyle: "medium",
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));
}

export const taxonomyOptions = (locale: Locale) => ({
  areas: areas.map((a) => ({ id: a.id as string, label: a.name[locale] })),
  jurisdictions: jurisdictions.map((j) => ({ id: j.id as string, label: j.name[locale] })),
  kinds: kinds.map((k) => ({ id: k.id as string, label: k.name[locale] })),
});

/** A 0..1 score with two decimals in the reader's notation (0,80 / 0.80). */
export const formatScore = (score: number, locale: Locale) =>
  new Intl.NumberFormat(locale === "en" ? "en-GB" : "es-ES", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(score);
