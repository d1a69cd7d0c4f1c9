/**
 * Enterprise identity end to end (issue 41) against a real OpenID Provider on loopback
 * (oidc-provider): an admin sets up the provider, proves the domain, maps IdP groups, tests the
 * sign-in and switches it on; the first sign-in creates the member with the mapped role and group,
 * the next keeps them in step; MFA claims count only when trusted; an existing account is linked
 * only after its owner confirms; a second organisation's IdP never lands anyone here.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateToken, createApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { mergeCookies } from "../../app/.server/auth/cookies.ts";
import type { RequestMeta } from "../../app/.server/auth/service.ts";
import { createCalendarFeed, feedForToken } from "../../app/.server/calendar/feeds.ts";
import { mailOutbox, member, teamMember, user } from "../../app/.server/db/schema/auth.ts";
import { ssoProvider } from "../../app/.server/db/schema/sso.ts";
import { scimRespond } from "../../app/.server/scim/http.ts";
import * as adminSso from "../../app/routes/app/admin-sso.tsx";
import { startServices } from "../support/contact-services.ts";
import { browse, type IdpUser, startOidcIdp } from "../support/oidc-idp.ts";
import { pageContext, pageRequest, settle } from "../support/page-harness.ts";
import {
  acceptOwnerInvitation,
  inviteMember,
  memberPassword,
  type SignedIn,
  setupOwner,
} from "../support/platform-members.ts";
import { databaseTargets } from "../support/postgres.ts";
import { decodeSaml, encodeSaml, type SamlOverrides, type SamlPerson, samlIdp } from "../support/saml-idp.ts";
import { totpFromUri } from "../support/totp.ts";

const siteUrl = "http://127.0.0.1:3000";
const callback = `${siteUrl}/app/sso/oidc/callback`;

function visitor(agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36") {
  let cookie = "";
  return {
    meta(): RequestMeta {
      return { headers: new Headers({ cookie, "user-agent": agent }), ip: "203.0.113.9", userAgent: agent };
    },
    take(lines: readonly string[]) {
      cookie = mergeCookies(cookie, lines);
    },
  };
}

/** What the SCIM answers hold, as far as the tests read them. */
interface ScimAnswer {
  id: string;
  displayName?: string;
  active?: boolean;
  members: { value: string }[];
  totalResults?: number;
}

/** A signed-in member's request carrying the cookie of the SSO request they started. */
function carrying(meta: RequestMeta, setCookies: readonly string[]): RequestMeta {
  const headers = new Headers(meta.headers);
  headers.set("cookie", mergeCookies(meta.headers.get("cookie"), setCookies));
  return { ...meta, headers };
}

for (const target of databaseTargets()) {
  describe(`SSO with OIDC (${target.name})`, () => {
    let app: Awaited<ReturnType<typeof startServices>>;
    let idpA: Awaited<ReturnType<typeof startOidcIdp>>;
    let idpB: Awaited<ReturnType<typeof startOidcIdp>>;
    let owner: SignedIn;
    let providerId: string;
    let analysts: string;
    let legal: string;

    beforeAll(async () => {
      const url = await target.create();
      app = await startServices({
        ...(url ? { DATABASE_URL: url } : {}),
        AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
        SSO_ALLOW_PRIVATE_IDP_URLS: "1",
      });
      idpA = await startOidcIdp([{ clientId: "vigia-a", clientSecret: "secret-a-0123456789", redirectUri: callback }]);
      idpB = await startOidcIdp([{ clientId: "vigia-b", clientSecret: "secret-b-0123456789", redirectUri: callback }]);
      owner = await setupOwner(app.services.auth, app.config.dataDir, {
        email: "ana@banco.example",
        organizationName: "Banco",
      });
    });
    afterAll(async () => {
      await idpA?.close();
      await idpB?.close();
      await app?.close();
      await target.cleanup();
    });

    /** One sign-in at the IdP as `person`, through our begin and callback. */
    async function signInAs(person: IdpUser, idp = idpA, id = providerId) {
      idp.state.user = person;
      const auth = app.services.auth;
      const browser = visitor();
      const { url, setCookies } = await auth.beginSso(id);
      browser.take(setCookies);
      const answer = await browse(url, callback);
      const outcome = await auth.finishOidc(answer, browser.meta());
      if (outcome.kind === "signed_in") browser.take(outcome.setCookies);
      return { outcome, current: await auth.currentSession(browser.meta().headers), browser };
    }

    it("an admin sets up the provider, proves the domain, maps groups, tests, switches it on", async () => {
      const auth = app.services.auth;
      analysts = await auth.createGroup(owner.member, "Analistas", owner.meta());
      legal = await auth.createGroup(owner.member, "Jurídico", owner.meta());
      providerId = await auth.createSsoProvider(
        owner.member,
        {
          kind: "oidc",
          name: "Entra ID",
          issuer: idpA.issuer,
          clientId: "vigia-a",
          clientSecret: "secret-a-0123456789",
          scopes: "openid email profile groups",
        },
        owner.meta(),
      );
      await auth.setSsoGroupMappings(
        owner.member,
        providerId,
        [
          { idpGroup: "vigia-admins", role: "admin", teamId: null },
          { idpGroup: "compliance-analysts", role: null, teamId: analysts },
          { idpGroup: "legal", role: null, teamId: legal },
        ],
        owner.meta(),
      );
      await auth.claimSsoDomain(owner.member, "banco.example", owner.meta());
      expect(await auth.ssoProviderForEmail("luis@banco.example")).toBeNull();
      await auth.confirmSsoDomainByOwner(owner.member, "banco.example", owner.meta());
      // Not on before a test sign-in.
      await expect(auth.setSsoProviderEnabled(owner.member, providerId, true, owner.meta())).rejects.toMatchObject({
        code: "forbidden",
      });
      await expect(auth.beginSso(providerId)).rejects.toMatchObject({ code: "not_found" });
      idpA.state.user = { sub: "admin-1", email: "it@banco.example", name: "IT", groups: [] };
      const begun = await auth.beginSso(providerId, { test: { userId: owner.member.userId } });
      const tested = await auth.finishOidc(await browse(begun.url, callback), carrying(owner.meta(), begun.setCookies));
      expect(tested).toEqual({ kind: "tested", providerId });
      const [notCreated] = await app.database.db.select().from(user).where(eq(user.email, "it@banco.example"));
      expect(notCreated).toBeUndefined();
      await auth.setSsoProviderEnabled(owner.member, providerId, true, owner.meta());
      expect(await auth.ssoProviderForEmail("Luis@Banco.example")).toEqual({ id: providerId, name: "Entra ID" });
      expect(await auth.ssoProviderForEmail("luis@otro.example")).toBeNull();
    });

    it("the first sign-in creates the member with the mapped role and group; the next keeps them in step", async () => {
      const db = app.database.db;
      const first = await signInAs({
        sub: "luis-1",
        email: "Luis@banco.example",
        name: "Luis",
        groups: ["vigia-admins", "compliance-analysts"],
      });
      expect(first.outcome.kind).toBe("signed_in");
      expect(first.current?.email).toBe("luis@banco.example");
      const [row] = await db.select().from(member).where(eq(member.userId, first.current!.userId));
      expect(row).toMatchObject({ organizationId: owner.member.organizationId, role: "admin" });
      const teams = async () =>
        (
          await db
            .select({ teamId: teamMember.teamId })
            .from(teamMember)
            .where(eq(teamMember.userId, first.current!.userId))
        )
          .map((r) => r.teamId)
          .sort();
      expect(await teams()).toEqual([analysts]);

      const second = await signInAs({ sub: "luis-1", email: "luis@banco.example", name: "Luis", groups: ["legal"] });
      expect(second.current?.userId).toBe(first.current!.userId);
      const [after] = await db.select().from(member).where(eq(member.userId, first.current!.userId));
      expect(after?.role).toBe("member");
      expect(await teams()).toEqual([legal]);

      const events = (await listAuditEvents(db, owner.member.organizationId, { action: "sso.*", limit: 100 })).items;
      const signIns = events.filter((event) => event.action === "sso.sign_in");
      expect(signIns).toHaveLength(2);
      expect(signIns.map((event) => event.detail)).toContainEqual(
        expect.objectContaining({ idp: "Entra ID", subject: "luis-1", role: "member", roleBefore: "admin" }),
      );
      expect(events.filter((event) => event.action === "sso.provisioned")).toHaveLength(1);
    });

    it("counts the IdP's MFA only when the admin trusts it", async () => {
      const auth = app.services.auth;
      const strong = { sub: "marta-1", email: "marta@banco.example", name: "Marta", groups: [], amr: ["pwd", "otp"] };
      expect((await signInAs(strong)).current?.mfaVerified).toBe(false);
      await auth.updateSsoProvider(owner.member, providerId, { trustIdpMfa: true }, owner.meta());
      expect((await signInAs(strong)).current?.mfaVerified).toBe(true);
      expect((await signInAs({ ...strong, amr: ["pwd"] })).current?.mfaVerified).toBe(false);
      await auth.updateSsoProvider(owner.member, providerId, { trustIdpMfa: false }, owner.meta());
    });

    it("links an existing account with the same email only after its owner confirms", async () => {
      const auth = app.services.auth;
      const existing = await inviteMember(auth, owner, { email: "eva@banco.example", role: "member" });
      const attempt = await signInAs({ sub: "eva-1", email: "eva@banco.example", name: "Eva", groups: ["legal"] });
      expect(attempt.outcome.kind).toBe("link_pending");
      expect(attempt.current).toBeNull();
      const token = attempt.outcome.kind === "link_pending" ? attempt.outcome.token : "";
      const session = await auth.currentSession(existing.meta().headers);
      expect(await auth.confirmSsoLink(session!, token, existing.meta())).toBe(true);
      expect(await auth.confirmSsoLink(session!, token, existing.meta())).toBe(false);
      const again = await signInAs({ sub: "eva-1", email: "eva@banco.example", name: "Eva", groups: [] });
      expect(again.current?.userId).toBe(existing.member.userId);
    });

    it("asks for the product's own second factor after the IdP when its MFA is not trusted", async () => {
      const auth = app.services.auth;
      const marta = { sub: "marta-1", email: "marta@banco.example", name: "Marta", groups: [] };
      const first = await signInAs(marta);
      const current = first.current!;
      expect(current.mfaVerified).toBe(false);
      // An SSO account has no password: enrolment starts without one.
      expect(await auth.hasPassword(current.userId)).toBe(false);
      first.browser.take(await auth.startEnrolment(undefined, first.browser.meta()));
      const enrolment = await auth.enrolment((await auth.currentSession(first.browser.meta().headers))!);
      expect(enrolment?.totpURI).toMatch(/^otpauth:/);
      first.browser.take(await auth.confirmEnrolment(current, totpFromUri(enrolment!.totpURI), first.browser.meta()));
      expect((await auth.currentSession(first.browser.meta().headers))?.mfaVerified).toBe(true);
      // The next IdP sign-in: the member's own code, once.
      const next = await signInAs(marta);
      expect(next.current).toMatchObject({ mfaVerified: false, twoFactorEnabled: true });
      await expect(auth.verifySessionTotp(next.current!, "000000", next.browser.meta())).rejects.toMatchObject({
        code: "invalid_code",
      });
      await auth.verifySessionTotp(next.current!, totpFromUri(enrolment!.totpURI, 1), next.browser.meta());
      expect((await auth.currentSession(next.browser.meta().headers))?.mfaVerified).toBe(true);
    });

    it("'SSO required' refuses members' passwords and resets; the break-glass owner keeps password + TOTP", async () => {
      const auth = app.services.auth;
      const db = app.database.db;
      await expect(
        auth.setSsoPolicy(owner.member, { ssoRequired: true, breakGlassUserId: null }, owner.meta()),
      ).rejects.toMatchObject({ code: "forbidden" });
      const [eva] = await db.select().from(user).where(eq(user.email, "eva@banco.example"));
      await expect(
        auth.setSsoPolicy(owner.member, { ssoRequired: true, breakGlassUserId: eva!.id }, owner.meta()),
      ).rejects.toMatchObject({ code: "forbidden" });
      await auth.setSsoPolicy(owner.member, { ssoRequired: true, breakGlassUserId: owner.member.userId }, owner.meta());

      const meta = visitor().meta();
      await expect(auth.signIn("eva@banco.example", memberPassword, meta)).rejects.toMatchObject({
        code: "sso_required",
      });
      expect((await auth.signIn("ana@banco.example", memberPassword, meta)).value.next).toBe("second_factor");
      const resets = async (to: string) =>
        (await db.select().from(mailOutbox).where(eq(mailOutbox.to, to))).filter((m) => m.kind === "password_reset")
          .length;
      await auth.requestPasswordReset("eva@banco.example", meta);
      await auth.requestPasswordReset("ana@banco.example", meta);
      expect(await resets("eva@banco.example")).toBe(0);
      expect(await resets("ana@banco.example")).toBe(1);
      // Eva still signs in through the IdP (her account was linked).
      expect(
        (await signInAs({ sub: "eva-1", email: "eva@banco.example", name: "Eva", groups: [] })).current?.email,
      ).toBe("eva@banco.example");
      const events = (await listAuditEvents(db, owner.member.organizationId, { limit: 300 })).items;
      expect(events.find((e) => e.action === "sso.policy_changed")?.detail).toMatchObject({ ssoRequired: true });
      expect(events.find((e) => e.action === "auth.sign_in_failed")?.detail).toMatchObject({ reason: "sso_required" });
      await auth.setSsoPolicy(
        owner.member,
        { ssoRequired: false, breakGlassUserId: owner.member.userId },
        owner.meta(),
      );
      await expect(auth.signIn("eva@banco.example", memberPassword, meta)).resolves.toBeTruthy();
    });

    it("SCIM: a client creates, updates and deactivates a user and a group; deactivation ends sessions, tokens and feeds", async () => {
      const auth = app.services.auth;
      const db = app.database.db;
      const { token, id: scimTokenId } = await auth.createScimToken(owner.member, owner.meta());
      expect(token).toMatch(/^vn_scim_/);
      const scim = async (method: string, path: string, body?: unknown, bearer = token) => {
        const url = new URL(`${siteUrl}/scim/v2/${path}`);
        const [resource = "", id] = url.pathname.slice("/scim/v2/".length).split("/");
        const request = new Request(url, {
          method,
          headers: { authorization: `Bearer ${bearer}`, "content-type": "application/scim+json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const response = await scimRespond(auth, request, visitor().meta(), resource, id);
        const text = await response.text();
        return { status: response.status, body: (text ? JSON.parse(text) : null) as ScimAnswer };
      };
      expect((await scim("GET", "Users", undefined, "vn_scim_wrong")).status).toBe(401);

      const created = await scim("POST", "Users", {
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: "Paula@banco.example",
        name: { givenName: "Paula", familyName: "Ríos" },
        externalId: "00u-paula",
        active: true,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        userName: "paula@banco.example",
        displayName: "Paula Ríos",
        active: true,
        externalId: "00u-paula",
      });
      const paulaId = created.body.id;
      expect((await scim("POST", "Users", { userName: "paula@banco.example" })).status).toBe(409);
      const found = await scim("GET", `Users?filter=${encodeURIComponent('userName eq "paula@banco.example"')}`);
      expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: created.body.id }] });
      expect(
        (await scim("GET", `Users?filter=${encodeURIComponent('userName eq "nadie@banco.example"')}`)).body
          .totalResults,
      ).toBe(0);
      const patched = await scim("PATCH", `Users/${paulaId}`, {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "replace", path: "displayName", value: "Paula Ríos Gil" }],
      });
      expect(patched.body.displayName).toBe("Paula Ríos Gil");

      const group = await scim("POST", "Groups", {
        displayName: "Riesgos",
        members: [{ value: paulaId }],
        externalId: "g-1",
      });
      expect(group.status).toBe(201);
      expect(group.body.members.map((m) => m.value)).toEqual([paulaId]);
      const groupId = group.body.id;
      const removed = await scim("PATCH", `Groups/${groupId}`, {
        Operations: [
          { op: "remove", path: `members[value eq "${paulaId}"]` },
          { op: "replace", path: "displayName", value: "Riesgos y cumplimiento" },
        ],
      });
      expect(removed.body).toMatchObject({ displayName: "Riesgos y cumplimiento", members: [] });
      const added = await scim("PATCH", `Groups/${groupId}`, {
        Operations: [{ op: "add", path: "members", value: [{ value: paulaId }] }],
      });
      expect(added.body.members).toHaveLength(1);

      // Paula signs in through the IdP (her provisioned account is the IdP's), holds an API token and a calendar feed.
      const signedIn = await signInAs({
        sub: "paula-1",
        email: "paula@banco.example",
        name: "Paula",
        groups: ["vigia-admins"],
      });
      expect(signedIn.current?.userId).toBe(paulaId);
      const apiToken = await createApiToken(db, {
        organizationId: owner.member.organizationId,
        name: "paula",
        scope: "read",
        createdBy: paulaId,
      });
      expect(await authenticateToken(db, apiToken.token)).not.toBeNull();
      const feed = await createCalendarFeed(
        db,
        { organizationId: owner.member.organizationId, userId: paulaId },
        { actor: { id: paulaId, email: "paula@banco.example" } },
      );
      expect(await feedForToken(db, feed.token)).toBeDefined();

      // Entra ID's way of deactivating.
      const deactivated = await scim("PATCH", `Users/${paulaId}`, {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
        Operations: [{ op: "Replace", path: "active", value: "False" }],
      });
      expect(deactivated.body.active).toBe(false);
      expect(await auth.currentSession(signedIn.browser.meta().headers)).toBeNull();
      expect(await authenticateToken(db, apiToken.token)).toBeNull();
      expect(await feedForToken(db, feed.token)).toBeUndefined();
      await expect(
        signInAs({ sub: "paula-1", email: "paula@banco.example", name: "Paula", groups: [] }),
      ).rejects.toMatchObject({
        code: "sso_refused",
      });
      const [event] = (await listAuditEvents(db, owner.member.organizationId, { action: "scim.user_deactivated" }))
        .items;
      expect(event?.detail).toMatchObject({
        via: "scim",
        tokenId: scimTokenId,
        sessions: 1,
        apiTokens: 1,
        calendarFeeds: 1,
      });
      expect(event?.actor).toMatchObject({ id: owner.member.userId });

      expect((await scim("DELETE", `Groups/${groupId}`)).status).toBe(204);
      expect((await scim("GET", `Groups/${groupId}`)).status).toBe(404);
      expect((await scim("DELETE", `Users/${paulaId}`)).status).toBe(204);
      expect((await scim("GET", `Users/${paulaId}`)).status).toBe(404);
      expect(await auth.revokeScimToken(owner.member, scimTokenId, owner.meta())).toBe(true);
      expect((await scim("GET", "Groups")).status).toBe(401);
    });

    it("a user of another organisation's IdP never lands in this one, whatever the email says", async () => {
      const auth = app.services.auth;
      const created = await auth.createOrganizationWithOwnerInvitation({
        name: "Aseguradora",
        adminEmail: "olga@seguros.example",
        locale: "es",
      });
      const ownerB = await acceptOwnerInvitation(auth, created.url, { email: "olga@seguros.example" });
      const providerB = await auth.createSsoProvider(
        ownerB.member,
        {
          kind: "oidc",
          name: "Okta",
          issuer: idpB.issuer,
          clientId: "vigia-b",
          clientSecret: "secret-b-0123456789",
          scopes: "openid email profile groups",
        },
        ownerB.meta(),
      );
      idpB.state.user = { sub: "t", email: "t@seguros.example", name: "T", groups: [] };
      const begunB = await auth.beginSso(providerB, { test: { userId: ownerB.member.userId } });
      await auth.finishOidc(await browse(begunB.url, callback), carrying(ownerB.meta(), begunB.setCookies));
      await auth.setSsoProviderEnabled(ownerB.member, providerB, true, ownerB.meta());
      await auth.claimSsoDomain(ownerB.member, "seguros.example", ownerB.meta());
      await auth.confirmSsoDomainByOwner(ownerB.member, "seguros.example", ownerB.meta());
      // Banco's domain cannot be claimed again by the other organisation.
      await expect(auth.claimSsoDomain(ownerB.member, "banco.example", ownerB.meta())).rejects.toMatchObject({
        code: "email_taken",
      });

      // Org B's IdP says a Banco address: an existing Banco member, then a new Banco address.
      for (const email of ["luis@banco.example", "nuevo@banco.example"]) {
        await expect(
          signInAs({ sub: `x-${email}`, email, name: "X", groups: ["vigia-admins"] }, idpB, providerB),
        ).rejects.toMatchObject({
          code: "sso_refused",
        });
      }
      // Org A's IdP says a Seguros address.
      await expect(
        signInAs({ sub: "y-1", email: "olga@seguros.example", name: "Y", groups: [] }),
      ).rejects.toMatchObject({
        code: "sso_refused",
      });
      const bankMembers = await app.database.db
        .select()
        .from(member)
        .where(eq(member.organizationId, owner.member.organizationId));
      const [nuevo] = await app.database.db.select().from(user).where(eq(user.email, "nuevo@banco.example"));
      expect(nuevo).toBeUndefined();
      expect(bankMembers.map((row) => row.userId)).not.toContain(ownerB.member.userId);
      const refusedB = (
        await listAuditEvents(app.database.db, ownerB.member.organizationId, { action: "sso.sign_in_refused" })
      ).items;
      expect(refusedB).toHaveLength(2);
      expect(refusedB[0]?.detail).toMatchObject({ idp: "Okta" });
      const refusedA = (
        await listAuditEvents(app.database.db, owner.member.organizationId, { action: "sso.sign_in_refused" })
      ).items;
      expect(refusedA.map((event) => event.detail)).toContainEqual(
        expect.objectContaining({ reason: "email of an account outside the organisation" }),
      );
    });

    describe("SAML 2.0", () => {
      const keycloak = samlIdp("https://idp.banco.example/realms/banco");
      let samlId: string;
      let lastRefusal = "";

      async function samlSignIn(
        person: SamlPerson,
        options: { overrides?: SamlOverrides; tamper?: (xml: string) => string } = {},
      ) {
        const auth = app.services.auth;
        const browser = visitor();
        const begun = await auth.beginSso(samlId);
        browser.take(begun.setCookies);
        const metadata = (await auth.samlMetadata(samlId)) ?? "";
        const { samlResponse } = await keycloak.answer(begun.url, metadata, person, options.overrides);
        const posted = options.tamper ? encodeSaml(options.tamper(decodeSaml(samlResponse))) : samlResponse;
        return { browser, posted, outcome: () => auth.finishSaml(samlId, posted, browser.meta()) };
      }

      /** The attempt is refused, nothing is signed in, and the refusal is audited with the IdP and its reason. */
      async function expectRefused(attempt: Promise<unknown>, reason: RegExp) {
        await expect(attempt).rejects.toMatchObject({ code: "sso_refused" });
        const [event] = (
          await listAuditEvents(app.database.db, owner.member.organizationId, {
            action: "sso.sign_in_refused",
            limit: 1,
          })
        ).items;
        expect(event?.detail).toMatchObject({ idp: "Keycloak SAML", protocol: "saml" });
        const got = String((event?.detail as { reason?: string } | undefined)?.reason);
        expect(got).not.toBe(lastRefusal);
        expect(got).toMatch(reason);
        lastRefusal = got;
      }

      const luisa: SamlPerson = {
        nameId: "luisa@banco.example",
        email: "luisa@banco.example",
        name: "Luisa",
        groups: ["vigia-admins", "legal"],
      };

      it("signs in with a signed assertion: the member made with the mapped role and group, MFA only when trusted", async () => {
        const auth = app.services.auth;
        samlId = await auth.createSsoProvider(
          owner.member,
          {
            kind: "saml",
            name: "Keycloak SAML",
            entryPoint: keycloak.ssoUrl,
            idpEntityId: keycloak.entityId,
            certificate: keycloak.cert,
          },
          owner.meta(),
        );
        await auth.setSsoGroupMappings(
          owner.member,
          samlId,
          [
            { idpGroup: "vigia-admins", role: "admin", teamId: null },
            { idpGroup: "legal", role: null, teamId: legal },
          ],
          owner.meta(),
        );
        const metadata = await auth.samlMetadata(samlId);
        expect(metadata).toContain(`entityID="${siteUrl}/app/sso/saml/${samlId}"`);
        expect(metadata).toContain(`Location="${siteUrl}/app/sso/saml/${samlId}/acs"`);
        expect(metadata).toMatch(/WantAssertionsSigned="true"/);
        // The admin's test sign-in, then on.
        const begun = await auth.beginSso(samlId, { test: { userId: owner.member.userId } });
        const { samlResponse } = await keycloak.answer(begun.url, metadata ?? "", { ...luisa, nameId: "probe" });
        expect(await auth.finishSaml(samlId, samlResponse, carrying(owner.meta(), begun.setCookies))).toEqual({
          kind: "tested",
          providerId: samlId,
        });
        await auth.setSsoProviderEnabled(owner.member, samlId, true, owner.meta());

        const first = await samlSignIn(luisa);
        const outcome = await first.outcome();
        expect(outcome).toMatchObject({ kind: "signed_in", mfaVerified: false });
        if (outcome.kind === "signed_in") first.browser.take(outcome.setCookies);
        const current = await auth.currentSession(first.browser.meta().headers);
        expect(current?.email).toBe("luisa@banco.example");
        const [row] = await app.database.db.select().from(member).where(eq(member.userId, current!.userId));
        expect(row).toMatchObject({ organizationId: owner.member.organizationId, role: "admin" });
        const teams = await app.database.db.select().from(teamMember).where(eq(teamMember.userId, current!.userId));
        expect(teams.map((t) => t.teamId)).toEqual([legal]);

        const multi = "urn:oasis:names:tc:SAML:2.0:ac:classes:MultiFactor";
        expect(await (await samlSignIn({ ...luisa, classRef: multi })).outcome()).toMatchObject({ mfaVerified: false });
        await auth.updateSsoProvider(owner.member, samlId, { trustIdpMfa: true }, owner.meta());
        expect(await (await samlSignIn({ ...luisa, classRef: multi })).outcome()).toMatchObject({ mfaVerified: true });
        expect(await (await samlSignIn(luisa)).outcome()).toMatchObject({ mfaVerified: false });

        // The member's language (decision 0163): the IdP's preferredLanguage attribute when mapped,
        // else (no browser language here: the sign-in started without one) the organisation's.
        const localeOf = async (email: string) =>
          (await app.database.db.select({ locale: user.locale }).from(user).where(eq(user.email, email)))[0]?.locale;
        expect(await localeOf("luisa@banco.example")).toBe("es");
        const marc = { nameId: "marc@banco.example", email: "marc@banco.example", name: "Marc", groups: [] };
        expect(await (await samlSignIn({ ...marc, preferredLanguage: "en-GB" })).outcome()).toMatchObject({
          kind: "signed_in",
        });
        expect(await localeOf("marc@banco.example")).toBe("en");
      });

      it("sets a provider up from the IdP's metadata, by URL (through the guard) or pasted, with clear refusals", async () => {
        const auth = app.services.auth;
        // The IdP's metadata endpoint on loopback (allowed here by SSO_ALLOW_PRIVATE_IDP_URLS=1, as on the premises).
        const served = http.createServer((req, res) => {
          if (req.url === "/metadata") {
            res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(keycloak.metadata);
          } else res.writeHead(404).end("not here");
        });
        await new Promise<void>((resolve) => served.listen(0, "127.0.0.1", resolve));
        const base = `http://127.0.0.1:${(served.address() as AddressInfo).port}`;
        try {
          const byUrl = await auth.createSsoProvider(
            owner.member,
            { kind: "saml", name: "Keycloak (metadata URL)", metadataUrl: `${base}/metadata` },
            owner.meta(),
          );
          const byXml = await auth.createSsoProvider(
            owner.member,
            { kind: "saml", name: "Keycloak (pasted)", metadataXml: keycloak.metadata },
            owner.meta(),
          );
          for (const id of [byUrl, byXml]) {
            const [row] = await app.database.db.select().from(ssoProvider).where(eq(ssoProvider.id, id));
            expect(row).toMatchObject({
              samlIdpEntityId: keycloak.entityId,
              samlEntryPoint: keycloak.ssoUrl,
              enabled: false,
            });
            expect(row?.samlCertificate?.replace(/\s/g, "")).toBe(keycloak.cert.replace(/\s/g, ""));
          }
          const [created] = (
            await listAuditEvents(app.database.db, owner.member.organizationId, {
              action: "sso.provider_created",
              limit: 2,
            })
          ).items;
          expect(created?.detail).toMatchObject({
            protocol: "saml",
            from: "metadata_xml",
            entityId: keycloak.entityId,
          });
          // A provider made from metadata signs in (test first, as any other).
          const begun = await auth.beginSso(byUrl, { test: { userId: owner.member.userId } });
          const { samlResponse } = await keycloak.answer(begun.url, (await auth.samlMetadata(byUrl)) ?? "", luisa);
          expect(await auth.finishSaml(byUrl, samlResponse, carrying(owner.meta(), begun.setCookies))).toEqual({
            kind: "tested",
            providerId: byUrl,
          });

          const refusal = (input: Record<string, string>) =>
            auth.createSsoProvider(owner.member, { kind: "saml", name: "Broken", ...input }, owner.meta()).then(
              () => "created",
              (error: { code?: string }) => error.code,
            );
          expect(await refusal({ metadataUrl: `${base}/gone` })).toBe("saml_metadata_unreachable");
          expect(await refusal({ metadataUrl: "http://127.0.0.1:1/metadata" })).toBe("saml_metadata_unreachable");
          expect(await refusal({ metadataXml: (await auth.samlMetadata(byUrl)) ?? "" })).toBe("saml_metadata_not_idp");
          expect(
            await refusal({
              metadataXml: keycloak.metadata.replace(/<ds:X509Certificate>[^<]+/g, "<ds:X509Certificate>AAAA"),
            }),
          ).toBe("saml_certificate_invalid");
          expect(
            await refusal({
              entryPoint: keycloak.ssoUrl,
              idpEntityId: keycloak.entityId,
              certificate: "not a certificate",
            }),
          ).toBe("saml_certificate_invalid");
          expect(await refusal({ entryPoint: keycloak.ssoUrl, idpEntityId: "", certificate: keycloak.cert })).toBe(
            "saml_metadata_not_idp",
          );
          const names = (await app.database.db.select().from(ssoProvider)).map((row) => row.name);
          expect(names).not.toContain("Broken");
          // The settings page answers the admin's form with the message key of the refusal.
          const context = pageContext(app.database, owner.member, { auth: app.services.auth });
          const answered = await adminSso.action(
            pageRequest(
              "/app/admin/sso",
              context,
              {},
              { intent: "create-saml", name: "Broken", metadataXml: "<html>" },
            ) as unknown as Parameters<typeof adminSso.action>[0],
          );
          expect(answered).toMatchObject({ data: { formError: "saml_metadata_invalid" }, init: { status: 422 } });
          for (const id of [byUrl, byXml]) await app.database.db.delete(ssoProvider).where(eq(ssoProvider.id, id));
        } finally {
          await new Promise<void>((resolve) => served.close(() => resolve()));
        }
      });

      it("follows the IdP's certificate roll: metadata re-read after a failed signature (once per few minutes) and daily; forged answers still refused", async () => {
        const auth = app.services.auth;
        const entity = "https://idp.banco.example/realms/roll";
        const before = samlIdp(entity, "idp");
        const rolled = samlIdp(entity, "other");
        let current = before;
        let fetches = 0;
        let failing = false;
        const served = http.createServer((req, res) => {
          if (req.url !== "/metadata") return void res.writeHead(404).end();
          fetches++;
          if (failing) return void res.writeHead(503).end("down");
          res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(current.metadata);
        });
        await new Promise<void>((resolve) => served.listen(0, "127.0.0.1", resolve));
        const metadataUrl = `http://127.0.0.1:${(served.address() as AddressInfo).port}/metadata`;
        const id = await auth.createSsoProvider(
          owner.member,
          { kind: "saml", name: "Keycloak (roll)", metadataUrl },
          owner.meta(),
        );
        const row = async () => (await app.database.db.select().from(ssoProvider).where(eq(ssoProvider.id, id)))[0];
        /** An admin's test sign-in answered by `idp` (tampered with if asked). */
        const attempt = async (idp: ReturnType<typeof samlIdp>, tamper?: (xml: string) => string) => {
          const begun = await auth.beginSso(id, { test: { userId: owner.member.userId } });
          const { samlResponse } = await idp.answer(begun.url, (await auth.samlMetadata(id)) ?? "", {
            ...luisa,
            nameId: "probe",
          });
          const posted = tamper ? encodeSaml(tamper(decodeSaml(samlResponse))) : samlResponse;
          return auth.finishSaml(id, posted, carrying(owner.meta(), begun.setCookies));
        };
        const metadataAudits = async () =>
          (
            await listAuditEvents(app.database.db, owner.member.organizationId, {
              action: "sso.metadata_changed",
              limit: 10,
            })
          ).items;
        const flat = (pem: string | null | undefined) => (pem ?? "").replace(/\s/g, "");
        try {
          expect(fetches).toBe(1);
          expect((await row())?.samlMetadataFetchedAt).toBeInstanceOf(Date);
          expect(await attempt(before)).toEqual({ kind: "tested", providerId: id });

          // The IdP rolls to a new key: the first answer signed with it fails with the kept
          // certificate, the metadata is read again, and the answer is accepted.
          current = rolled;
          expect(await attempt(rolled)).toEqual({ kind: "tested", providerId: id });
          expect(fetches).toBe(2);
          expect(flat((await row())?.samlCertificate)).toBe(flat(rolled.cert));
          const [changed] = await metadataAudits();
          expect(changed?.actor).toBeNull();
          expect(changed?.detail).toMatchObject({
            idp: "Keycloak (roll)",
            protocol: "saml",
            reason: "signature_failed",
            entityId: entity,
            certificate: { to: expect.any(String), from: expect.any(String) },
          });

          // An answer signed with the old key, and an unsigned one, are refused, and do not make
          // the metadata be read again within the next few minutes.
          await expect(attempt(before)).rejects.toMatchObject({ code: "sso_refused" });
          await expect(
            attempt(rolled, (xml) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "")),
          ).rejects.toMatchObject({ code: "sso_refused" });
          expect(fetches).toBe(2);
          expect(flat((await row())?.samlCertificate)).toBe(flat(rolled.cert));
          expect(await metadataAudits()).toHaveLength(1);

          // The daily re-read (the kernel's job): a failing IdP leaves the certificate and says why
          // on the admins' page; once it answers again, a roll back is taken, audited as scheduled.
          failing = true;
          expect(await auth.refreshAllSamlMetadata()).toMatchObject({ failed: 1 });
          expect(await row()).toMatchObject({ samlMetadataError: "saml_metadata_unreachable" });
          expect(flat((await row())?.samlCertificate)).toBe(flat(rolled.cert));
          const context = pageContext(app.database, owner.member, { auth: app.services.auth });
          const page = await adminSso.loader(
            pageRequest("/app/admin/sso", context) as unknown as Parameters<typeof adminSso.loader>[0],
          );
          expect(page.providers.find((p) => p.id === id)?.metadata).toMatchObject({
            url: metadataUrl,
            fetchedAt: expect.any(String),
            error: "saml_metadata_unreachable",
          });
          failing = false;
          current = before;
          expect(await auth.refreshAllSamlMetadata()).toMatchObject({ changed: 1, failed: 0 });
          expect(await row()).toMatchObject({ samlMetadataError: null });
          expect(flat((await row())?.samlCertificate)).toBe(flat(before.cert));
          expect((await metadataAudits())[0]?.detail).toMatchObject({ reason: "scheduled" });
          expect(await attempt(before)).toEqual({ kind: "tested", providerId: id });
          // Metadata that now names another IdP is not taken.
          current = samlIdp("https://evil.example/idp", "other");
          expect(await auth.refreshAllSamlMetadata()).toMatchObject({ failed: 1 });
          expect(await row()).toMatchObject({ samlMetadataError: "saml_metadata_other_idp", samlIdpEntityId: entity });
          expect(flat((await row())?.samlCertificate)).toBe(flat(before.cert));
        } finally {
          await app.database.db.delete(ssoProvider).where(eq(ssoProvider.id, id));
          await new Promise<void>((resolve) => served.close(() => resolve()));
        }
      });

      it("refuses an unsigned assertion, signature wrapping, a wrong audience, an expired or replayed one, another request's answer, an XML entity", async () => {
        const auth = app.services.auth;
        // Unsigned: the IdP's signature taken out.
        await expectRefused(
          (
            await samlSignIn(luisa, { tamper: (xml) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "") })
          ).outcome(),
          /signature|not signed/i,
        );
        // Signed, but by a key that is not the configured certificate's (an impostor IdP with the same entity ID).
        const impostor = samlIdp(keycloak.entityId, "other");
        const begunByImpostor = await app.services.auth.beginSso(samlId);
        const browserOfImpostor = visitor();
        browserOfImpostor.take(begunByImpostor.setCookies);
        const forgedAnswer = await impostor.answer(begunByImpostor.url, (await auth.samlMetadata(samlId)) ?? "", luisa);
        await expectRefused(
          auth.finishSaml(samlId, forgedAnswer.samlResponse, browserOfImpostor.meta()),
          /signature|CERTIFICATE/i,
        );
        // Wrapping: the signed assertion hidden in Extensions, a forged one for someone else where it is read.
        await expectRefused(
          (
            await samlSignIn(luisa, {
              tamper: (xml) => {
                const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? "";
                const forged = signed
                  .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "")
                  .replaceAll("luisa@banco.example", "ana@banco.example")
                  .replace(/ID="[^"]+"/, 'ID="_forged"');
                return xml
                  .replace(signed, forged)
                  .replace("<samlp:Status>", `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
              },
            })
          ).outcome(),
          /2 assertions/,
        );
        // Signed by the IdP, but for another service provider.
        await expectRefused(
          (await samlSignIn(luisa, { overrides: { Audience: "https://otro-sp.example/saml" } })).outcome(),
          /audience/,
        );
        // Expired five minutes ago.
        const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
        await expectRefused(
          (
            await samlSignIn(luisa, {
              overrides: {
                ConditionsNotBefore: ago(10),
                ConditionsNotOnOrAfter: ago(5),
                SubjectConfirmationDataNotOnOrAfter: ago(5),
              },
            })
          ).outcome(),
          /SUBJECT_UNCONFIRMED|EXPIRED|validity window/,
        );
        // Replayed: the same good answer posted twice.
        const good = await samlSignIn(luisa);
        expect((await good.outcome()).kind).toBe("signed_in");
        await expectRefused(good.outcome(), /replayed/);
        // Another request's answer: one browser posts the answer to a request another browser started.
        const theirs = await samlSignIn(luisa);
        const mine = visitor();
        mine.take((await auth.beginSso(samlId)).setCookies);
        await expectRefused(auth.finishSaml(samlId, theirs.posted, mine.meta()), /InResponseTo/);
        // An XML entity (the classic way to smuggle a value past the signature, or read files).
        await expectRefused(
          (
            await samlSignIn(luisa, {
              tamper: (xml) =>
                `<!DOCTYPE samlp:Response [<!ENTITY who "ana@banco.example">]>${xml.replace("<saml:NameID", "<saml:NameID").replace(/luisa@banco\.example<\/saml:NameID>/, "&who;</saml:NameID>")}`,
            })
          ).outcome(),
          /DOCTYPE/,
        );
        // None of them signed anyone in as Ana.
        const signIns = (
          await listAuditEvents(app.database.db, owner.member.organizationId, { action: "sso.sign_in", limit: 200 })
        ).items;
        expect(signIns.filter((event) => (event.detail as { email?: string }).email === "ana@banco.example")).toEqual(
          [],
        );
      });
    });

    it("the settings page shows the values to copy and takes an admin's changes; a member is refused", async () => {
      const context = pageContext(app.database, owner.member, { auth: app.services.auth });
      const page = await adminSso.loader(
        pageRequest("/app/admin/sso?tested=x", context) as unknown as Parameters<typeof adminSso.loader>[0],
      );
      expect(page.callbackUrl).toBe(callback);
      expect(page.scimUrl).toBe(`${siteUrl}/scim/v2`);
      expect(page.providers.map((p) => p.name)).toEqual(expect.arrayContaining(["Entra ID", "Keycloak SAML"]));
      const saml = page.providers.find((p) => p.kind === "saml");
      expect(saml?.urls?.acsUrl).toBe(`${siteUrl}/app/sso/saml/${saml?.id}/acs`);
      expect(page.domains).toContainEqual(expect.objectContaining({ domain: "banco.example", verifiedBy: "owner" }));
      const claimed = await adminSso.action(
        pageRequest(
          "/app/admin/sso",
          context,
          {},
          { intent: "claim-domain", domain: "filial.banco.example" },
        ) as unknown as Parameters<typeof adminSso.action>[0],
      );
      expect(claimed).toEqual({ done: "saved" });
      const after = await adminSso.loader(
        pageRequest("/app/admin/sso", context) as unknown as Parameters<typeof adminSso.loader>[0],
      );
      expect(after.domains).toContainEqual(
        expect.objectContaining({
          domain: "filial.banco.example",
          verifiedAt: null,
          challenge: expect.stringMatching(/^vigia-domain=/),
        }),
      );
      const plain = pageContext(app.database, { ...owner.member, role: "member" }, { auth: app.services.auth });
      const refused = await settle(() =>
        adminSso.loader(pageRequest("/app/admin/sso", plain) as unknown as Parameters<typeof adminSso.loader>[0]),
      );
      expect((refused.thrown as { init?: { status?: number } } | undefined)?.init?.status).toBe(403);
    });
  });
}
