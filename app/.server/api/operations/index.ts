/**
 * Every API operation module, imported here so the OpenAPI document lists it. Add one line
 * for a new module (documents, taxonomy, webhooks, sources…).
 */
import "./audit.ts";
import "./corrections.ts";
import "./documents.ts";
import "./evidence.ts";
import "./laws.ts";
import "./law-catalogue.ts";
import "./law-compare.ts";
import "./meta.ts";
import "./saved-searches.ts";
import "./sources.ts";
import "./taxonomy.ts";
import "./triage.ts";
import "./webhooks.ts";

export { registeredOperations } from "../registry.ts";
