/** The REST API through the built production server: real HTTP, the server's own headers. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { recordAudit } from "../../app/.server/audit/record.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { issueToken } from "../support/api-tokens.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// The server's AUTH_SECRET: events written here are signed as the server signs them (decision 0084).
const authSecret = "api-http-test-auth-secret-0123456789abcdef";
setAuditSecret(authSecret);

for (const target of databaseTargets()) {
  describe(`REST API over HTTP (${target.name})`, () => {
    let server: RunningServer;
    let database: Database | undefined;
    let token = "";

    beforeAll(async () => {
      const url = await target.create();
      if (url) {
        // PostgreSQL: the test writes a token beside the running server.
        database = await openMigratedDatabase(url);
        token = (await issueToken(database, { organizationId: "org-http", name: "http", scope: "admin" })).token;
        await recordAudit(database.db, {
          organizationId: "org-http",
          actor: null,
          action: "org.created",
          object: null,
        });
      }
      server = await startServer({ env: { AUTH_SECRET: authSecret, ...(url ? { DATABASE_URL: url } : {}) } });
    });
    afterAll(async () => {
      await server?.stop();
      await database?.close();
      await target.cleanup();
    });

    it("serves the OpenAPI document, never cached", async () => {
      const response = await fetch(`${server.url}/api/v1/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const document = (await response.json()) as { openapi: string; servers: { url: string }[] };
      expect(document.openapi).toBe("3.1.0");
      expect(document.servers[0]?.url).toBe(server.url);
    });

    it("answers JSON errors: 401 without a token, 404 for unknown API paths", async () => {
      const unauthorised = await fetch(`${server.url}/api/v1/audit`, { headers: { "accept-language": "en" } });
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.headers.get("cache-control")).toBe("no-store");
      expect(await unauthorised.json()).toEqual({ statusCode: 401, statusMessage: "Missing or invalid access token" });
      for (const path of ["/api/v1/nothing", "/api/v2/audit", "/api/v1/audit/verify/extra"]) {
        const missing = await fetch(`${server.url}${path}`);
        expect(missing.status, path).toBe(404);
        expect(((await missing.json()) as { statusCode: number }).statusCode).toBe(404);
      }
    });

    it.runIf(target.name === "postgres")("answers an admin token with the organisation's chain", async () => {
      const response = await fetch(`${server.url}/api/v1/audit/verify`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ valid: true, events: 1, firstBroken: null, reason: null });
      const list = await fetch(`${server.url}/api/v1/audit`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await list.json()) as { items: { action: string }[] };
      expect(body.items.map((e) => e.action)).toEqual(["org.created"]);
    });
  });
}
