import { readFileSync } from "node:fs";
import path from "node:path";
import * as samlify from "samlify";
import { describe, expect, it } from "vitest";
import { readCertificate, readIdpMetadata } from "./saml-metadata.ts";

const certPem = readFileSync(path.join(import.meta.dirname, "../../../tests/support/saml/idp-cert.pem"), "utf8");
const certBase64 = certPem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, "");
const redirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const post = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/** IdP metadata as Keycloak, Entra ID and Okta write it (prefixes vary; the reader ignores them). */
function metadata(
  options: {
    entityId?: string;
    bindings?: string[];
    cert?: string | null;
    use?: string;
    descriptor?: "IDPSSODescriptor" | "SPSSODescriptor";
  } = {},
) {
  const { entityId = "https://idp.example/realms/banco", bindings = [post, redirect], cert = certBase64 } = options;
  const descriptor = options.descriptor ?? "IDPSSODescriptor";
  const key =
    cert === null
      ? ""
      : `<md:KeyDescriptor${options.use ? ` use="${options.use}"` : ""}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:${descriptor} protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${key}
    ${bindings.map((binding) => `<md:SingleSignOnService Binding="${binding}" Location="https://idp.example/sso/${binding.endsWith("Redirect") ? "redirect" : "post"}"/>`).join("\n    ")}
  </md:${descriptor}>
</md:EntityDescriptor>`;
}

const problem = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { problem?: string }).problem ?? String(error);
  }
  return "read";
};

describe("an IdP's SAML metadata", () => {
  it("gives the entity ID, the HTTP-Redirect sign-in URL and the signing certificate", () => {
    const read = readIdpMetadata(metadata({ use: "signing" }));
    expect(read.entityId).toBe("https://idp.example/realms/banco");
    expect(read.ssoUrl).toBe("https://idp.example/sso/redirect");
    expect(read.certificate.replace(/\s/g, "")).toBe(certPem.replace(/\s/g, ""));
    expect(read.certificateValidTo.getUTCFullYear()).toBe(2126);
  });

  it("reads samlify's own IdP metadata and an EntitiesDescriptor around one IdP", () => {
    const generated = samlify
      .IdentityProvider({
        entityID: "https://sts.windows.net/tenant/",
        signingCert: certPem,
        singleSignOnService: [{ Binding: redirect, Location: "https://login.example/saml2" }],
        singleLogoutService: [{ Binding: redirect, Location: "https://login.example/saml2/logout" }],
      })
      .getMetadata();
    expect(readIdpMetadata(generated)).toMatchObject({
      entityId: "https://sts.windows.net/tenant/",
      ssoUrl: "https://login.example/saml2",
    });
    const wrapped = `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${metadata().replace(/<\?xml[^>]*>/, "")}</EntitiesDescriptor>`;
    expect(readIdpMetadata(wrapped).entityId).toBe("https://idp.example/realms/banco");
  });

  it("says what is wrong with each broken document", () => {
    expect(problem(() => readIdpMetadata("not xml <"))).toBe("saml_metadata_invalid");
    expect(problem(() => readIdpMetadata(`<!DOCTYPE x [<!ENTITY e "y">]>${metadata()}`))).toBe("saml_metadata_invalid");
    expect(problem(() => readIdpMetadata("<html><body>Sign in</body></html>"))).toBe("saml_metadata_invalid");
    expect(problem(() => readIdpMetadata(metadata({ descriptor: "SPSSODescriptor" })))).toBe("saml_metadata_not_idp");
    expect(problem(() => readIdpMetadata(metadata({ entityId: "" })))).toBe("saml_metadata_not_idp");
    expect(problem(() => readIdpMetadata(metadata({ bindings: [post] })))).toBe("saml_metadata_no_sso");
    expect(problem(() => readIdpMetadata(metadata({ cert: null })))).toBe("saml_certificate_invalid");
    expect(problem(() => readIdpMetadata(metadata({ use: "encryption" })))).toBe("saml_certificate_invalid");
    expect(problem(() => readIdpMetadata(metadata({ cert: "bm90IGEgY2VydGlmaWNhdGU=" })))).toBe(
      "saml_certificate_invalid",
    );
    // The test certificate runs to 2126: read in 2127 it has expired.
    expect(problem(() => readIdpMetadata(metadata(), new Date("2127-01-01")))).toBe("saml_certificate_invalid");
  });

  it("takes a pasted certificate as PEM or bare base64, and refuses anything else", () => {
    expect(readCertificate(certPem).pem.replace(/\s/g, "")).toBe(certPem.replace(/\s/g, ""));
    expect(readCertificate(certBase64).pem).toBe(readCertificate(certPem).pem);
    expect(problem(() => readCertificate(""))).toBe("saml_certificate_invalid");
    expect(problem(() => readCertificate("-----BEGIN CERTIFICATE-----\nabc$\n-----END CERTIFICATE-----"))).toBe(
      "saml_certificate_invalid",
    );
  });
});
