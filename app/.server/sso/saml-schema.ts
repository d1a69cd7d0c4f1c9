/**
 * samlify's schema validator: the SAML 2.0 protocol and assertion schemas (with XML-DSig and
 * XML-Enc) from @authenio/samlify-node-xmllint, checked by xmllint compiled to WebAssembly
 * (node-xmllint). Our own wrapper only so that a refused document is a rejection carrying
 * xmllint's first error, not a console.error line from the library.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { validateXML } = require("node-xmllint") as {
  validateXML(input: { xml: string; schema: string[] }): { errors: string[] | null };
};
const schema = (file: string) =>
  (require(`@authenio/samlify-node-xmllint/build/schemas/${file}.js`) as { default: string }).default;

// xmllint runs on an in-memory file system where the schemas are file_0.xsd, file_1.xsd, … in
// the order given: their imports are renamed to match.
const assertion = schema("saml-schema-assertion-2.0.xsd")
  .replace("xmldsig-core-schema.xsd", "file_1.xsd")
  .replace("xenc-schema.xsd", "file_2.xsd");
const dsig = schema("xmldsig-core-schema.xsd");
const xenc = schema("xenc-schema.xsd").replace("xmldsig-core-schema.xsd", "file_1.xsd");
const protocol = schema("saml-schema-protocol-2.0.xsd")
  .replace("saml-schema-assertion-2.0.xsd", "file_0.xsd")
  .replace("xmldsig-core-schema.xsd", "file_1.xsd");

export const samlSchemaValidator = {
  validate(xml: string): Promise<string> {
    const result = validateXML({ xml, schema: [assertion, dsig, xenc, protocol] });
    if (!result.errors) return Promise.resolve("SUCCESS_VALIDATE_XML");
    return Promise.reject(new Error(`ERR_SCHEMA: ${String(result.errors[0] ?? "").slice(0, 160)}`));
  },
};
