/**
 * zod's messages in the app's languages: its own es and en locales, with the Spanish words a
 * Spanish developer expects for object keys ("campo", where zod's locale says "llave").
 */
import type { z } from "zod";
// One file per locale: zod/locales' index would load all of zod's locales (about 1 MB of heap).
import en from "zod/v4/locales/en.js";
import es from "zod/v4/locales/es.js";
import type { Locale } from "../i18n/locales.ts";

type LocaleError = NonNullable<z.core.$ZodConfig["localeError"]>;

const spanish = es().localeError as LocaleError;
const english = en().localeError as LocaleError;

/** Past this many allowed values, a message names the value given instead of listing them all. */
const listedValues = 6;

/**
 * An enum of areas or jurisdictions has dozens of values: zod's message listed them all. Past
 * six, the message says which value is not allowed and where the list is (the OpenAPI description).
 */
function longEnum(issue: Parameters<LocaleError>[0], locale: Locale): string | undefined {
  if (issue.code !== "invalid_value" || issue.values.length <= listedValues) return undefined;
  const given = typeof issue.input === "string" ? `"${issue.input.slice(0, 60)}"` : JSON.stringify(issue.input);
  return locale === "es"
    ? `Valor no admitido: ${given ?? "vacío"}. Los valores admitidos están en la descripción OpenAPI (/api/v1/openapi.json).`
    : `Value not allowed: ${given ?? "empty"}. The allowed values are in the OpenAPI description (/api/v1/openapi.json).`;
}

const quoted = (keys: readonly PropertyKey[]) => keys.map((key) => `"${String(key)}"`).join(", ");

const spanishFields: LocaleError = (issue) => {
  if (issue.code === "unrecognized_keys") {
    const many = issue.keys.length > 1;
    return `Campo${many ? "s" : ""} desconocido${many ? "s" : ""}: ${quoted(issue.keys)}`;
  }
  if (issue.code === "invalid_key") return issue.origin === "map" ? "Clave no válida en el mapa" : "Campo no válido";
  return longEnum(issue, "es") ?? spanish(issue);
};

const englishFields: LocaleError = (issue) => longEnum(issue, "en") ?? english(issue);

export const zodLocales = { es: spanishFields, en: englishFields } satisfies Record<Locale, LocaleError>;
