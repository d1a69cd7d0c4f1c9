/**
 * SCIM 2.0 over HTTP (RFC 7644) for /scim/v2: bearer token, Users and Groups (GET, POST, PUT,
 * PATCH, DELETE), the `eq` filters IdPs use to find a resource, SCIM's JSON shapes and errors.
 * Entra ID's habits are understood too (PATCH without a path, "False" as a string).
 */

import { ScimError, type ScimGroup, type ScimUser, type ScimUserInput } from "../auth/flows/scim.ts";
import type { AuthService } from "../auth/service.ts";
import type { RequestMeta } from "../auth/types.ts";

const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
const listSchema = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";
const patchSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const maxBody = 256 * 1024;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
function bool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  return undefined;
}

function reply(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/scim+json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function failure(status: number, detail: string, scimType?: string): Response {
  return reply(status, { schemas: [errorSchema], status: String(status), detail, ...(scimType ? { scimType } : {}) });
}

function userOut(base: string, found: ScimUser) {
  return {
    schemas: [userSchema],
    id: found.id,
    ...(found.externalId ? { externalId: found.externalId } : {}),
    userName: found.userName,
    displayName: found.displayName,
    name: { formatted: found.displayName },
    emails: [{ value: found.userName, type: "work", primary: true }],
    active: found.active,
    meta: { resourceType: "User", location: `${base}/Users/${found.id}` },
  };
}

function groupOut(base: string, found: ScimGroup) {
  return {
    schemas: [groupSchema],
    id: found.id,
    ...(found.externalId ? { externalId: found.externalId } : {}),
    displayName: found.displayName,
    members: found.members.map((m) => ({ value: m.value, display: m.display, $ref: `${base}/Users/${m.value}` })),
    meta: { resourceType: "Group", location: `${base}/Groups/${found.id}` },
  };
}

function list<T>(items: T[]) {
  return {
    schemas: [listSchema],
    totalResults: items.length,
    startIndex: 1,
    itemsPerPage: items.length,
    Resources: items,
  };
}

function userInput(body: Json): Partial<ScimUserInput> {
  const name = obj(body.name);
  const joined = [str(name.givenName), str(name.familyName)].filter(Boolean).join(" ");
  return {
    ...(str(body.userName) ? { userName: str(body.userName) } : {}),
    displayName: str(body.displayName) ?? str(name.formatted) ?? (joined || undefined),
    active: bool(body.active),
    externalId: str(body.externalId),
  };
}

/** A PATCH on a user: the attributes it sets, with or without `path`. */
function userPatch(operations: Json[]): Partial<ScimUserInput> {
  const change: Partial<ScimUserInput> = {};
  for (const operation of operations) {
    const path = str(operation.path)?.toLowerCase();
    const value = operation.value;
    if (!path)
      Object.assign(
        change,
        Object.fromEntries(Object.entries(userInput(obj(value))).filter(([, v]) => v !== undefined)),
      );
    else if (path === "active") change.active = bool(value);
    else if (path === "displayname" || path === "name.formatted") change.displayName = str(value);
    else if (path === "externalid") change.externalId = str(value);
  }
  return change;
}

const memberIds = (value: unknown) =>
  Array.isArray(value) ? value.map((m) => str(obj(m).value)).filter((v): v is string => !!v) : [];

function groupPatch(operations: Json[]) {
  const members: { mode: "add" | "remove" | "replace"; ids: string[] }[] = [];
  let displayName: string | undefined;
  let externalId: string | undefined;
  for (const operation of operations) {
    const op = (str(operation.op) ?? "").toLowerCase();
    const path = str(operation.path) ?? "";
    const filtered = /^members\[value eq "([^"]+)"\]$/i.exec(path);
    if (filtered?.[1] && op === "remove") members.push({ mode: "remove", ids: [filtered[1]] });
    else if (path.toLowerCase() === "members" && (op === "add" || op === "remove" || op === "replace")) {
      members.push({ mode: op, ids: memberIds(operation.value) });
    } else if (path.toLowerCase() === "displayname") displayName = str(operation.value);
    else if (path.toLowerCase() === "externalid") externalId = str(operation.value);
    else if (!path && op !== "remove") {
      const value = obj(operation.value);
      displayName = str(value.displayName) ?? displayName;
      if (Array.isArray(value.members))
        members.push({ mode: op === "add" ? "add" : "replace", ids: memberIds(value.members) });
    }
  }
  return { displayName, externalId, members };
}

/** `attribute eq "value"` (the one filter IdPs send before creating). */
function eqFilter(url: URL, attribute: string): string | undefined | null {
  const filter = url.searchParams.get("filter");
  if (!filter) return undefined;
  const match = new RegExp(`^\\s*${attribute}\\s+eq\\s+"((?:[^"\\\\]|\\\\.)*)"\\s*$`, "i").exec(filter);
  return match?.[1] ? match[1].replace(/\\(.)/g, "$1") : null;
}

async function readBody(request: Request): Promise<Json> {
  const text = await request.text();
  if (text.length > maxBody) throw new ScimError(413, "body too large");
  try {
    return obj(JSON.parse(text));
  } catch {
    throw new ScimError(400, "body is not JSON", "invalidSyntax");
  }
}

export async function scimRespond(
  auth: AuthService,
  request: Request,
  meta: RequestMeta,
  resource: string,
  id: string | undefined,
): Promise<Response> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  const caller = bearer ? await auth.scimCaller(bearer, meta) : null;
  if (!caller) return failure(401, "a valid SCIM bearer token is required");
  const url = new URL(request.url);
  const base = `${url.origin}/scim/v2`;
  const method = request.method.toUpperCase();
  try {
    if (resource === "ServiceProviderConfig" && method === "GET") {
      return reply(200, {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
        patch: { supported: true },
        bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
        filter: { supported: true, maxResults: 1000 },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: false },
        authenticationSchemes: [
          { type: "oauthbearertoken", name: "Bearer token", description: "Per organisation, shown once" },
        ],
      });
    }
    if (resource === "Users") {
      if (!id && method === "GET") {
        const userName = eqFilter(url, "userName");
        if (userName === null) return failure(400, "only userName eq filters are supported", "invalidFilter");
        return reply(200, list((await auth.scimListUsers(caller, userName)).map((u) => userOut(base, u))));
      }
      if (!id && method === "POST") {
        const input = userInput(await readBody(request));
        if (!input.userName) return failure(400, "userName is required", "invalidValue");
        return reply(201, userOut(base, await auth.scimCreateUser(caller, { ...input, userName: input.userName })));
      }
      if (id && method === "GET") {
        const found = await auth.scimGetUser(caller, id);
        return found ? reply(200, userOut(base, found)) : failure(404, "no such user");
      }
      if (id && method === "PUT")
        return reply(200, userOut(base, await auth.scimUpdateUser(caller, id, userInput(await readBody(request)))));
      if (id && method === "PATCH") {
        const body = await readBody(request);
        if (!Array.isArray(body.Operations)) return failure(400, `a ${patchSchema} body is required`, "invalidSyntax");
        return reply(200, userOut(base, await auth.scimUpdateUser(caller, id, userPatch(body.Operations.map(obj)))));
      }
      if (id && method === "DELETE") {
        await auth.scimDeleteUser(caller, id);
        return reply(204);
      }
    }
    if (resource === "Groups") {
      if (!id && method === "GET") {
        const displayName = eqFilter(url, "displayName");
        if (displayName === null) return failure(400, "only displayName eq filters are supported", "invalidFilter");
        return reply(200, list((await auth.scimListGroups(caller, displayName)).map((g) => groupOut(base, g))));
      }
      if (!id && method === "POST") {
        const body = await readBody(request);
        const created = await auth.scimCreateGroup(caller, {
          displayName: str(body.displayName) ?? "",
          members: memberIds(body.members),
          ...(str(body.externalId) ? { externalId: str(body.externalId) as string } : {}),
        });
        return reply(201, groupOut(base, created));
      }
      if (id && method === "GET") {
        const found = await auth.scimGetGroup(caller, id);
        return found ? reply(200, groupOut(base, found)) : failure(404, "no such group");
      }
      if (id && method === "PUT") {
        const body = await readBody(request);
        const updated = await auth.scimUpdateGroup(caller, id, {
          displayName: str(body.displayName),
          externalId: str(body.externalId),
          members: [{ mode: "replace", ids: memberIds(body.members) }],
        });
        return reply(200, groupOut(base, updated));
      }
      if (id && method === "PATCH") {
        const body = await readBody(request);
        if (!Array.isArray(body.Operations)) return failure(400, `a ${patchSchema} body is required`, "invalidSyntax");
        return reply(200, groupOut(base, await auth.scimUpdateGroup(caller, id, groupPatch(body.Operations.map(obj)))));
      }
      if (id && method === "DELETE") {
        await auth.scimDeleteGroup(caller, id);
        return reply(204);
      }
    }
    return failure(404, "no such endpoint");
  } catch (error) {
    if (error instanceof ScimError) return failure(error.status, error.message, error.scimType);
    throw error;
  }
}
