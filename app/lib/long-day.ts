/** A calendar day (YYYY-MM-DD) written out in the reader's language ("25 de noviembre de 2026"). */
export function longDay(day: string, locale: string | undefined): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${day.slice(0, 10)}T00:00:00Z`),
  );
}
