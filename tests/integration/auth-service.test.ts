/**
 * The auth policy in-process on PGlite (and PostgreSQL with TEST_DATABASE_URL): setup, TOTP
 * enrolment, sign-in with TOTP (no replay) and recovery codes, lockout, invitations, sessions,
 * roles, groups and the audit events they write.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken, listApiTokens, revokeApiToken } from "../../app/.server/api/tokens.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { verifyAuditChain } from "../../app/.server/audit/verify.ts";
import { mergeCookies } from "../../app/.server/auth/cookies.ts";
import { AuthError, type RequestMeta } from "../../app/.server/auth/service.ts";
import { mailOutbox } from "../../app/.server/db/schema/auth.ts";
import { startServices } from "../support/contact-services.ts";
import { databaseTargets } from "../support/postgres.ts";
import { totpFromUri } from "../support/totp.ts";

class Browser {
  cookie = "";
  readonly userAgent: string;
  constructor(userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36") {
    this.userAgent = userAgent;
  }
  meta(ip = "198.51.100.7"): RequestMeta {
    const headers = new Headers({ cookie: this.cookie, "user-agent": this.userAgent });
    return { headers, ip, userAgent: this.userAgent };
  }
  take(setCookies: readonly string[]) {
    this.cookie = mergeCookies(this.cookie, setCookies);
  }
}

const password = "tortuga-verde-lunes-27";

for (const target of databaseTargets()) {
  describe(`auth policy (${target.name})`, () => {
    let app: Awaited<ReturnType<typeof startServices>>;

    beforeAll(async () => {
      const url = await target.create();
      const env = url ? { DATABASE_URL: url } : {};
      app = await startServices({ ...env, AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123" });
    });
    afterAll(async () => {
      await app?.close();
      await target.cleanup();
    });

    it("runs setup, enrolment, sign-in with TOTP once, recovery codes once, and the lockout", async () => {
      const auth = app.services.auth;
      const setupUrl = readFileSync(path.join(app.config.dataDir, "setup-url.txt"), "utf8").trim();
      expect(setupUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/app\/setup\/[\w-]+$/);
      const token = setupUrl.split("/").at(-1)!;
      expect(await auth.setupTokenValid(token)).toBe(true);

      const owner = new Browser();
      await expect(
        auth.completeSetup(
          token,
          { organizationName: "Org A", name: "Ana", email: "ana@example.com", password: "password1234", locale: "es" },
          owner.meta(),
        ),
      ).rejects.toMatchObject({ code: "password_common" });
      owner.take(
        await auth.completeSetup(
          token,
          { organizationName: "Org A", name: "Ana", email: "Ana@Example.com", password, locale: "es" },
          owner.meta(),
        ),
      );
      expect(await auth.setupTokenValid(token)).toBe(false);

      let current = await auth.currentSession(owner.meta().headers);
      expect(current?.email).toBe("ana@example.com");
      expect(current?.mfaVerified).toBe(false);
      const enrolment = await auth.enrolment(current!);
      expect(enrolment?.totpURI).toMatch(/^otpauth:\/\/totp\//);
      expect(enrolment?.recoveryCodes).toHaveLength(10);
      await expect(auth.confirmEnrolment(current!, "000000", owner.meta())).rejects.toBeInstanceOf(AuthError);
      const enrolmentCode = totpFromUri(enrolment!.totpURI);
      owner.take(await auth.confirmEnrolment(current!, enrolmentCode, owner.meta()));
      current = await auth.currentSession(owner.meta().headers);
      expect(current?.mfaVerified).toBe(true);
      const member = await auth.memberOf(current!);
      expect(member?.role).toBe("owner");

      // A second browser: password, then the same code again is refused (replay), the next one works.
      const second = new Browser("Mozilla/5.0 (Macintosh) Firefox/131.0");
      const signIn = await auth.signIn("ana@example.com", password, second.meta());
      expect(signIn.value.next).toBe("second_factor");
      second.take(signIn.setCookies);
      // The enrolment's own code again (recomputing it could cross into the next 30-s window on a
      // slow machine and give a new, valid code): refused as a replay while it is still in its window.
      await expect(auth.verifySecondFactor("totp", enrolmentCode, second.meta())).rejects.toMatchObject({
        code: expect.stringMatching(/^(code_reused|invalid_code)$/),
      });
      const again = await auth.signIn("ana@example.com", password, second.meta());
      second.take(again.setCookies);
      await expect(auth.verifySecondFactor("totp", "123456", second.meta())).rejects.toMatchObject({
        code: "invalid_code",
      });
      const third = await auth.signIn("ana@example.com", password, second.meta());
      second.take(third.setCookies);
      const recovery = enrolment!.recoveryCodes[0]!;
      second.take(await auth.verifySecondFactor("recovery", recovery, second.meta()));
      const secondSession = await auth.currentSession(second.meta().headers);
      expect(secondSession?.mfaVerified).toBe(true);

      // The used recovery code fails next time.
      const fourth = new Browser("curl/8");
      fourth.take((await auth.signIn("ana@example.com", password, fourth.meta())).setCookies);
      await expect(auth.verifySecondFactor("recovery", recovery, fourth.meta())).rejects.toMatchObject({
        code: "invalid_code",
      });

      // Sessions: the owner ends the second browser's session; it is refused afterwards.
      const sessions = await auth.listSessions(current!.userId);
      expect(sessions.length).toBeGreaterThanOrEqual(2);
      expect(await auth.endSessions(current!, { sessionId: secondSession!.sessionId }, owner.meta())).toBe(1);
      expect(await auth.currentSession(second.meta().headers)).toBeNull();

      // Events of the day so far, in a chain that verifies.
      const events = await listAuditEvents(app.database.db, member!.organizationId, { limit: 1000 });
      const actions = events.items.map((event) => event.action);
      for (const action of [
        "organization.created",
        "member.joined",
        "mfa.enrolled",
        "auth.sign_in",
        "auth.sign_in_failed",
        "session.ended",
      ]) {
        expect(actions).toContain(action);
      }
      expect((await verifyAuditChain(app.database.db, member!.organizationId)).valid).toBe(true);

      // Lockout: more than 10 failures in 15 minutes refuse even the right password.
      const attacker = new Browser("attacker");
      let last: unknown;
      for (let i = 0; i < 11; i++) {
        last = await auth
          .signIn("ana@example.com", `wrong-password-${i}`, attacker.meta(`203.0.113.${i}`))
          .catch((e) => e);
      }
      expect(last).toMatchObject({ code: "locked" });
      await expect(auth.signIn("ana@example.com", password, attacker.meta("203.0.113.99"))).rejects.toMatchObject({
        code: "locked",
      });
      // The operator's MFA reset: sessions end, enrolment starts again at the next sign-in.
      expect(await auth.resetMfa("ana@example.com")).toBe(true);
      expect(await auth.currentSession(owner.meta().headers)).toBeNull();
      // Unknown accounts are answered alike.
      await expect(auth.signIn("nobody@example.com", password, attacker.meta("203.0.113.98"))).rejects.toMatchObject({
        code: "invalid_credentials",
      });
    });

    it("invites with a role, groups and a language; accepting joins them; admins manage members and groups", async () => {
      const auth = app.services.auth;
      const db = app.database.db;
      const ownerBrowser = new Browser();
      // A fresh owner through the invitation an operator creates.
      const org = await auth.createOrganizationWithOwnerInvitation({
        name: "Org B",
        adminEmail: "bea@example.com",
        locale: "en",
      });
      const ownerToken = org.url.split("/").at(-1)!;
      expect((await auth.findInvitation(ownerToken))?.role).toBe("owner");
      ownerBrowser.take(await auth.acceptInvitation(ownerToken, { name: "Bea", password }, ownerBrowser.meta()));
      expect(await auth.findInvitation(ownerToken)).toBeNull();
      let current = await auth.currentSession(ownerBrowser.meta().headers);
      const enrolment = await auth.enrolment(current!);
      ownerBrowser.take(await auth.confirmEnrolment(current!, totpFromUri(enrolment!.totpURI), ownerBrowser.meta()));
      current = await auth.currentSession(ownerBrowser.meta().headers);
      const owner = (await auth.memberOf(current!))!;
      expect(owner.organizationName).toBe("Org B");
      expect(owner.locale).toBe("en");

      const groupId = await auth.createGroup(owner, "Compliance", ownerBrowser.meta());
      const invited = await auth.invite(
        owner,
        { email: "carl@example.com", role: "member", locale: "es", groupIds: [groupId] },
        ownerBrowser.meta(),
      );
      const mails = await db.select().from(mailOutbox);
      const mail = mails.find((row) => row.to === "carl@example.com");
      expect(mail?.subject).toContain("Invitación a Org B");
      expect(mail?.text).toContain(invited.url);
      expect(mail?.html).toContain("Aceptar la invitación");

      const carl = new Browser("carl-agent");
      carl.take(await auth.acceptInvitation(invited.url.split("/").at(-1)!, { name: "Carl", password }, carl.meta()));
      const groups = await auth.listGroups(owner.organizationId);
      expect(groups[0]?.members.map((row) => row.email)).toEqual(["carl@example.com"]);
      const members = await auth.listMembers(owner.organizationId);
      const carlMember = members.find((row) => row.email === "carl@example.com")!;
      expect(carlMember.role).toBe("member");

      expect(await auth.changeRole(owner, carlMember.memberId, "admin", ownerBrowser.meta())).toBe(true);
      expect(await auth.setSuspended(owner, carlMember.memberId, true, ownerBrowser.meta())).toBe(true);
      expect(await auth.currentSession(carl.meta().headers)).toBeNull();
      await expect(auth.signIn("carl@example.com", password, carl.meta())).rejects.toMatchObject({
        code: "invalid_credentials",
      });
      expect(await auth.renameGroup(owner, groupId, "Legal", ownerBrowser.meta())).toBe(true);
      expect(await auth.deleteGroup(owner, groupId, ownerBrowser.meta())).toBe(true);

      // Revoked invitations cannot be accepted; resent ones get a new link.
      const revoked = await auth.invite(
        owner,
        { email: "dan@example.com", role: "member", locale: "en", groupIds: [] },
        ownerBrowser.meta(),
      );
      expect(await auth.revokeInvitation(owner, revoked.id, ownerBrowser.meta())).toBe(true);
      expect(await auth.findInvitation(revoked.url.split("/").at(-1)!)).toBeNull();

      // Another organisation's owner reaches none of Org B's objects by id (ids swapped in).
      const orgC = await auth.createOrganizationWithOwnerInvitation({
        name: "Org C",
        adminEmail: "cid@example.com",
        locale: "es",
      });
      const cid = new Browser("cid-agent");
      cid.take(await auth.acceptInvitation(orgC.url.split("/").at(-1)!, { name: "Cid", password }, cid.meta()));
      const other = (await auth.memberOf((await auth.currentSession(cid.meta().headers))!))!;
      expect(other.organizationId).not.toBe(owner.organizationId);
      const keptGroup = await auth.createGroup(owner, "Kept", ownerBrowser.meta());
      const pending = await auth.invite(
        owner,
        { email: "eve@example.com", role: "member", locale: "es", groupIds: [] },
        ownerBrowser.meta(),
      );
      const token = await createApiToken(db, {
        organizationId: owner.organizationId,
        name: "ci",
        scope: "read",
        createdBy: owner.userId,
      });
      expect(await auth.renameGroup(other, keptGroup, "Stolen", cid.meta())).toBe(false);
      expect(await auth.deleteGroup(other, keptGroup, cid.meta())).toBe(false);
      expect(await auth.setGroupMember(other, keptGroup, carlMember.memberId, true, cid.meta())).toBe(false);
      expect(await auth.changeRole(other, carlMember.memberId, "owner", cid.meta())).toBe(false);
      expect(await auth.setSuspended(other, carlMember.memberId, false, cid.meta())).toBe(false);
      expect(await auth.endMemberSessions(other, carlMember.memberId, cid.meta())).toBeNull();
      expect(await auth.revokeInvitation(other, pending.id, cid.meta())).toBe(false);
      expect(await auth.resendInvitation(other, pending.id, cid.meta())).toBe(false);
      expect(await revokeApiToken(db, other.organizationId, token.id)).toBe(false);
      expect(await auth.memberById(other.organizationId, carlMember.memberId)).toBeNull();
      expect((await auth.listMembers(other.organizationId)).map((row) => row.email)).toEqual(["cid@example.com"]);
      expect(await auth.listGroups(other.organizationId)).toEqual([]);
      expect(await listApiTokens(db, other.organizationId)).toEqual([]);
      const otherEvents = await listAuditEvents(db, other.organizationId, { limit: 1000 });
      expect(otherEvents.items.every((event) => event.organizationId === other.organizationId)).toBe(true);
      expect((await auth.listGroups(owner.organizationId)).map((group) => group.name)).toEqual(["Kept"]);

      // Org B's owner reaches nothing of Org A by id.
      const orgAEvents = await listAuditEvents(db, owner.organizationId, { limit: 1000 });
      expect(orgAEvents.items.every((event) => event.organizationId === owner.organizationId)).toBe(true);
      const actions = orgAEvents.items.map((event) => event.action);
      for (const action of [
        "member.invited",
        "member.joined",
        "group.created",
        "member.role_changed",
        "member.suspended",
        "group.renamed",
        "group.deleted",
        "invitation.revoked",
      ]) {
        expect(actions).toContain(action);
      }
    });
  });
}

describe("PLATFORM_ADMIN_EMAIL on a start with no organisation", () => {
  it("creates the organisation and queues its owner's invitation instead of a setup link", async () => {
    const app = await startServices({
      AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
      PLATFORM_ADMIN_EMAIL: "owner@example.com",
      PLATFORM_ORG_NAME: "Banco Ejemplo",
    });
    try {
      expect(existsSync(path.join(app.config.dataDir, "setup-url.txt"))).toBe(false);
      const mails = await app.database.db.select().from(mailOutbox);
      expect(mails.map((mail) => [mail.kind, mail.to])).toEqual([["invitation", "owner@example.com"]]);
      expect(mails[0]?.subject).toBe("Invitación a Banco Ejemplo en Vigía Normativo");
      const link = /\/app\/invite\/([\w-]+)/.exec(mails[0]?.text ?? "")?.[1];
      const invitation = await app.services.auth.findInvitation(link!);
      expect(invitation).toMatchObject({
        email: "owner@example.com",
        role: "owner",
        organizationName: "Banco Ejemplo",
      });
    } finally {
      await app.close();
    }
  }, 60_000);
});
