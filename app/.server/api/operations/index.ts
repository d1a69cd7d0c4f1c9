/**
 * Every API operation module, imported here so the OpenAPI document lists it. Add one line
 * for a new module (documents, taxonomy, webhooks, sources…).
 */
import "./audit.ts";
import "./meta.ts";

export { registeredOperations } from "../registry.ts";
