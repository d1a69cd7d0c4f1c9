/** The served OpenAPI document: every registered operation, built once per server URL. */
import { buildOpenApiDocument } from "./openapi.ts";
import { registeredOperations } from "./operations/index.ts";

const built = new Map<string, Record<string, unknown>>();

export function openApiDocument(siteUrl: string): Record<string, unknown> {
  let document = built.get(siteUrl);
  if (!document) {
    document = buildOpenApiDocument(registeredOperations(), siteUrl);
    built.set(siteUrl, document);
  }
  return document;
}
