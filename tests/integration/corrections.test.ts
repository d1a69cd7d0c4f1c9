/**
 * Corrections that teach (issue 23), over the API on PGlite and PostgreSQL: a member's token
 * adds a missing area and removes a wrong one; the organisation sees its corrected areas (the
 * document, search filter and facets), a profile of its own for the added area gets the alert
 * once, another organisation keeps the original labels and gets nothing; every correction is
 * audited; admins export them (JSON, CSV); answers checked against the OpenAPI document.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import type { AlertsService } from "../../app/.server/alerts/service.ts";
import { createApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { user } from "../../app/.server/db/schema/auth.ts";
import { alertMatches, alertProfiles, deliveries } from "../../app/.server/db/schema.ts";
import { searchDocuments } from "../../app/.server/documents/search.ts";
import { storeDocument } from "../../app/.server/documents/store.ts";
import type { SourceDocument } from "../../app/.server/documents/types.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

const source: SourceDocument = {
  source: "boe",
  sourceId: "BOE-A-2026-900",
  language: "es",
  title: "Orden sobre el seguro de crédito a la exportación por cuenta del Estado",
  titles: { es: "Orden sobre el seguro de crédito a la exportación por cuenta del Estado" },
  publishedOn: "2026-10-01",
  effectiveDates: [],
  officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2026-900",
  links: {},
  subjects: [],
  alerts: [],
  eurovoc: [],
  directoryCodes: [],
  notes: [],
  relations: [],
  paragraphs: [{ kind: "paragraph", text: "Se regula la cobertura del seguro de crédito a la exportación." }],
  provenance: [
    {
      url: "https://www.boe.es/diario_boe/xml.php?id=BOE-A-2026-900",
      fetchedAt: "2026-10-01T08:00:00.000Z",
      sha256: "b".repeat(64),
      parser: "boe-document@1",
    },
  ],
};

for (const target of databaseTargets()) {
  describe(`area corrections on ${target.name}`, () => {
    let database: Database;
    let api: Awaited<ReturnType<typeof apiServicesFor>>;
    let checker: ReturnType<typeof openApiChecker>;
    let documentId = "";
    const profiles = { a: "", b: "" };
    const tokens = { readA: "", adminA: "", readB: "" };
    const alerts = {
      async queueMatch(id: string) {
        await matchDocument(database, id, {
          loadDocument: databaseDocuments(database),
          directory: databaseDirectory(database),
        });
      },
    } as unknown as AlertsService;

    const call = async (path: string, token: string, init: { method?: string; body?: unknown } = {}) => {
      const response = await callApi(api, path, {
        token,
        services: { alerts },
        ...(init.method ? { method: init.method } : {}),
        ...(init.body !== undefined
          ? { body: JSON.stringify(init.body), headers: { "content-type": "application/json" } }
          : {}),
      });
      const text = await response.text();
      return {
        response,
        text,
        body: text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
      };
    };
    const correct = (token: string, body: unknown) =>
      call(`/api/v1/documents/${documentId}/corrections`, token, { method: "POST", body });

    beforeAll(async () => {
      database = await openMigratedDatabase(await target.create());
      api = await apiServicesFor(database);
      const stored = await storeDocument(database, source, {
        classify: () => ({
          areas: [{ id: "banking", score: 0.7, reasons: ["test: credit"] }],
          jurisdiction: "ES",
          jurisdictionReason: "test",
          kind: "order",
          kindReason: "test",
          relevance: "medium",
          relevanceReason: "test",
          classifierVersion: "test@1",
        }),
      });
      documentId = stored.id;
      await database.db.insert(user).values([
        { id: "user-a", name: "Ana Ruiz", email: "ana@a.example" },
        { id: "user-b", name: "Bea Soto", email: "bea@b.example" },
      ]);
      const [a, b] = await database.db
        .insert(alertProfiles)
        .values([
          { id: randomUUID(), organizationId: "org-a", userId: "user-a", name: "Seguros A", areas: ["insurance"] },
          { id: randomUUID(), organizationId: "org-b", userId: "user-b", name: "Seguros B", areas: ["insurance"] },
        ])
        .returning({ id: alertProfiles.id });
      profiles.a = a?.id ?? "";
      profiles.b = b?.id ?? "";
      // A token works only while its creator is an admin of its organisation (api/tokens.ts).
      const token = async (organizationId: string, scope: "read" | "admin", createdBy: string) => {
        await ensureMember(database, { organizationId, userId: createdBy });
        return (
          await createApiToken(database.db, { organizationId, name: `${organizationId} ${scope}`, scope, createdBy })
        ).token;
      };
      tokens.readA = await token("org-a", "read", "user-a");
      tokens.adminA = await token("org-a", "admin", "user-a");
      tokens.readB = await token("org-b", "read", "user-b");
      checker = openApiChecker((await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>);
      // Ingestion's matching: neither insurance profile matches a banking document.
      await alerts.queueMatch(documentId);
    }, 180_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    const matchesOf = (profileId: string) =>
      database.db.select().from(alertMatches).where(eq(alertMatches.profileId, profileId));
    const inApp = (userId: string) =>
      database.db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.recipient, userId), eq(deliveries.channel, "inapp")));

    it("adds a missing area for the organisation only, and its profile for that area gets the alert once", async () => {
      expect(await matchesOf(profiles.a)).toHaveLength(0);
      const added = await correct(tokens.readA, {
        area: "insurance",
        action: "add",
        reason: "Trata de seguros de crédito",
      });
      expect(added.response.status).toBe(201);
      expect(checker.check("/api/v1/documents/{id}/corrections", "post", 201, added.body)).toEqual([]);
      expect(added.body.correction).toMatchObject({ area: "insurance", action: "add", by: { name: "Ana Ruiz" } });
      expect(added.body.areas.map((a: { id: string }) => a.id).sort()).toEqual(["banking", "insurance"]);
      expect(added.body.areas.find((a: { id: string }) => a.id === "insurance").reasons).toEqual([
        "corrected by Ana Ruiz: Trata de seguros de crédito",
      ]);
      expect(await matchesOf(profiles.a)).toHaveLength(1);
      expect(await inApp("user-a")).toHaveLength(1);
      // Matching again (another correction, a reclassification) sends nothing twice.
      await alerts.queueMatch(documentId);
      expect(await inApp("user-a")).toHaveLength(1);
      // The other organisation: original labels, no alert.
      expect(await matchesOf(profiles.b)).toHaveLength(0);
      expect(await inApp("user-b")).toHaveLength(0);
      const seenByB = await call(`/api/v1/documents/${documentId}`, tokens.readB);
      expect(seenByB.body.areas.map((a: { id: string }) => a.id)).toEqual(["banking"]);
      const seenByA = await call(`/api/v1/documents/${documentId}`, tokens.readA);
      expect(seenByA.body.areas.map((a: { id: string }) => a.id).sort()).toEqual(["banking", "insurance"]);
    });

    it("refuses a correction that changes nothing, in the caller's language", async () => {
      const again = await callApi(api, `/api/v1/documents/${documentId}/corrections`, {
        token: tokens.readA,
        method: "POST",
        services: { alerts },
        headers: { "content-type": "application/json", "accept-language": "es" },
        body: JSON.stringify({ area: "insurance", action: "add", reason: "Otra vez" }),
      });
      expect(again.status).toBe(422);
      expect(JSON.stringify(await again.json())).toContain("El documento ya tiene esa área.");
      const bad = await correct(tokens.readA, { area: "nope", action: "add", reason: "x" });
      expect(bad.response.status).toBe(422);
      const missing = await call("/api/v1/documents/00000000-0000-4000-8000-000000000000/corrections", tokens.readA, {
        method: "POST",
        body: { area: "insurance", action: "add", reason: "No existe" },
      });
      expect(missing.response.status).toBe(404);
    });

    it("removes a wrong area from the organisation's search filter and facets, not from another's", async () => {
      const removed = await correct(tokens.readA, { area: "banking", action: "remove", reason: "No es de banca" });
      expect(removed.response.status).toBe(201);
      expect(removed.body.areas.map((a: { id: string }) => a.id)).toEqual(["insurance"]);
      const ids = async (params: Record<string, string>, organizationId: string) =>
        (await searchDocuments(database, { ...params, organizationId })).items.map((i) => i.sourceId);
      expect(await ids({ area: "banking" }, "org-a")).toEqual([]);
      expect(await ids({ area: "insurance" }, "org-a")).toEqual(["BOE-A-2026-900"]);
      expect(await ids({ area: "banking" }, "org-b")).toEqual(["BOE-A-2026-900"]);
      expect(await ids({ area: "insurance" }, "org-b")).toEqual([]);
      const facetsA = (await searchDocuments(database, { organizationId: "org-a" })).facets?.area;
      const facetsB = (await searchDocuments(database, { organizationId: "org-b" })).facets?.area;
      expect(facetsA).toEqual({ insurance: 1 });
      expect(facetsB).toEqual({ banking: 1 });
      // A query naming the area finds it for the organisation that added it.
      expect(await ids({ q: "seguros" }, "org-a")).toContain("BOE-A-2026-900");
    });

    it("lists the corrections, audits each, undoes one by correcting back", async () => {
      const list = await call(`/api/v1/documents/${documentId}/corrections`, tokens.readA);
      expect(checker.check("/api/v1/documents/{id}/corrections", "get", 200, list.body)).toEqual([]);
      expect(list.body.map((c: { area: string; action: string }) => `${c.action}:${c.area}`)).toEqual([
        "add:insurance",
        "remove:banking",
      ]);
      expect((await call(`/api/v1/documents/${documentId}/corrections`, tokens.readB)).body).toEqual([]);
      const events = await listAuditEvents(database.db, "org-a", { action: "document.area_corrected" });
      expect(events.items).toHaveLength(2);
      expect(events.items[0]?.actor).toMatchObject({ id: "user-a" });
      expect((await listAuditEvents(database.db, "org-b", { action: "document.area_corrected" })).items).toHaveLength(
        0,
      );
      const undo = await correct(tokens.readA, { area: "banking", action: "add", reason: "Sí era de banca" });
      expect(undo.body).toMatchObject({ correction: null, undone: true });
      expect(undo.body.areas.map((a: { id: string }) => a.id).sort()).toEqual(["banking", "insurance"]);
    });

    it("exports the corrections to admins only, as JSON and formula-safe CSV, audited", async () => {
      expect((await call("/api/v1/corrections", tokens.readA)).response.status).toBe(403);
      const json = await call("/api/v1/corrections", tokens.adminA);
      expect(json.response.status).toBe(200);
      expect(checker.check("/api/v1/corrections", "get", 200, json.body)).toEqual([]);
      expect(json.body).toEqual([
        expect.objectContaining({
          sourceId: "BOE-A-2026-900",
          area: "insurance",
          action: "add",
          storedAreas: ["banking"],
        }),
      ]);
      await correct(tokens.readA, { area: "tax", action: "add", reason: '=HYPERLINK("x")' });
      const csv = await call("/api/v1/corrections?format=csv", tokens.adminA);
      expect(csv.response.headers.get("content-type")).toContain("text/csv");
      const lines = csv.text.trim().split("\r\n");
      expect(lines[0]).toBe("source_id,document_id,area,action,reason,stored_areas,corrected_by,corrected_at,title");
      expect(lines).toHaveLength(3);
      expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);
      const exports = (await listAuditEvents(database.db, "org-a", { action: "corrections.exported" })).items;
      expect(exports).toHaveLength(2);
      // The token's creator is the actor of an API export (issue 37).
      expect(exports.map((e) => e.actor?.id)).toEqual(["user-a", "user-a"]);
      expect((await call("/api/v1/corrections", tokens.readB.replace(/.$/, "x"))).response.status).toBe(401);
    });
  });
}
