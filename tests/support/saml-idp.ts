/**
 * A SAML 2.0 identity provider built on samlify for the SSO tests: it reads the product's
 * AuthnRequest from the redirect URL, and answers with a Response whose assertion it signs with
 * its key (the SP's metadata asks for signed assertions). `overrides` bend one value (audience,
 * validity, InResponseTo…) so that the tests can send what a broken or hostile IdP would.
 * The keys in ./saml/ are test-only, made with `openssl req -x509 -newkey rsa:2048`.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as samlify from "samlify";

const { binding } = samlify.Constants.namespace;
const emailFormat = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export interface SamlPerson {
  nameId: string;
  email: string;
  name: string;
  groups: string[];
  /** AuthnContextClassRef (e.g. …:MultiFactor or …:PasswordProtectedTransport). */
  classRef?: string;
  /** The `preferredLanguage` attribute (inetOrgPerson), when the IdP maps the person's language. */
  preferredLanguage?: string;
}

export type SamlOverrides = Partial<{
  Audience: string;
  SubjectRecipient: string;
  InResponseTo: string;
  ConditionsNotBefore: string;
  ConditionsNotOnOrAfter: string;
  SubjectConfirmationDataNotOnOrAfter: string;
}>;

function keyPair(name: "idp" | "other") {
  const dir = path.join(import.meta.dirname, "saml");
  return {
    privateKey: readFileSync(path.join(dir, `${name}-key.pem`), "utf8"),
    cert: readFileSync(path.join(dir, `${name}-cert.pem`), "utf8"),
  };
}

const xmlEscape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

export function samlIdp(entityId: string, keys: "idp" | "other" = "idp") {
  const { privateKey, cert } = keyPair(keys);
  const ssoUrl = `${entityId}/sso`;
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey,
    signingCert: cert,
    singleSignOnService: [{ Binding: binding.redirect, Location: ssoUrl }],
    singleLogoutService: [{ Binding: binding.redirect, Location: `${entityId}/logout` }],
    nameIDFormat: [emailFormat],
    wantAuthnRequestsSigned: false,
  });
  return {
    entityId,
    ssoUrl,
    /** The PEM a provider's admin pastes. */
    cert,
    /** The IdP's metadata (entity ID, SSO URL, signing certificate), as an admin downloads it. */
    metadata: idp.getMetadata(),
    /** The IdP's answer to the AuthnRequest in `requestUrl`: the base64 SAMLResponse a browser would post. */
    async answer(requestUrl: string, spMetadata: string, person: SamlPerson, overrides: SamlOverrides = {}) {
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      const query = Object.fromEntries(new URL(requestUrl).searchParams);
      const request = await idp.parseLoginRequest(sp, "redirect", { query });
      const asked = (request.extract as { request: { id: string; assertionConsumerServiceUrl?: string } }).request;
      const requestId = String(asked.id);
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const acs = String(asked.assertionConsumerServiceUrl ?? "");
      const attribute = (name: string, values: string[]) =>
        `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
          .map((value) => `<saml:AttributeValue xsi:type="xs:string">${xmlEscape(value)}</saml:AttributeValue>`)
          .join("")}</saml:Attribute>`;
      const values = {
        ID: `_${randomUUID()}`,
        AssertionID: `_${randomUUID()}`,
        Destination: acs,
        Audience: sp.entityMeta.getEntityID(),
        SubjectRecipient: acs,
        Issuer: entityId,
        IssueInstant: now.toISOString(),
        StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: later,
        SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: emailFormat,
        NameID: xmlEscape(person.nameId),
        InResponseTo: requestId,
        AuthnStatement: "{AuthnStatement}",
        AttributeStatement: "{AttributeStatement}",
        ...overrides,
      };
      const statements = {
        AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>${
          person.classRef ?? "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"
        }</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
        AttributeStatement: `<saml:AttributeStatement>${attribute("email", [person.email])}${attribute("displayName", [person.name])}${
          person.groups.length > 0 ? attribute("groups", person.groups) : ""
        }${person.preferredLanguage ? attribute("preferredLanguage", [person.preferredLanguage]) : ""}</saml:AttributeStatement>`,
      };
      const info = request as unknown as Parameters<typeof idp.createLoginResponse>[1];
      const response = (await idp.createLoginResponse(
        sp,
        info,
        "post",
        { email: person.email },
        (template: string) => ({
          id: values.ID,
          // samlify escapes the values it puts in; the statements are XML and go in after.
          context: samlify.SamlLib.replaceTagsByValue(template, values)
            .replace("{AuthnStatement}", statements.AuthnStatement)
            .replace("{AttributeStatement}", statements.AttributeStatement),
        }),
      )) as { context: string };
      return { requestId, samlResponse: response.context };
    },
  };
}

/** The XML of a base64 SAMLResponse, and back: for the tests that tamper with an answer. */
export const decodeSaml = (encoded: string) => Buffer.from(encoded, "base64").toString("utf8");
export const encodeSaml = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
