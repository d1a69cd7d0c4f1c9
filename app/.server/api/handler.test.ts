/**
 * The API helper with operations of the kinds other routes will add (path parameters, JSON
 * bodies, 201 and 204 answers, read scope), and the OpenAPI document they produce.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { issueToken } from "../../../tests/support/api-tokens.ts";
import { openMigratedDatabase } from "../../../tests/support/platform-db.ts";
import { type AppServices, requestContext, servicesContext } from "../context.ts";
import type { Database } from "../db/client.ts";
import { createLogger } from "../logger.ts";
import { ApiError } from "./errors.ts";
import { apiRoute, handle } from "./handler.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { createApiRateLimiter } from "./rate-limit.ts";
import { defineOperation, registeredOperations } from "./registry.ts";
import type { ApiServices } from "./service.ts";

const createThing = defineOperation({
  method: "post",
  path: "/api/v1/things/{group}",
  operationId: "createThing",
  summary: "Create a thing",
  scope: "read",
  params: z.object({ group: z.string().regex(/^[a-z]+$/) }),
  body: z.object({ url: z.url(), tags: z.array(z.string().min(1)).max(3).optional() }),
  responses: { 201: { description: "Created", schema: z.object({ id: z.string(), group: z.string() }) } },
});

const deleteThing = defineOperation({
  method: "delete",
  path: "/api/v1/things/{group}",
  operationId: "deleteThing",
  summary: "Delete a thing",
  scope: "read",
  params: z.object({ group: z.string() }),
  responses: { 204: { description: "Deleted" } },
});

let database: Database;
let api: ApiServices;
let token = "";
const logged: unknown[] = [];

const route = apiRoute(
  handle(createThing, ({ params, body, token }) => {
    if (body.url.includes("boom")) throw new Error("secret internals");
    if (body.url.includes("missing")) throw new ApiError(404);
    return { id: `${token.organizationId}:${body.url}`, group: params.group };
  }),
  handle(deleteThing, () => undefined),
);

function call(method: string, group: string, init: { body?: string; type?: string; auth?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (init.auth !== false) headers.authorization = `Bearer ${token}`;
  if (init.type !== undefined || init.body !== undefined) headers["content-type"] = init.type ?? "application/json";
  const request = new Request(`http://127.0.0.1/api/v1/things/${group}`, {
    method,
    headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const context = new RouterContextProvider();
  const log = createLogger("silent");
  context.set(servicesContext, { api } as unknown as AppServices);
  context.set(requestContext, {
    requestId: "r1",
    nonce: "test-nonce",
    clientIp: "192.0.2.1",
    secure: false,
    log: { ...log, error: (...args: unknown[]) => logged.push(args) } as unknown as typeof log,
  });
  return route.action({ request, context, params: { group } });
}

beforeAll(async () => {
  database = await openMigratedDatabase();
  api = {
    database,
    limiter: await createApiRateLimiter(100),
    siteUrl: "http://127.0.0.1",
    outbound: { allowPrivateUrls: false, maxWebhooksPerOrganization: 25 },
    maxFollowsPerOrganization: 200,
    ingesting: true,
  };
  token = (await issueToken(database, { organizationId: "org-h", scope: "read" })).token;
});
afterAll(async () => {
  await database?.close();
});

describe("apiRoute", () => {
  it("parses params and body, and answers with the operation's status", async () => {
    const created = await call("POST", "alpha", { body: JSON.stringify({ url: "https://example.com/a" }) });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(await created.json()).toEqual({ id: "org-h:https://example.com/a", group: "alpha" });
    const deleted = await call("DELETE", "alpha");
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
  });

  it("answers 400, 413, 415 and 422 for bad bodies and parameters", async () => {
    expect((await call("POST", "alpha", { body: "{nope" })).status).toBe(400);
    expect((await call("POST", "alpha", { body: "url=x", type: "application/x-www-form-urlencoded" })).status).toBe(
      415,
    );
    expect((await call("POST", "alpha", { body: JSON.stringify({ url: "x".repeat(70_000) }) })).status).toBe(413);
    const invalid = await call("POST", "Alpha1", { body: JSON.stringify({ url: "not a url", tags: ["", "b"] }) });
    expect(invalid.status).toBe(422);
    const body = (await invalid.json()) as { statusCode: number; fieldErrors: Record<string, string[]> };
    expect(body.statusCode).toBe(422);
    // Path parameters fail first: the body is not read when the path is wrong.
    expect(Object.keys(body.fieldErrors)).toEqual(["group"]);
    const badBody = await call("POST", "alpha", { body: JSON.stringify({ url: "not a url", tags: ["", "b"] }) });
    expect(Object.keys(((await badBody.json()) as typeof body).fieldErrors).sort()).toEqual(["tags.0", "url"]);
  });

  it("answers expected failures as thrown and hides unexpected ones behind a logged 500", async () => {
    expect((await call("POST", "alpha", { body: JSON.stringify({ url: "https://missing.example" }) })).status).toBe(
      404,
    );
    const failed = await call("POST", "alpha", { body: JSON.stringify({ url: "https://boom.example" }) });
    expect(failed.status).toBe(500);
    const text = await failed.text();
    expect(text).not.toContain("secret internals");
    expect(JSON.parse(text)).toEqual({ statusCode: 500, statusMessage: "Error interno del servidor" });
    expect(logged).toHaveLength(1);
  });

  it("asks for a token before anything else", async () => {
    const response = await call("POST", "alpha", { body: "{nope", auth: false });
    expect(response.status).toBe(401);
  });
});

describe("the OpenAPI document of such operations", () => {
  it("is valid OpenAPI 3.1 with path parameters, the request body and empty answers", async () => {
    const document = buildOpenApiDocument(registeredOperations(), "http://127.0.0.1") as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    const post = document.paths["/api/v1/things/{group}"]?.post;
    expect(post?.parameters).toEqual([
      { name: "group", in: "path", required: true, schema: { type: "string", pattern: "^[a-z]+$" } },
    ]);
    expect(post?.requestBody).toMatchObject({ required: true, content: { "application/json": { schema: {} } } });
    const responses = post?.responses as Record<string, unknown>;
    expect(Object.keys(responses).sort()).toEqual(["201", "401", "403", "404", "422", "429"]);
    const del = document.paths["/api/v1/things/{group}"]?.delete?.responses as Record<string, { content?: unknown }>;
    expect(del["204"]).toEqual({ description: "Deleted" });
  });

  it("refuses an operation without a 2xx answer or outside /api/v1", () => {
    expect(() =>
      defineOperation({
        method: "get",
        path: "/api/v1/x",
        operationId: "x",
        summary: "x",
        scope: "read",
        responses: {},
      }),
    ).toThrow(/2xx/);
    expect(() =>
      defineOperation({
        method: "get",
        path: "/x",
        operationId: "y",
        summary: "x",
        scope: "read",
        responses: { 200: { description: "ok" } },
      }),
    ).toThrow(/api\/v1/);
  });
});
