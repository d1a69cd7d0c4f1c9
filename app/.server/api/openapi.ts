/**
 * The OpenAPI 3.1 document, generated from the registered operations' zod schemas
 * (z.toJSONSchema, JSON Schema 2020-12 as OpenAPI 3.1 uses): parameters, request bodies,
 * answers, and the error answers every operation can give.
 */
import { z } from "zod";
import { apiErrorSchema } from "./errors.ts";
import type { Operation } from "./registry.ts";

type JsonObject = Record<string, unknown>;

const errorResponses = {
  "401": { name: "Unauthorized", description: "Missing, malformed, unknown, revoked or expired token" },
  "403": { name: "Forbidden", description: "The token's scope does not allow this operation" },
  "404": { name: "NotFound", description: "Nothing here, or outside the token's organisation" },
  "422": { name: "UnprocessableContent", description: "Invalid parameters or body; fieldErrors names each field" },
  "429": { name: "TooManyRequests", description: "Rate limit reached; retry after Retry-After seconds" },
} as const;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonObject;
  return rest;
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function parameters(schema: z.ZodObject | undefined, location: "path" | "query"): JsonObject[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = jsonSchema(field as z.ZodType, "input");
    const { description, ...rest } = fieldSchema;
    return {
      name,
      in: location,
      required: location === "path" || !isOptional(field as z.ZodType),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
    };
  });
}

function operationObject(operation: Operation): JsonObject {
  const responses: JsonObject = {};
  for (const [status, spec] of Object.entries(operation.responses)) {
    const content: JsonObject = {};
    if (spec.schema) content["application/json"] = { schema: jsonSchema(spec.schema, "output") };
    for (const [type, alternative] of Object.entries(spec.alternatives ?? {})) {
      content[type] = { schema: jsonSchema(alternative.schema, "output") };
    }
    responses[status] = {
      description: spec.description,
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  const authenticated = operation.scope !== "public";
  const hasInput = Boolean(operation.params || operation.query || operation.body);
  for (const [status, error] of Object.entries(errorResponses)) {
    if (responses[status]) continue;
    const applies = authenticated || status === "429" || (status === "422" && hasInput);
    if (applies) responses[status] = { $ref: `#/components/responses/${error.name}` };
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...(operation.tags ? { tags: operation.tags } : {}),
    "x-scope": operation.scope,
    security: authenticated ? [{ bearerToken: [] }] : [],
    ...(hasInput && (operation.params || operation.query)
      ? { parameters: [...parameters(operation.params, "path"), ...parameters(operation.query, "query")] }
      : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(operation.body, "input") } },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(operations: readonly Operation[], serverUrl: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    (paths[operation.path] as JsonObject)[operation.method] = operationObject(operation);
  }
  const responses: JsonObject = {};
  for (const error of Object.values(errorResponses)) {
    const content = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
    responses[error.name] =
      error.name === "TooManyRequests"
        ? {
            description: error.description,
            headers: {
              "Retry-After": {
                description: "Seconds to wait before retrying",
                schema: { type: "integer", minimum: 1 },
              },
            },
            content,
          }
        : { description: error.description, content };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Vigía Normativo API",
      version: "1.0.0",
      description:
        "Regulatory documents, taxonomy, webhooks and the audit trail of one organisation. " +
        "Authenticate with `Authorization: Bearer <token>` (tokens are created by admins in the platform, " +
        "scope `read` or `admin`). Errors are JSON `{ statusCode, statusMessage }` in the language of " +
        "Accept-Language (es or en).",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        bearerToken: { type: "http", scheme: "bearer", description: "An API token: vn_ followed by 43 characters" },
      },
      schemas: { Error: jsonSchema(apiErrorSchema, "output") },
      responses,
    },
  };
}
