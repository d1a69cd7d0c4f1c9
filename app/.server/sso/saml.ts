/**
 * SAML 2.0 service provider on samlify (the library @better-auth/sso uses), with xmllint's schema
 * check, and the checks that make an answer ours (decision 0136): no DOCTYPE or entity at all,
 * exactly one assertion in the document and that assertion signed by the IdP's certificate (no
 * signature wrapping, no unsigned assertion beside a signed response), the IdP's issuer, our
 * audience, our ACS as recipient, InResponseTo of the request we sent, the validity window. The
 * caller keeps each assertion ID until it expires (one-time use).
 */
import { XMLParser } from "fast-xml-parser";
import * as samlify from "samlify";
import { groupsOf, type IdpIdentity, localeOfTag, SsoRefused, samlSaysMfa } from "./identity.ts";
import { samlSchemaValidator } from "./saml-schema.ts";

samlify.setSchemaValidator(samlSchemaValidator);

export interface SamlSettings {
  spEntityId: string;
  acsUrl: string;
  idpEntityId: string;
  entryPoint: string;
  certificate: string;
}

export interface SamlAnswer {
  identity: IdpIdentity;
  assertionId: string;
  inResponseTo: string;
  /** Until when the assertion could be replayed (the caller remembers its ID until then). */
  expiresAt: Date;
}

/** Allowed clock difference with the IdP. */
const skewMs = 60_000;
const maxResponseBytes = 256 * 1024;
const { binding } = samlify.Constants.namespace;

const emailNames = [
  "email",
  "mail",
  "emailaddress",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
];
const nameNames = ["name", "displayname", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name", "cn"];
/** The person's language: inetOrgPerson's preferredLanguage (by name or OID), or a plain `locale`. */
const localeNames = ["preferredlanguage", "urn:oid:2.16.840.1.113730.3.1.39", "locale", "language"];
const groupNames = ["groups", "memberof", "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups", "role"];

/** Entities built once per settings (samlify warns at each construction of an IdP without logout). */
const built = new Map<string, ReturnType<typeof buildEntities>>();

function entities(settings: SamlSettings) {
  const key = JSON.stringify(settings);
  let found = built.get(key);
  if (!found) {
    if (built.size > 100) built.clear();
    found = buildEntities(settings);
    built.set(key, found);
  }
  return found;
}

function buildEntities(settings: SamlSettings) {
  const sp = samlify.ServiceProvider({
    entityID: settings.spEntityId,
    assertionConsumerService: [{ Binding: binding.post, Location: settings.acsUrl }],
    wantAssertionsSigned: true,
    authnRequestsSigned: false,
    nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
    clockDrifts: [-skewMs, skewMs],
  });
  const idp = samlify.IdentityProvider({
    entityID: settings.idpEntityId,
    singleSignOnService: [{ Binding: binding.redirect, Location: settings.entryPoint }],
    signingCert: settings.certificate,
    wantAuthnRequestsSigned: false,
  });
  return { sp, idp };
}

/** The document's structure as plain objects (namespace prefixes dropped, no entity expansion). */
const structure = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) =>
    [
      "Assertion",
      "Audience",
      "AudienceRestriction",
      "Attribute",
      "AttributeValue",
      "Signature",
      "SubjectConfirmation",
    ].includes(name),
});

type Node = Record<string, unknown>;
const node = (value: unknown): Node =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : {};
const list = (value: unknown): Node[] => (Array.isArray(value) ? value.map(node) : value ? [node(value)] : []);
const text = (value: unknown): string =>
  typeof value === "string" ? value : typeof node(value)["#text"] === "string" ? (node(value)["#text"] as string) : "";

/** Text of an element that may repeat (strings, or objects when the element has attributes). */
const texts = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(text);

function time(value: unknown): number | null {
  if (typeof value !== "string" || !value) return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** Reads what the checks need before and after the signature is verified. */
export function samlEnvelope(encoded: string) {
  if (encoded.length > maxResponseBytes * 1.4) throw new SsoRefused("saml: response too large");
  const xml = Buffer.from(encoded, "base64").toString("utf8");
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SsoRefused("saml: DOCTYPE or entity in the response");
  if (/<(?:[\w.-]+:)?EncryptedAssertion[\s>/]/.test(xml))
    throw new SsoRefused("saml: encrypted assertions not supported");
  const assertionTags = xml.match(/<(?:[\w.-]+:)?Assertion[\s>/]/g) ?? [];
  if (assertionTags.length !== 1) throw new SsoRefused(`saml: ${assertionTags.length} assertions in the response`);
  const response = node(node(structure.parse(xml)).Response);
  const [assertion] = list(response.Assertion);
  if (!assertion) throw new SsoRefused("saml: no assertion directly in the response");
  return { xml, response, assertion };
}

export function samlServiceProvider() {
  return {
    /** The AuthnRequest (HTTP-Redirect binding): its ID, kept to match InResponseTo, and the URL. */
    begin(settings: SamlSettings): { id: string; url: string } {
      const { sp, idp } = entities(settings);
      const request = sp.createLoginRequest(idp, "redirect") as { id: string; context: string };
      return { id: request.id, url: request.context };
    },

    metadata(settings: Pick<SamlSettings, "spEntityId" | "acsUrl">): string {
      return samlify
        .ServiceProvider({
          entityID: settings.spEntityId,
          assertionConsumerService: [{ Binding: binding.post, Location: settings.acsUrl }],
          wantAssertionsSigned: true,
          authnRequestsSigned: false,
        })
        .getMetadata();
    },

    /** The ACS: every check, then the person. `expectedRequestId` is the AuthnRequest we sent. */
    async finish(
      settings: SamlSettings,
      encoded: string,
      expectedRequestId: string,
      now = Date.now(),
    ): Promise<SamlAnswer> {
      const { assertion } = samlEnvelope(encoded);
      const { sp, idp } = entities(settings);
      try {
        await sp.parseLoginResponse(idp, "post", { body: { SAMLResponse: encoded } });
      } catch (error) {
        throw new SsoRefused(`saml: ${error instanceof Error ? error.message : String(error)}`.slice(0, 240));
      }
      // samlify accepts a signed response around an unsigned assertion: the assertion itself must be signed.
      const assertionId = String(assertion["@ID"] ?? "");
      const signed = list(assertion.Signature).some((signature) =>
        list(node(signature.SignedInfo).Reference).some((reference) => reference["@URI"] === `#${assertionId}`),
      );
      if (!assertionId || !signed) throw new SsoRefused("saml: assertion not signed");
      if (text(assertion.Issuer) !== settings.idpEntityId) throw new SsoRefused("saml: issuer");
      const conditions = node(assertion.Conditions);
      const audiences = list(conditions.AudienceRestriction).flatMap((restriction) => texts(restriction.Audience));
      if (!audiences.includes(settings.spEntityId)) throw new SsoRefused("saml: audience");
      const notBefore = time(conditions["@NotBefore"]);
      const notOnOrAfter = time(conditions["@NotOnOrAfter"]);
      if (notOnOrAfter === null || notOnOrAfter <= now - skewMs || (notBefore !== null && notBefore > now + skewMs)) {
        throw new SsoRefused("saml: outside the validity window");
      }
      const subject = node(assertion.Subject);
      const confirmations = list(subject.SubjectConfirmation).map((confirmation) =>
        node(confirmation.SubjectConfirmationData),
      );
      const bearer = confirmations.find((data) => data["@Recipient"] === settings.acsUrl);
      if (!bearer) throw new SsoRefused("saml: recipient");
      if (bearer["@InResponseTo"] !== expectedRequestId) throw new SsoRefused("saml: InResponseTo");
      const bearerUntil = time(bearer["@NotOnOrAfter"]);
      if (bearerUntil !== null && bearerUntil <= now - skewMs)
        throw new SsoRefused("saml: outside the validity window");

      const attributes = new Map<string, string[]>();
      for (const statement of list(assertion.AttributeStatement)) {
        for (const attribute of list(statement.Attribute)) {
          const name = String(attribute["@Name"] ?? "").toLowerCase();
          const values = texts(attribute.AttributeValue);
          attributes.set(name, [...(attributes.get(name) ?? []), ...values.filter((value) => value !== "")]);
        }
      }
      const first = (names: string[]) => names.map((name) => attributes.get(name)?.[0]).find((value) => !!value);
      const nameId = text(subject.NameID).trim();
      const email = (first(emailNames) ?? (nameId.includes("@") ? nameId : "")).trim().toLowerCase();
      if (!nameId || !email) throw new SsoRefused("saml: no subject or email");
      const classRef = text(node(node(assertion.AuthnStatement).AuthnContext).AuthnContextClassRef);
      const locale = localeOfTag(first(localeNames));
      return {
        identity: {
          ...(locale ? { locale } : {}),
          subject: nameId,
          email,
          name: first(nameNames)?.trim() || email.split("@")[0]!,
          groups: groupsOf(groupNames.flatMap((name) => attributes.get(name) ?? [])),
          mfa: samlSaysMfa(classRef),
          mfaEvidence: { authnContextClassRef: classRef || null },
        },
        assertionId,
        inResponseTo: expectedRequestId,
        expiresAt: new Date(Math.max(notOnOrAfter, bearerUntil ?? 0) + skewMs),
      };
    },
  };
}
