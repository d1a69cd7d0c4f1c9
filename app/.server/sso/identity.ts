import { isLocale, type Locale } from "../../i18n/locales.ts";

/** What an identity provider said about the person signing in, whatever the protocol. */
export interface IdpIdentity {
  /** OIDC `sub`, SAML NameID: stable within the provider. */
  subject: string;
  email: string;
  name: string;
  /** The IdP's group names (OIDC `groups` claim, SAML `groups`/`memberOf` attribute). */
  groups: string[];
  /** Whether the IdP says a second factor was used (amr, acr, AuthnContextClassRef). */
  mfa: boolean;
  /** The raw MFA evidence, for the audit trail. */
  mfaEvidence: Record<string, unknown>;
  /** The person's language when the IdP says it (OIDC `locale`, SAML `preferredLanguage`/`locale`) and we have it. */
  locale?: Locale;
}

/** A language tag from an IdP ("en-US", "es_ES", "EN") as one of ours, or undefined (another language, or none). */
export function localeOfTag(value: unknown): Locale | undefined {
  if (typeof value !== "string") return undefined;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return isLocale(primary) ? primary : undefined;
}

/** A sign-in the IdP answered but we refuse: the reason is audited, never shown in detail. */
export class SsoRefused extends Error {
  override name = "SsoRefused";
  readonly reason: string;
  constructor(reason: string) {
    super(`SSO sign-in refused: ${reason}`);
    this.reason = reason;
  }
}

/** OIDC `amr` values and `acr` URIs that mean more than one factor (RFC 8176; common IdPs). */
const mfaAmr = new Set(["mfa", "otp", "hwk", "swk", "sms", "fpt", "face", "iris", "retina", "pin", "sc", "tel", "vbm"]);

export function oidcSaysMfa(amr: unknown, acr: unknown): boolean {
  if (Array.isArray(amr) && amr.some((value) => typeof value === "string" && mfaAmr.has(value))) return true;
  if (typeof acr !== "string") return false;
  return /mfa|multi|phr|phrh|silver|gold|aal2|aal3|loa3|loa4/i.test(acr);
}

/** SAML AuthnContextClassRef values that name a multi-factor authentication. */
export function samlSaysMfa(classRef: string | undefined): boolean {
  if (!classRef) return false;
  return (
    /MultiFactor|TimeSyncToken|MobileTwoFactor|Smartcard|X509|mfa/i.test(classRef) ||
    classRef === "http://schemas.microsoft.com/claims/multipleauthn"
  );
}

/** Group names from a claim or attribute: a string, an array of strings, or nothing. */
export function groupsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return [];
}
