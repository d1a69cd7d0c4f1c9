/**
 * An identity provider's SAML 2.0 metadata (pasted, or fetched by the caller through the outbound
 * guard) read into what a provider needs: the IdP's entity ID, its single sign-on URL for the
 * HTTP-Redirect binding (the one our AuthnRequest uses) and its signing certificate. Every way a
 * document can fail has its own reason, so that the admin reads what to fix; nothing in it is
 * expanded (no DOCTYPE, no entity) and the certificate is parsed as X.509 before it is kept.
 */
import { X509Certificate } from "node:crypto";
import { XMLParser, XMLValidator } from "fast-xml-parser";

export type SamlMetadataProblem =
  /** Not well-formed XML, a DOCTYPE, or no EntityDescriptor. */
  | "saml_metadata_invalid"
  /** An EntityDescriptor without IDPSSODescriptor (an SP's metadata pasted by mistake) or without entityID. */
  | "saml_metadata_not_idp"
  /** No SingleSignOnService with the HTTP-Redirect binding. */
  | "saml_metadata_no_sso"
  /** No signing certificate, or one that is not X.509, or one that has expired. */
  | "saml_certificate_invalid";

export class SamlMetadataError extends Error {
  override name = "SamlMetadataError";
  readonly problem: SamlMetadataProblem;
  constructor(problem: SamlMetadataProblem, detail: string) {
    super(`${problem}: ${detail}`);
    this.problem = problem;
  }
}

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** PEM. */
  certificate: string;
  certificateValidTo: Date;
}

const redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
export const maxMetadataBytes = 512 * 1024;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) =>
    ["EntityDescriptor", "IDPSSODescriptor", "SingleSignOnService", "KeyDescriptor", "X509Certificate"].includes(name),
});

type Node = Record<string, unknown>;
const node = (value: unknown): Node =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : {};
const list = (value: unknown): Node[] => (Array.isArray(value) ? value.map(node) : value ? [node(value)] : []);
const text = (value: unknown): string =>
  typeof value === "string" ? value : typeof node(value)["#text"] === "string" ? (node(value)["#text"] as string) : "";

/** A certificate as an admin pastes it (PEM, or the bare base64 of metadata) → PEM, checked as X.509. */
export function readCertificate(value: string, now = new Date()): { pem: string; validTo: Date } {
  const body = value
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, "")
    .replace(/\s+/g, "")
    .trim();
  if (!body || !/^[A-Za-z0-9+/]+=*$/.test(body)) throw new SamlMetadataError("saml_certificate_invalid", "not base64");
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch (error) {
    throw new SamlMetadataError("saml_certificate_invalid", (error as Error).message);
  }
  const validTo = new Date(certificate.validTo);
  if (!(validTo.getTime() > now.getTime())) throw new SamlMetadataError("saml_certificate_invalid", "expired");
  return { pem, validTo };
}

/** The IdP's metadata document → entity ID, SSO URL (HTTP-Redirect) and signing certificate. */
export function readIdpMetadata(xml: string, now = new Date()): IdpMetadata {
  if (xml.length > maxMetadataBytes) throw new SamlMetadataError("saml_metadata_invalid", "too large");
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlMetadataError("saml_metadata_invalid", "DOCTYPE or entity");
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true) throw new SamlMetadataError("saml_metadata_invalid", wellFormed.err.msg);
  const root = node(parser.parse(xml));
  // One EntityDescriptor, or an EntitiesDescriptor holding the IdP's (ADFS and some federations).
  const descriptors = [
    ...list(root.EntityDescriptor),
    ...list(root.EntitiesDescriptor).flatMap((group) => list(group.EntityDescriptor)),
  ];
  if (descriptors.length === 0) throw new SamlMetadataError("saml_metadata_invalid", "no EntityDescriptor");
  const idps = descriptors.filter((descriptor) => list(descriptor.IDPSSODescriptor).length > 0);
  if (idps.length !== 1) {
    throw new SamlMetadataError("saml_metadata_not_idp", `${idps.length} identity providers in the document`);
  }
  const descriptor = idps[0]!;
  const entityId = String(descriptor["@entityID"] ?? "").trim();
  if (!entityId || entityId.length > 1024) throw new SamlMetadataError("saml_metadata_not_idp", "no entityID");
  const idp = list(descriptor.IDPSSODescriptor)[0]!;
  const sso = list(idp.SingleSignOnService).find((service) => service["@Binding"] === redirectBinding);
  const ssoUrl = String(sso?.["@Location"] ?? "").trim();
  if (!ssoUrl || !URL.canParse(ssoUrl) || !/^https?:$/.test(new URL(ssoUrl).protocol)) {
    throw new SamlMetadataError("saml_metadata_no_sso", "no HTTP-Redirect SingleSignOnService");
  }
  const keys = list(idp.KeyDescriptor).filter((key) => key["@use"] === undefined || key["@use"] === "signing");
  const encoded = keys
    .flatMap((key) => list(node(key.KeyInfo).X509Data))
    .flatMap((data) => (Array.isArray(data.X509Certificate) ? data.X509Certificate : []).map(text))
    .find((value) => value.trim() !== "");
  if (!encoded) throw new SamlMetadataError("saml_certificate_invalid", "no signing certificate");
  const { pem, validTo } = readCertificate(encoded, now);
  return { entityId, ssoUrl, certificate: pem, certificateValidTo: validTo };
}

/** When a kept certificate stops being valid (null if it no longer parses). */
export function certificateValidTo(pem: string): Date | null {
  try {
    return new Date(new X509Certificate(pem).validTo);
  } catch {
    return null;
  }
}
