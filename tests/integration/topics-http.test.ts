/**
 * The Topics admin page through the real HTTP server (built app, in process, PGlite), as a browser
 * without JavaScript: an admin creates a topic, the collection is labelled for that organisation,
 * bad input is answered in the user's language and nothing is stored, a member is refused, and
 * every change is in the audit trail. Needs `npm run build`.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topicsOfDocument } from "../../app/.server/classify/topics.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { acceptInvitationOverHttp, type httpClient, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";

describe("the Topics page", () => {
  let server: Awaited<ReturnType<typeof startInProcessServer>>;
  let ana: ReturnType<typeof httpClient>;
  let organizationId = "";

  beforeAll(async () => {
    server = await startInProcessServer();
    ana = await setupOwnerOverHttp(server.url, server.dataDir);
    const [row] = await server.app.database.rows<{ organization_id: string }>(
      sql`select organization_id from auth_member limit 1`,
    );
    organizationId = row?.organization_id ?? "";
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("creates a topic that labels the organisation's matching documents, and shows it", async () => {
    const db = server.app.database;
    const payments = await insertStoredDocument(db, {
      title: "Circular sobre servicios de pago y dinero electrónico",
      areas: ["payments"],
    });
    const other = await insertStoredDocument(db, { title: "Orden de ayudas agrarias", areas: ["grants"] });
    const created = await ana.request("/app/admin/topics", {
      form: {
        intent: "create",
        name: "Pagos PSD3",
        keywords: "SERVICIO DE PAGO\ndinero electronico",
        area: "payments",
      },
    });
    expect(created.status).toBe(200);
    expect(await created.text()).toContain("Tema guardado");
    const labels = await topicsOfDocument(db.db, organizationId, payments);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ name: "Pagos PSD3", area: "payments" });
    expect(labels[0]!.reasons.map((reason) => reason.es).join(" ")).toContain("SERVICIO DE PAGO");
    expect(await topicsOfDocument(db.db, organizationId, other)).toEqual([]);

    const page = await (await ana.request("/app/admin/topics")).text();
    expect(page).toContain("Pagos PSD3");
    expect(page).toContain("1 documento etiquetado");
    const [audit] = await db.rows<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'topic.created' and organization_id = ${organizationId}`,
    );
    expect(audit?.n).toBe(1);
  });

  it("answers bad input in the user's language and stores nothing", async () => {
    const before = await server.app.database.rows<{ n: number }>(
      sql`select count(*)::int as n from organization_topics`,
    );
    const response = await ana.request("/app/admin/topics", {
      form: { intent: "create", name: "", keywords: "x", area: "astrology" },
    });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain("Escribe un nombre de 1 a 80 caracteres.");
    expect(html).toContain("Elige un área de la lista.");
    const after = await server.app.database.rows<{ n: number }>(
      sql`select count(*)::int as n from organization_topics`,
    );
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it("refuses a member (403) and shows no Topics link to them", async () => {
    const auth = server.app.services.auth;
    const session = await auth.currentSession(new Headers({ cookie: ana.cookie }));
    const owner = session && (await auth.memberOf(session));
    if (!owner) throw new Error("no owner");
    const invited = await auth.invite(
      owner,
      { email: "bea@example.com", role: "member", locale: "en", groupIds: [] },
      { headers: new Headers(), ip: "198.51.100.9", userAgent: "test" },
    );
    const bea = await acceptInvitationOverHttp(server.url, invited.url, "Bea");
    expect((await bea.request("/app/admin/topics")).status).toBe(403);
    expect(await (await bea.request("/app")).text()).not.toContain("/app/admin/topics");
  });
});
