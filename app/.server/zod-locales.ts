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

const quoted = (keys: readonly PropertyKey[]) => keys.map((key) => `"${String(key)}"`).join(", ");

const spanishFields: LocaleError = (issue) => {
  if (issue.code === "unrecognized_keys") {
    const many = issue.keys.length > 1;
    return `Campo${many ? "s" : ""} desconocido${many ? "s" : ""}: ${quoted(issue.keys)}`;
  }
  if (issue.code === "invalid_key") return issue.origin === "map" ? "Clave no válida en el mapa" : "Campo no válido";
  return spanish(issue);
};

export const zodLocales = { es: spanishFields, en: en().localeError as LocaleError } satisfies Record<
  Locale,
  LocaleError
>;
