/** The platform's messages by locale (loaded by /app routes only, never by the site's pages). */
import { alerts as alertsEn } from "../../i18n/en/alerts";
import { app as en } from "../../i18n/en/app";
import { type AlertsMessages, alerts as alertsEs } from "../../i18n/es/alerts";
import { type AppMessages, app as es } from "../../i18n/es/app";
import type { Locale } from "../../i18n/locales";

export type { AlertsMessages, AppMessages };

export function appMessages(locale: Locale): AppMessages {
  return locale === "en" ? en : es;
}

/** `{name}` placeholders filled from `values` (the one helper: app/lib/fill-template.ts). */
export { fillTemplate as fill } from "../../lib/fill-template";

export function formatDateTime(value: Date | string | null | undefined, locale: Locale): string {
  if (!value) return "—";
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Europe/Madrid",
  }).format(new Date(value));
}

/** The alert pages' messages (notification centre, alerts, profiles, failed deliveries). */
export function alertMessages(locale: Locale): AlertsMessages {
  return locale === "en" ? alertsEn : alertsEs;
}
