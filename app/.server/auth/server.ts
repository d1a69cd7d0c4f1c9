/**
 * better-auth on the project's database (Drizzle adapter, provider "pg": PGlite or PostgreSQL)
 * with email and password, twoFactor (TOTP, 10 backup codes), passkey, organization (teams are
 * our groups) and admin. The project's policy (mandatory MFA, lockout, setup, invitations,
 * audit events) is layered on top in ./service.ts and the /app middleware. better-auth's own HTTP
 * handler is not mounted: every call, the passkey ceremonies' included, goes through ./service.ts
 * so that nothing reaches the library around the lockout, the limits and the audit trail.
 */
import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, organization, twoFactor } from "better-auth/plugins";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import * as authSchema from "../db/schema/auth.ts";

export const authBasePath = "/app/api/auth";
/** Session lifetime: absolute 7 days (enforced from createdAt by the /app middleware too). */
export const sessionAbsoluteSeconds = 7 * 24 * 3600;
/** Idle timeout: a session not seen for 12 hours ends. */
export const sessionIdleSeconds = 12 * 3600;
export const minPasswordLength = 12;

export interface AuthHooks {
  /** Queue the password-reset mail (the link is single-use and valid 1 h). */
  sendResetPassword(data: {
    user: { id: string; email: string; name: string };
    url: string;
    token: string;
  }): Promise<void>;
}

export function createAuth(config: Config, db: Db, hooks: AuthHooks) {
  const site = new URL(config.siteUrl);
  const secure = site.protocol === "https:";
  return betterAuth({
    appName: "Vigía Normativo",
    baseURL: config.siteUrl,
    basePath: authBasePath,
    secret: config.authSecret,
    trustedOrigins: [site.origin],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: authSchema.user,
        session: authSchema.session,
        account: authSchema.account,
        verification: authSchema.verification,
        twoFactor: authSchema.twoFactor,
        passkey: authSchema.passkey,
        organization: authSchema.organization,
        team: authSchema.team,
        teamMember: authSchema.teamMember,
        member: authSchema.member,
        invitation: authSchema.invitation,
      },
    }),
    user: {
      additionalFields: {
        locale: { type: "string", required: false, defaultValue: "es", input: false },
      },
    },
    session: {
      expiresIn: sessionAbsoluteSeconds,
      // Refresh the row (its updatedAt is "last seen") at most every 5 minutes.
      updateAge: 300,
      additionalFields: {
        mfaVerifiedAt: { type: "date", required: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      // Accounts come from setup and invitations only.
      disableSignUp: true,
      minPasswordLength,
      maxPasswordLength: 256,
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url, token }) => hooks.sendResetPassword({ user, url, token }),
    },
    // Our own limits (per account and per IP) live in ./limits.ts.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "vn",
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      ipAddress: { ipAddressHeaders: ["x-vn-client-ip"] },
    },
    telemetry: { enabled: false },
    // Failures are ours to log and audit (./service.ts); the library reports only errors.
    logger: { level: "error" },
    plugins: [
      twoFactor({
        issuer: "Vigía Normativo",
        backupCodeOptions: { amount: 10, length: 10 },
        // A password is asked only of accounts that have one: SSO accounts (issue 41) enrol without.
        allowPasswordless: true,
      }),
      passkey({ rpID: site.hostname, rpName: "Vigía Normativo", origin: site.origin }),
      organization({
        teams: { enabled: true, allowRemovingAllTeams: true },
        allowUserToCreateOrganization: false,
        invitationExpiresIn: 7 * 24 * 3600,
      }),
      admin(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
