/**
 * The alert pages and GET /app/events through the real HTTP server (the built app, in this process,
 * on PGlite), signed in as a browser without JavaScript would be: the profile form (preview, save,
 * mute, delete; audited), the event stream (contract, no-store, replay, shutdown), the alerts page
 * and its mark-read forms, a Standard-Webhooks receiver fed by the running server's worker, and the
 * failed-deliveries page's retry. Needs `npm run build`.
 */
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { insertStoredDocument, readSse, startReceiver } from "../support/alerts-fixtures.ts";
import { acceptInvitationOverHttp, type httpClient, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";

describe("alerts over HTTP", () => {
  let server: Awaited<ReturnType<typeof startInProcessServer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let ana: ReturnType<typeof httpClient>;
  let organizationId = "";
  let userId = "";

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startInProcessServer({
      WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      ALERTS_RETRY_BASE_MS: "50",
      ALERTS_RETRY_MAX_MS: "100",
      ALERTS_MAX_ATTEMPTS: "2",
    });
    ana = await setupOwnerOverHttp(server.url, server.dataDir);
    const [row] = await server.app.database.rows<{ organization_id: string; user_id: string }>(
      sql`select organization_id, user_id from auth_member limit 1`,
    );
    organizationId = row?.organization_id ?? "";
    userId = row?.user_id ?? "";
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.stop();
  });

  const db = () => server.app.database;

  it("refuses the event stream without a session, uncached", async () => {
    const response = await fetch(`${server.url}/app/events`);
    expect(response.status).toBe(401);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("previews a profile on the last 30 days, saves it (audited), then mutes and unmutes it", async () => {
    await insertStoredDocument(db(), { title: "Circular sobre prevención del blanqueo", areas: ["aml"] });
    await insertStoredDocument(db(), { title: "Orden de subvenciones agrarias", areas: ["grants"] });
    const form = {
      name: "Blanqueo",
      owner: "me",
      areas: "aml",
      minRelevance: "",
      keywords: "",
      query: "",
      email: "off",
      digestHour: "8",
      language: "es",
    };
    const preview = await ana.request("/app/profiles/new", { form: { ...form, intent: "preview" } });
    expect(preview.status).toBe(200);
    const html = await preview.text();
    expect(html).toContain("Documentos que coincidirían: 1.");
    expect(html).toContain("Circular sobre prevención del blanqueo");
    expect(html).not.toContain("Orden de subvenciones agrarias");
    expect(await db().rows(sql`select id from alert_profiles`)).toHaveLength(0);

    const bad = await ana.request("/app/profiles/new", { form: { ...form, name: "", intent: "save" } });
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("Escribe un nombre (máximo 120 caracteres).");

    const saved = await ana.request("/app/profiles/new", { form: { ...form, intent: "save" } });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/app/profiles?done=saved");
    const [profile] = await db().rows<{ id: string; user_id: string; areas: string[] }>(
      sql`select id, user_id, areas from alert_profiles`,
    );
    expect(profile).toMatchObject({ user_id: userId, areas: ["aml"] });
    const list = await (await ana.request("/app/profiles?done=saved")).text();
    expect(list).toContain("Perfil guardado.");
    expect(list).toContain("Blanqueo");

    const muted = await ana.request("/app/profiles", { form: { intent: "mute", id: profile?.id ?? "" } });
    expect(await muted.text()).toContain("Perfil silenciado");
    await ana.request("/app/profiles", { form: { intent: "unmute", id: profile?.id ?? "" } });
    const actions = await db().rows<{ action: string }>(
      sql`select action from audit_events where object_type = 'alert_profile' order by seq`,
    );
    expect(actions.map((a) => a.action)).toEqual([
      "alert_profile.created",
      "alert_profile.muted",
      "alert_profile.unmuted",
    ]);
  });

  it("streams a matched document's alert, replays after Last-Event-ID, and lists it until marked read", async () => {
    const events = await fetch(`${server.url}/app/events`, { headers: { cookie: ana.cookie } });
    expect(events.status).toBe(200);
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(events.headers.get("cache-control")).toBe("no-store");
    expect(events.headers.get("content-encoding")).toBeNull();
    const page = readSse(events.body as ReadableStream<Uint8Array>);

    const documentId = await insertStoredDocument(db(), { title: "Real Decreto de blanqueo de capitales" });
    const result = await server.app.services.alerts.matchNow(documentId);
    expect(result.newMatches).toBe(1);
    await expect.poll(() => page.events.length, { timeout: 10_000 }).toBe(1);
    const event = page.events[0];
    const data = JSON.parse(event?.data ?? "{}");
    expect(event?.event).toBe("alert");
    expect(event?.id).toBe(String(data.alertId));
    expect(data).toEqual({
      alertId: data.alertId,
      documentId,
      title: "Real Decreto de blanqueo de capitales",
      profileId: expect.any(String),
      profileName: "Blanqueo",
      // Why, in the Alerts page's words and the member's language (decision 0163).
      why: expect.stringMatching(/^Coincide con tu perfil «Blanqueo»: área Prevención del blanqueo/),
    });
    await page.cancel();

    // A page that reconnects with the id before it gets the alert again.
    const again = await fetch(`${server.url}/app/events`, {
      headers: { cookie: ana.cookie, "last-event-id": String(data.alertId - 1) },
    });
    const replay = readSse(again.body as ReadableStream<Uint8Array>);
    await expect.poll(() => replay.events.length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(replay.events[0]?.data ?? "{}").documentId).toBe(documentId);
    await replay.cancel();

    // The shell's notification centre (every page) and the alerts page show it, unread.
    const home = await (await ana.request("/app/alerts")).text();
    expect(home).toMatch(/data-testid="unread-count"[^>]*>1</);
    expect(home).toContain("Real Decreto de blanqueo de capitales");
    expect(home).toContain(`href="/app/documents/${documentId}"`);
    // It says why, in the reader's language (decision 0148): the profile, its area and the classifier's evidence.
    expect(home).toMatch(
      /data-testid="alert-why"[^>]*>Coincide con tu perfil «Blanqueo»: área Prevención del blanqueo \(test\)</,
    );
    const marked = await ana.request("/app/alerts", { form: { intent: "read", id: String(data.alertId) } });
    expect(await marked.text()).toContain("Alerta marcada como leída.");
    const after = await (await ana.request("/app/alerts?unread=1")).text();
    expect(after).toMatch(/data-testid="unread-count"[^>]*>0</);
    expect(after).not.toContain('data-testid="alert-item"');
  });

  it("delivers a signed webhook through the running server; a dead one is listed and retried by an admin", async () => {
    const hook = await createWebhook(
      db().db,
      organizationId,
      webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/receiver`, kinds: ["order"] }),
    );
    const documentId = await insertStoredDocument(db(), { title: "Orden de contratación pública", kind: "order" });
    await server.app.services.alerts.matchNow(documentId);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    const got = receiver.received[0];
    const body = new Webhook(hook.secret).verify(got?.body ?? "", {
      "webhook-id": String(got?.headers["webhook-id"]),
      "webhook-timestamp": String(got?.headers["webhook-timestamp"]),
      "webhook-signature": String(got?.headers["webhook-signature"]),
    }) as { type: string; timestamp: string; data: { webhookId: string; document: { id: string; title: string } } };
    expect(body.type).toBe("document.matched");
    expect(body.data.webhookId).toBe(hook.id);
    expect(body.data.document).toMatchObject({ id: documentId, title: "Orden de contratación pública" });

    // A receiver that keeps failing: webhooks retry for 24 h, so the window is moved into the past.
    const gone = await createWebhook(
      db().db,
      organizationId,
      webhookInputSchema("en", { allowPrivate: true }).parse({ url: `${receiver.base}/gone`, kinds: ["resolution"] }),
    );
    receiver.failNext(1000, "/gone");
    const second = await insertStoredDocument(db(), { title: "Resolución fallida", kind: "resolution" });
    await server.app.services.alerts.matchNow(second);
    // Push the retry window into the past: the next failure is final.
    await db().rows(sql`update deliveries set give_up_at = now() where recipient = ${gone.id}`);
    await expect
      .poll(
        async () =>
          (await db().rows<{ status: string }>(sql`select status from deliveries where recipient = ${gone.id}`))[0]
            ?.status,
        { timeout: 10_000 },
      )
      .toBe("dead");
    const page = await (await ana.request("/app/admin/deliveries")).text();
    expect(page).toContain("Envíos fallidos");
    expect(page).toContain("HTTP 500");
    expect(page).toContain("Agotado");
    receiver.failNext(0);
    const [dead] = await db().rows<{ id: string }>(sql`select id from deliveries where recipient = ${gone.id}`);
    const retried = await ana.request("/app/admin/deliveries", { form: { intent: "retry", id: dead?.id ?? "" } });
    expect(await retried.text()).toContain("Envíos que vuelven a la cola: 1.");
    await expect.poll(() => receiver.received.filter((r) => r.path === "/gone").length, { timeout: 10_000 }).toBe(1);
  });

  it("keeps members to their own profiles, and admin pages and group profiles to admins", async () => {
    const auth = server.app.services.auth;
    const session = await auth.currentSession(new Headers({ cookie: ana.cookie }));
    const owner = session && (await auth.memberOf(session));
    if (!owner) throw new Error("no owner");
    const meta = { headers: new Headers(), ip: "198.51.100.9", userAgent: "test" };
    const groupId = await auth.createGroup(owner, "Cumplimiento", meta);
    const invited = await auth.invite(
      owner,
      { email: "bob@example.com", role: "member", locale: "es", groupIds: [groupId] },
      meta,
    );
    const bob = await acceptInvitationOverHttp(server.url, invited.url, "Bob");

    expect((await bob.request("/app/admin/deliveries")).status).toBe(403);
    expect((await bob.request("/app/admin/deliveries", { form: { intent: "retry-all" } })).status).toBe(403);
    const [anas] = await db().rows<{ id: string }>(sql`select id from alert_profiles where user_id = ${userId}`);
    expect((await bob.request(`/app/profiles/${anas?.id}`)).status).toBe(404);
    expect((await bob.request("/app/profiles", { form: { intent: "delete", id: anas?.id ?? "" } })).status).toBe(404);
    // A member's page has no group choice; a forged group owner is saved as the member's own profile.
    const form = await (await bob.request("/app/profiles/new")).text();
    expect(form).not.toContain('name="groupId"');
    const forged = await bob.request("/app/profiles/new", {
      form: { name: "Forjado", owner: "group", groupId, email: "off", digestHour: "8", language: "es", intent: "save" },
    });
    expect(forged.status).toBe(302);
    const [saved] = await db().rows<{ user_id: string | null; group_id: string | null }>(
      sql`select user_id, group_id from alert_profiles where name = 'Forjado'`,
    );
    expect(saved?.group_id).toBeNull();
    expect(saved?.user_id).not.toBe(userId);

    // The admin makes a group profile with a validated chat URL.
    const bad = await ana.request("/app/profiles/new", {
      form: {
        name: "Grupo",
        owner: "group",
        groupId,
        chatWebhookUrl: "http://127.0.0.1/hook",
        email: "digest",
        digestHour: "7",
        language: "es",
        intent: "save",
      },
    });
    expect(await bad.text()).toContain("La URL del chat debe ser https de Slack o Microsoft Teams.");
    const good = await ana.request("/app/profiles/new", {
      form: {
        name: "Grupo",
        owner: "group",
        groupId,
        chatWebhookUrl: "https://hooks.slack.com/services/T000/B000/XXXX",
        email: "digest",
        digestHour: "7",
        language: "es",
        intent: "save",
      },
    });
    expect(good.status).toBe(302);
    const list = await (await ana.request("/app/profiles")).text();
    expect(list).toContain("Perfiles de grupo");
    expect(list).toContain("Grupo Cumplimiento");
    expect(await (await bob.request("/app/profiles")).text()).not.toContain("Grupo Cumplimiento");
  });

  it("ends open event streams at shutdown", async () => {
    const events = await fetch(`${server.url}/app/events`, { headers: { cookie: ana.cookie } });
    const page = readSse(events.body as ReadableStream<Uint8Array>);
    const started = Date.now();
    server.app.closeStreams();
    await page.pump;
    expect(Date.now() - started).toBeLessThan(3000);
    // New streams are refused while shutting down (the page reconnects to another instance).
    const refused = await fetch(`${server.url}/app/events`, { headers: { cookie: ana.cookie } });
    expect(refused.status).toBe(503);
  });
});
