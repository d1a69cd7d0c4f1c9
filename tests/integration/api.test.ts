/**
 * The REST API skeleton against PGlite and PostgreSQL: bearer auth, scopes, rate limit,
 * organisation isolation, errors, and every answer checked against the served OpenAPI document.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, revokeApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { recordAudit } from "../../app/.server/audit/record.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { codeSample } from "../../app/.server/home-content.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

const admin = { id: "user-admin-a", email: "admin@a.example" };

for (const target of databaseTargets()) {
  describe(`REST API on ${target.name}`, () => {
    let database: Database;
    let api: Awaited<ReturnType<typeof apiServicesFor>>;
    let document: Record<string, unknown>;
    let checker: ReturnType<typeof openApiChecker>;
    const tokens = { adminA: "", readA: "", adminB: "" };
    const idsA: string[] = [];
    const idsB: string[] = [];

    beforeAll(async () => {
      database = await openMigratedDatabase(await target.create());
      api = await apiServicesFor(database);
      // Token creators are admins of the token's organisation (a token works only while they are).
      await ensureMember(database, { organizationId: "org-a", userId: admin.id, email: admin.email });
      await ensureMember(database, { organizationId: "org-b", userId: admin.id, email: admin.email });
      await ensureMember(database, { organizationId: "org-b", userId: "u-b" });
      tokens.adminA = (
        await createApiToken(database.db, {
          organizationId: "org-a",
          name: "a admin",
          scope: "admin",
          createdBy: admin.id,
        })
      ).token;
      tokens.readA = (
        await createApiToken(database.db, {
          organizationId: "org-a",
          name: "a read",
          scope: "read",
          createdBy: admin.id,
        })
      ).token;
      tokens.adminB = (
        await createApiToken(database.db, {
          organizationId: "org-b",
          name: "b admin",
          scope: "admin",
          createdBy: "u-b",
        })
      ).token;
      for (let i = 0; i < 5; i++) {
        idsA.push(
          (
            await recordAudit(database.db, {
              organizationId: "org-a",
              actor: admin,
              action: i === 2 ? "member.invited" : "auth.sign_in",
              object: { type: "user", id: `ua${i}` },
              ip: "203.0.113.1",
              userAgent: i === 3 ? "=cmd|' /C calc'!A0" : "Firefox",
              at: new Date(Date.UTC(2026, 10, 20 + i, 9)),
            })
          ).id,
        );
        idsB.push(
          (
            await recordAudit(database.db, {
              organizationId: "org-b",
              actor: { id: "u-b", email: "b@b.example" },
              action: "auth.sign_in",
              object: null,
            })
          ).id,
        );
      }
      const response = await callApi(api, "/api/v1/openapi.json");
      document = (await response.json()) as Record<string, unknown>;
      checker = openApiChecker(document);
    });
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("serves a valid OpenAPI 3.1 document that lists every operation with its errors", async () => {
      const result = await new Validator().validate(document);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(document.openapi).toBe("3.1.0");
      const paths = document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
      expect(Object.keys(paths).sort()).toEqual([
        "/api/v1/audit",
        "/api/v1/audit/verify",
        "/api/v1/corrections",
        "/api/v1/documents",
        "/api/v1/documents/{id}",
        "/api/v1/documents/{id}/corrections",
        "/api/v1/documents/{id}/obligations",
        "/api/v1/documents/{id}/triage",
        "/api/v1/evidence",
        "/api/v1/follows",
        "/api/v1/follows/{id}",
        "/api/v1/laws",
        "/api/v1/laws/catalogue",
        "/api/v1/laws/{id}",
        "/api/v1/laws/{id}/blocks/{blockId}/versions",
        "/api/v1/laws/{id}/compare",
        "/api/v1/laws/{id}/obligations",
        "/api/v1/laws/{id}/text",
        "/api/v1/obligations",
        "/api/v1/obligations/{id}",
        "/api/v1/obligations/{id}/review",
        "/api/v1/openapi.json",
        "/api/v1/saved-searches",
        "/api/v1/saved-searches/{id}",
        "/api/v1/sources",
        "/api/v1/sources/{id}/run",
        "/api/v1/taxonomy",
        "/api/v1/triage",
        "/api/v1/webhooks",
        "/api/v1/webhooks/{id}",
        "/api/v1/webhooks/{id}/deliveries",
      ]);
      for (const path of ["/api/v1/audit", "/api/v1/audit/verify"]) {
        expect(Object.keys(paths[path]?.get?.responses ?? {}).sort()).toEqual([
          "200",
          "401",
          "403",
          "404",
          "422",
          "429",
        ]);
      }
      const listing = paths["/api/v1/audit"]?.get as unknown as { parameters?: { name: string }[] } | undefined;
      expect((listing?.parameters ?? []).map((p) => p.name)).toEqual(
        expect.arrayContaining(["from", "to", "actor", "action", "format"]),
      );
      expect(checker.check("/api/v1/openapi.json", "get", 200, document)).toEqual([]);
    });

    it("answers 401 without a token or with a bad one, in the request's language", async () => {
      for (const token of [undefined, "nonsense", `vn_${"A".repeat(43)}`]) {
        const response = await callApi(api, "/api/v1/audit", { token });
        expect(response.status).toBe(401);
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
        const body = await response.json();
        expect(body).toEqual({ statusCode: 401, statusMessage: "Falta el token de acceso o no es válido" });
        expect(checker.check("/api/v1/audit", "get", 401, body)).toEqual([]);
      }
      const english = await callApi(api, "/api/v1/audit/verify", { headers: { "accept-language": "en-GB,en;q=0.9" } });
      expect(await english.json()).toEqual({ statusCode: 401, statusMessage: "Missing or invalid access token" });
    });

    it("answers 403 to a read token on admin routes", async () => {
      for (const path of ["/api/v1/audit", "/api/v1/audit/verify"]) {
        const response = await callApi(api, path, { token: tokens.readA });
        expect(response.status).toBe(403);
        const body = await response.json();
        expect(body.statusCode).toBe(403);
        expect(checker.check(path, "get", 403, body)).toEqual([]);
      }
    });

    it("lists only the token's organisation's events, paginated, matching the schema", async () => {
      const response = await callApi(api, "/api/v1/audit?limit=2&to=2026-11-24", { token: tokens.adminA });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const page = (await response.json()) as { items: { id: string }[]; nextCursor: string | null };
      expect(checker.check("/api/v1/audit", "get", 200, page)).toEqual([]);
      expect(page.items.map((e) => e.id)).toEqual([idsA[4], idsA[3]]);
      const seen = [...page.items.map((e) => e.id)];
      let cursor = page.nextCursor;
      while (cursor) {
        const next = await callApi(api, `/api/v1/audit?limit=2&to=2026-11-24&cursor=${cursor}`, {
          token: tokens.adminA,
        });
        const body = (await next.json()) as typeof page;
        seen.push(...body.items.map((e) => e.id));
        cursor = body.nextCursor;
      }
      expect(seen).toEqual([...idsA].reverse());
      for (const id of idsB) expect(seen).not.toContain(id);

      const filtered = await callApi(api, "/api/v1/audit?action=member.invited&actor=ADMIN@a.example", {
        token: tokens.adminA,
      });
      expect(((await filtered.json()) as typeof page).items.map((e) => e.id)).toEqual([idsA[2]]);

      const b = await callApi(api, "/api/v1/audit?action=auth.sign_in&limit=100", { token: tokens.adminB });
      const bIds = ((await b.json()) as typeof page).items.map((e) => e.id);
      expect(bIds.sort()).toEqual([...idsB].sort());
      for (const id of idsA) expect(bIds).not.toContain(id);
    });

    it("exports formula-safe CSV and records each export", async () => {
      const response = await callApi(api, "/api/v1/audit?format=csv&action=auth.sign_in", { token: tokens.adminA });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-/);
      const csv = await response.text();
      expect(checker.check("/api/v1/audit", "get", 200, csv, "text/csv")).toEqual([]);
      const lines = csv.trimEnd().split("\r\n");
      expect(lines[0]).toMatch(/^id,at,actor_id,actor_email,action/);
      expect(lines).toHaveLength(1 + 4);
      expect(csv).toContain(`'=cmd|' /C calc'!A0`);
      expect(csv).not.toMatch(/,=cmd/);
      const exported = await listAuditEvents(database.db, "org-a", { action: "audit.exported" });
      expect(exported.items[0]?.detail).toMatchObject({ format: "csv", events: 4, via: "api_token" });
      // The token's creator is the actor, as for every other API read and write (issue 37).
      expect(exported.items[0]?.actor).toEqual(admin);
      // org-b's only export is its JSON listing above: nothing of org-a's export lands there.
      const exportedB = await listAuditEvents(database.db, "org-b", { action: "audit.exported" });
      expect(exportedB.items.map((e) => e.detail?.format)).toEqual(["json"]);
    });

    it("serves the taxonomy to any token, as the contract shapes it", async () => {
      expect((await callApi(api, "/api/v1/taxonomy")).status).toBe(401);
      const response = await callApi(api, "/api/v1/taxonomy", { token: tokens.readA });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { areas: { id: string; name: { es: string; en: string } }[] };
      expect(checker.check("/api/v1/taxonomy", "get", 200, body)).toEqual([]);
      expect(body.areas).toHaveLength(21);
      expect(body.areas.find((area) => area.id === "aml")?.name).toEqual({
        es: "Prevención del blanqueo",
        en: "Anti-money laundering",
      });
    });

    it.each(["es", "en"] as const)(
      "accepts the home page's webhook sample (%s) as written, then lists and deletes it",
      async (lang) => {
        // The command the page shows (app/.server/home-content.ts renders exactly this text).
        const sample = codeSample(lang, "http://127.0.0.1:3000");
        const url = /curl -X POST (\S+)/.exec(sample)?.[1] ?? "";
        const body = /-d '([\s\S]*?)'/.exec(sample)?.[1] ?? "";
        expect(new URL(url).pathname).toBe("/api/v1/webhooks");
        const created = await callApi(api, new URL(url).pathname, {
          method: "POST",
          token: tokens.adminA,
          headers: { "content-type": "application/json" },
          body,
        });
        expect(created.status).toBe(201);
        const webhook = (await created.json()) as { id: string; secret: string; areas: string[] };
        expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
        expect(webhook.areas).toEqual(["banking", "aml"]);
        expect(checker.check("/api/v1/webhooks", "post", 201, webhook)).toEqual([]);
        const listed = (await (await callApi(api, "/api/v1/webhooks", { token: tokens.adminA })).json()) as {
          id: string;
        }[];
        expect(listed.map((item) => item.id)).toContain(webhook.id);
        // Another organisation neither sees nor deletes it.
        const other = (await (await callApi(api, "/api/v1/webhooks", { token: tokens.adminB })).json()) as {
          id: string;
        }[];
        expect(other.map((item) => item.id)).not.toContain(webhook.id);
        expect(
          (await callApi(api, `/api/v1/webhooks/${webhook.id}`, { method: "DELETE", token: tokens.adminB })).status,
        ).toBe(404);
        expect(
          (await callApi(api, `/api/v1/webhooks/${webhook.id}`, { method: "DELETE", token: tokens.adminA })).status,
        ).toBe(204);
      },
    );

    it("refuses unknown taxonomy ids and bad URLs with field errors", async () => {
      const response = await callApi(api, "/api/v1/webhooks", {
        method: "POST",
        token: tokens.adminA,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: "ftp://example.com", areas: ["compliance"], countries: ["ES"] }),
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { fieldErrors: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors)).toEqual(expect.arrayContaining(["url", "areas.0"]));
    });

    it("verifies the token's organisation's chain", async () => {
      const response = await callApi(api, "/api/v1/audit/verify", { token: tokens.adminB });
      const body = await response.json();
      expect(response.status).toBe(200);
      // Five sign-ins and the audit.exported event of its JSON listing.
      expect(body).toEqual({ valid: true, events: idsB.length + 1, firstBroken: null, reason: null });
      expect(checker.check("/api/v1/audit/verify", "get", 200, body)).toEqual([]);
    });

    it("answers 422 with field errors for bad parameters", async () => {
      const response = await callApi(api, "/api/v1/audit?from=yesterday&limit=0&format=xml", {
        token: tokens.adminA,
        headers: { "accept-language": "en" },
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { fieldErrors: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors).sort()).toEqual(["format", "from", "limit"]);
      expect(checker.check("/api/v1/audit", "get", 422, body)).toEqual([]);
      const cursor = await callApi(api, "/api/v1/audit?cursor=bm9wZQ", { token: tokens.adminA });
      expect(cursor.status).toBe(422);
      expect(await cursor.json()).toMatchObject({ fieldErrors: { cursor: ["Cursor no válido"] } });
    });

    it("answers 404 and 405 as JSON", async () => {
      const missing = await callApi(api, "/api/v1/nothing-here", { token: tokens.adminA });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ statusCode: 404, statusMessage: "No encontrado" });
      const post = await callApi(api, "/api/v1/audit", { token: tokens.adminA, method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET");
    });

    it("refuses a revoked token", async () => {
      const { id, token } = await createApiToken(database.db, {
        organizationId: "org-a",
        name: "soon revoked",
        scope: "admin",
        createdBy: admin.id,
      });
      expect((await callApi(api, "/api/v1/audit/verify", { token })).status).toBe(200);
      await revokeApiToken(database.db, "org-a", id);
      expect((await callApi(api, "/api/v1/audit/verify", { token })).status).toBe(401);
    });

    it("answers 429 with Retry-After past the per-token limit", async () => {
      const limited = await apiServicesFor(database, 3);
      const { token } = await createApiToken(database.db, {
        organizationId: "org-a",
        name: "busy",
        scope: "admin",
        createdBy: admin.id,
      });
      for (let i = 0; i < 3; i++) expect((await callApi(limited, "/api/v1/audit/verify", { token })).status).toBe(200);
      const refused = await callApi(limited, "/api/v1/audit/verify", { token });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const body = await refused.json();
      expect(body.statusCode).toBe(429);
      expect(checker.check("/api/v1/audit/verify", "get", 429, body)).toEqual([]);
      // Another token has its own budget (a fresh one: with PostgreSQL the counters are shared
      // with the other tests' limiter, which already spent some of tokens.adminB's).
      const other = await createApiToken(database.db, {
        organizationId: "org-b",
        name: "other",
        scope: "admin",
        createdBy: admin.id,
      });
      expect((await callApi(limited, "/api/v1/audit/verify", { token: other.token })).status).toBe(200);
    });
  });
}
