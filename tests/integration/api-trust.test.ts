/**
 * Issue 22, findings 5, 6, 9 and 11 with the real auth service (PGlite and PostgreSQL): a token
 * lives no longer than its creator's standing; webhooks take an admin token and a per-organisation
 * cap; API reads, webhook changes and password resets are audited with their actor; the webhook
 * body follows WEBHOOKS_ALLOW_PRIVATE_URLS and answers field errors in the caller's language.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiServices } from "../../app/.server/api/service.ts";
import { createApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { loadConfig } from "../../app/.server/config.ts";
import { mailOutbox } from "../../app/.server/db/schema/auth.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { startServices } from "../support/contact-services.ts";
import { inviteMember, memberPassword, type SignedIn, setupOwner } from "../support/platform-members.ts";
import { databaseTargets } from "../support/postgres.ts";

for (const target of databaseTargets()) {
  describe(`API trust (${target.name})`, () => {
    let app: Awaited<ReturnType<typeof startServices>>;
    let owner: SignedIn;
    let checker: ReturnType<typeof openApiChecker>;
    const url = { value: undefined as string | undefined };

    beforeAll(async () => {
      url.value = await target.create();
      app = await startServices({
        ...(url.value ? { DATABASE_URL: url.value } : {}),
        AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
      });
      owner = await setupOwner(app.services.auth, app.config.dataDir, { email: "olga@trust.example" });
      const response = await callApi(app.services.api, "/api/v1/openapi.json");
      checker = openApiChecker((await response.json()) as Record<string, unknown>);
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await target.cleanup();
    });

    const db = () => app.database.db;
    async function adminWithToken(email: string, scope: "read" | "admin" = "admin") {
      const admin = await inviteMember(app.services.auth, owner, { email, role: "admin" });
      const { id, token } = await createApiToken(db(), {
        organizationId: admin.member.organizationId,
        name: email,
        scope,
        createdBy: admin.member.userId,
      });
      return { admin, id, token };
    }
    const verify = (token: string) => callApi(app.services.api, "/api/v1/audit/verify", { token });

    it("ends a creator's tokens at suspension, demotion and removal (finding 5)", async () => {
      const auth = app.services.auth;
      const demoted = await adminWithToken("dora@trust.example");
      const suspended = await adminWithToken("sam@trust.example");
      const banned = await adminWithToken("ben@trust.example");
      const removed = await adminWithToken("rui@trust.example");
      for (const t of [demoted, suspended, banned, removed]) expect((await verify(t.token)).status).toBe(200);

      // Through the service: the tokens are revoked, each revocation audited with its reason.
      expect(await auth.changeRole(owner.member, demoted.admin.member.memberId, "member", owner.meta())).toBe(true);
      expect((await verify(demoted.token)).status).toBe(401);
      expect(await auth.setSuspended(owner.member, suspended.admin.member.memberId, true, owner.meta())).toBe(true);
      expect((await verify(suspended.token)).status).toBe(401);
      const revoked = await listAuditEvents(db(), owner.member.organizationId, { action: "token.revoked" });
      expect(revoked.items.map((event) => [event.object?.id, event.actor?.email, event.detail?.reason]).sort()).toEqual(
        [
          [demoted.id, "olga@trust.example", "member.role_changed"],
          [suspended.id, "olga@trust.example", "member.suspended"],
        ].sort(),
      );
      // Reinstating or promoting again does not bring a revoked token back.
      await auth.setSuspended(owner.member, suspended.admin.member.memberId, false, owner.meta());
      await auth.changeRole(owner.member, demoted.admin.member.memberId, "admin", owner.meta());
      expect((await verify(suspended.token)).status).toBe(401);
      expect((await verify(demoted.token)).status).toBe(401);

      // Whatever path changes the standing, authentication checks it.
      await app.database.rows(sql`update auth_user set banned = true where id = ${banned.admin.member.userId}`);
      expect((await verify(banned.token)).status).toBe(401);
      await app.database.rows(sql`delete from auth_member where id = ${removed.admin.member.memberId}`);
      expect((await verify(removed.token)).status).toBe(401);
    }, 120_000);

    it("keeps webhooks to admin tokens, capped per organisation, audited with the token's creator (findings 6, 9)", async () => {
      const { admin, id: adminTokenId, token } = await adminWithToken("wanda@trust.example");
      const { token: readToken } = await adminWithToken("rita@trust.example", "read");
      const api = await apiServicesFor(app.database, 600, { maxWebhooksPerOrganization: 2 });
      const post = (t: string, lang: string, hookUrl = "https://hooks.trust.example/in") =>
        callApi(api, "/api/v1/webhooks", {
          token: t,
          method: "POST",
          headers: { "content-type": "application/json", "accept-language": lang },
          body: JSON.stringify({ url: hookUrl }),
        });

      // A read token neither lists, creates nor deletes.
      const refused = await post(readToken, "en");
      expect(refused.status).toBe(403);
      expect(checker.check("/api/v1/webhooks", "post", 403, await refused.json())).toEqual([]);
      expect((await callApi(api, "/api/v1/webhooks", { token: readToken })).status).toBe(403);

      const first = await post(token, "es");
      expect(first.status).toBe(201);
      const created = (await first.json()) as { id: string };
      expect((await post(token, "es")).status).toBe(201);
      // The cap: a clear 422 in the caller's language, nothing stored.
      for (const [lang, message] of [
        ["es", "Tu organización ya tiene 2 webhooks, el máximo permitido. Borra uno antes de crear otro."],
        ["en", "Your organisation already has 2 webhooks, the most allowed. Delete one before creating another."],
      ] as const) {
        const over = await post(token, lang);
        expect(over.status).toBe(422);
        const body = await over.json();
        expect(body).toEqual({ statusCode: 422, statusMessage: message });
        expect(checker.check("/api/v1/webhooks", "post", 422, body)).toEqual([]);
      }
      const listed = await callApi(api, "/api/v1/webhooks", { token });
      expect(((await listed.json()) as unknown[]).length).toBe(2);
      expect(
        (await callApi(api, `/api/v1/webhooks/${created.id}`, { token: readToken, method: "DELETE" })).status,
      ).toBe(403);
      expect((await callApi(api, `/api/v1/webhooks/${created.id}`, { token, method: "DELETE" })).status).toBe(204);
      expect((await post(token, "es")).status).toBe(201);

      // Audited: the token's creator as actor, the token in the detail.
      const actor = { id: admin.member.userId, email: "wanda@trust.example" };
      for (const action of ["webhook.created", "webhook.deleted"]) {
        const events = await listAuditEvents(db(), owner.member.organizationId, { action });
        expect(events.items.length, action).toBeGreaterThan(0);
        for (const event of events.items) {
          expect(event.actor, action).toEqual(actor);
          expect(event.detail?.tokenId, action).toBe(adminTokenId);
        }
      }
    }, 120_000);

    it("audits API document reads with the token's creator (finding 9)", async () => {
      const { admin, id: tokenId, token } = await adminWithToken("dani@trust.example", "read");
      const documentId = await insertStoredDocument(app.database, { title: "Orden pública" });
      const response = await callApi(app.services.api, `/api/v1/documents/${documentId}`, { token });
      expect(response.status).toBe(200);
      const events = await listAuditEvents(db(), owner.member.organizationId, { action: "document.read" });
      expect(events.items.map((event) => [event.actor, event.object, event.detail?.tokenId])).toEqual([
        [{ id: admin.member.userId, email: "dani@trust.example" }, { type: "document", id: documentId }, tokenId],
      ]);
    });

    it("audits a password reset: request, completion and the sessions it ended (finding 9)", async () => {
      const auth = app.services.auth;
      const member = await inviteMember(auth, owner, { email: "pia@trust.example" });
      const organizationId = owner.member.organizationId;
      const meta = { headers: new Headers(), ip: "203.0.113.9", userAgent: "reset-agent" };
      await auth.requestPasswordReset("PIA@trust.example", meta);
      await auth.requestPasswordReset("nobody@trust.example", meta);
      const requested = await listAuditEvents(db(), organizationId, { action: "auth.password_reset_requested" });
      expect(requested.items.map((event) => [event.actor, event.object])).toEqual([
        [null, { type: "user", id: member.member.userId }],
      ]);
      const mails = await db().select().from(mailOutbox).where(sql`${mailOutbox.to} = 'pia@trust.example'`);
      const link = mails.map((mail: { text: string }) => /\/app\/reset\/([^\s"<]+)/.exec(mail.text)?.[1]).find(Boolean);
      expect(link).toBeTruthy();
      await auth.resetPassword(decodeURIComponent(link ?? ""), `${memberPassword}-nuevo`, meta);
      const actor = { id: member.member.userId, email: "pia@trust.example" };
      const reset = await listAuditEvents(db(), organizationId, { action: "auth.password_reset" });
      expect(reset.items.map((event) => event.actor)).toEqual([actor]);
      const ended = await listAuditEvents(db(), organizationId, { action: "session.ended" });
      const byReset = ended.items.filter((event) => event.detail?.reason === "password_reset");
      expect(byReset.map((event) => [event.actor, event.detail?.sessions])).toEqual([[actor, 1]]);
      expect(await auth.currentSession(member.meta().headers)).toBeNull();
    });

    it("validates webhook URLs with the running configuration, field errors in the caller's language (finding 11)", async () => {
      const { token } = await adminWithToken("lia@trust.example");
      const body = JSON.stringify({ url: "http://127.0.0.1:9/hook", areas: ["no-such-area"] });
      const call = (api: typeof app.services.api, lang: string, payload = body) =>
        callApi(api, "/api/v1/webhooks", {
          token,
          method: "POST",
          headers: { "content-type": "application/json", "accept-language": lang },
          body: payload,
        });
      const es = await call(app.services.api, "es");
      expect(es.status).toBe(422);
      const esBody = await es.json();
      expect(esBody).toEqual({
        statusCode: 422,
        statusMessage: "Algunos parámetros no son válidos",
        fieldErrors: { url: ["La URL debe ser http(s) y pública."], "areas.0": ["Área desconocida."] },
      });
      expect(checker.check("/api/v1/webhooks", "post", 422, esBody)).toEqual([]);
      const en = await (await call(app.services.api, "en")).json();
      expect(en.fieldErrors).toEqual({ url: ["The URL must be a public http(s) URL."], "areas.0": ["Unknown area."] });

      // WEBHOOKS_ALLOW_PRIVATE_URLS=1 reaches the API operation through the services built from config.
      const allowing = await createApiServices(
        loadConfig({
          NODE_ENV: "test",
          DATA_DIR: app.config.dataDir,
          FORM_SECRET: "test-secret-test-secret-test-secret-0123",
          AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
          WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
        }),
        app.database,
      );
      expect(allowing.outbound.allowPrivateUrls).toBe(true);
      const accepted = await call(allowing, "en", JSON.stringify({ url: "http://127.0.0.1:9/hook" }));
      expect(accepted.status).toBe(201);
    });
  });
}
