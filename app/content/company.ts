/**
 * The company's identity, used by the footer, the legal notice, the privacy
 * policy and the JSON-LD. Every value below is an obviously fake placeholder:
 * fill in the real data before going live (see README, "Before going live").
 */
export const company = {
  /** Registered legal name. */
  legalName: "Vigía Normativo Ejemplo, S.L.",
  /** Trading name shown on the site. */
  tradeName: "Vigía Normativo",
  /** Spanish tax id (NIF/CIF). */
  taxId: "B00000000",
  address: {
    street: "Calle Ejemplo, 1, 1.º",
    postalCode: "28000",
    city: "Madrid",
    country: { es: "España", en: "Spain" },
  },
  /** Commercial registry entry (Registro Mercantil). */
  registry: "Registro Mercantil de Madrid, tomo 00000, folio 0, hoja M-000000, inscripción 1.ª",
  email: "info@example.com",
  /** Address for data protection requests (GDPR rights). */
  privacyEmail: "privacidad@example.com",
  /** Data protection officer, if one is appointed; null otherwise. */
  dpoEmail: null as string | null,
  /** Year the site's copyright notice starts. */
  since: 2025,
};

export type Company = typeof company;

export function companyAddress(lang: "es" | "en"): string {
  const { street, postalCode, city, country } = company.address;
  return `${street}, ${postalCode} ${city}, ${country[lang]}`;
}
