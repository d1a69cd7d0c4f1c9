/**
 * /app/admin/webhooks over HTTP against the built app (in this process, PGlite, the outbound guard
 * as in production: no private URLs): an internal address gets its own error in the member's
 * language and nothing is stored; a member gets 403; every action is audited with the member as
 * actor; a failing webhook is shown as such and resumed from the page, its held delivery queued
 * again under its id; the API lists the same state.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markWebhookFailing } from "../../app/.server/alerts/worker.ts";
import { inviteOverHttp, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";

let server: Awaited<ReturnType<typeof startInProcessServer>>;
let owner: Awaited<ReturnType<typeof setupOwnerOverHttp>>;

beforeAll(async () => {
  server = await startInProcessServer();
  owner = await setupOwnerOverHttp(server.url, server.dataDir, "ana@hooks.example");
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const db = () => server.app.database;

describe("/app/admin/webhooks", () => {
  it("names an internal address as such, in Spanish and English, and stores nothing", async () => {
    for (const url of ["http://127.0.0.1:9000/hook", "http://10.1.2.3/hook", "http://[::1]/x", "http://localhost/x"]) {
      const response = await owner.request("/app/admin/webhooks", {
        form: { intent: "create", url, events: "document.matched" },
      });
      expect(response.status).toBe(422);
      const html = await response.text();
      expect(html).toContain("es una dirección interna");
      expect(html).toContain("solo se envían a direcciones públicas");
    }
    const en = await owner.request("/app/admin/webhooks", {
      form: { intent: "create", url: "http://192.168.1.10/hook", events: "document.matched" },
      headers: { cookie: `${owner.cookie}; locale=en` },
    });
    expect(en.status).toBe(422);
    const nonsense = await owner.request("/app/admin/webhooks", { form: { intent: "create", url: "ftp:nothing" } });
    expect(await nonsense.text()).toContain("Escribe una URL completa");
    const [count] = await db().rows<{ n: number }>(sql`select count(*)::int as n from webhooks`);
    expect(count?.n).toBe(0);
  });

  it("keeps members out, audits each action, shows a failing webhook and resumes it with its held delivery", async () => {
    // A webhook to a public name (not reachable from the test machine: never sent), stored directly.
    const organizationId = (
      await db().rows<{ id: string }>(sql`select id from auth_organization order by created_at limit 1`)
    )[0]?.id as string;
    const webhookId = "0b6f3f7e-9a0c-4c55-9a59-6a2f4c1d2e3f";
    await db().rows(sql`insert into webhooks (id, organization_id, url, secret, events)
      values (${webhookId}::uuid, ${organizationId}, 'https://hooks.example.com/vigia', 'whsec_dGVzdHRlc3R0ZXN0dGVzdA==', '{document.triaged}')`);
    // A delivery that ran out of its window: the webhook is failing, another one held.
    const deadId = "6e1f0c2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
    const heldId = "7f2a1d3b-4c5e-4f60-9b0c-1d2e3f4a5b6c";
    for (const [id, status] of [
      [deadId, "dead"],
      [heldId, "pending"],
    ] as const) {
      await db().rows(sql`insert into deliveries (id, match_key, channel, recipient, organization_id, payload, status, attempts, last_error, next_attempt_at)
        values (${id}::uuid, ${`event:document.triaged:${id}`}, 'webhook', ${webhookId}, ${organizationId},
          ${JSON.stringify({ webhookId, body: { type: "document.triaged", timestamp: new Date().toISOString(), data: { webhookId } } })}::jsonb,
          ${status}, 40, 'HTTP 503', now() + interval '1 hour')`);
    }
    await db().db.transaction((tx) => markWebhookFailing(tx, webhookId, "HTTP 503"));
    const [held] = await db().rows<{ status: string }>(sql`select status from deliveries where id = ${heldId}::uuid`);
    expect(held?.status).toBe("held");

    const page = await (await owner.request("/app/admin/webhooks")).text();
    expect(page).toContain("Con fallos");
    expect(page).toContain("HTTP 503");
    expect(page).toContain("Retenido");
    expect(page).toContain("Reanudar");

    // A member of the organisation: 403 on the page and on its actions.
    const eva = await inviteOverHttp(owner, server.url, server.dataDir, "eva@hooks.example", "Eva");
    expect((await eva.request("/app/admin/webhooks")).status).toBe(403);
    expect((await eva.request("/app/admin/webhooks", { form: { intent: "delete", id: webhookId } })).status).toBe(403);

    // Resumed from the page: both deliveries queued again, as the same rows.
    const resumed = await owner.request("/app/admin/webhooks", { form: { intent: "enable", id: webhookId } });
    expect(await resumed.text()).toContain("Envíos que vuelven a la cola: 2.");
    const rows = await db().rows<{ id: string; status: string; attempts: number }>(
      sql`select id, status, attempts from deliveries where recipient = ${webhookId} order by id`,
    );
    expect(rows.map((row) => row.id).sort()).toEqual([deadId, heldId].sort());
    expect(rows.every((row) => row.attempts === 0 || row.status !== "dead")).toBe(true);
    const [state] = await db().rows<{ failing_since: string | null }>(
      sql`select failing_since from webhooks where id = ${webhookId}::uuid`,
    );
    expect(state?.failing_since).toBeNull();

    await owner.request("/app/admin/webhooks", { form: { intent: "disable", id: webhookId } });
    await owner.request("/app/admin/webhooks", { form: { intent: "delete", id: webhookId } });
    const audit = await db().rows<{ action: string; actor_id: string | null }>(
      sql`select action, actor_id from audit_events where object_id = ${webhookId} order by seq`,
    );
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(["webhook.enabled", "webhook.disabled", "webhook.deleted"]),
    );
    expect(audit.every((row) => row.actor_id)).toBe(true);
    const [left] = await db().rows<{ n: number }>(
      sql`select count(*)::int as n from deliveries where recipient = ${webhookId} and status <> 'sent'`,
    );
    expect(left?.n).toBe(0);
  });
});
