/**
 * Sign-in through the organisation's identity provider (issue 41): the email's claimed domain
 * routes to its provider, the IdP answers (OIDC callback, SAML ACS), the account is found, made
 * just in time or offered for linking, the IdP groups are applied, and a session starts. Every
 * outcome, refusals included, is audited with the IdP and the subject.
 */
import { randomUUID } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import type { Locale } from "../../../i18n/locales.ts";
import { user } from "../../db/schema/auth.ts";
import {
  samlAssertionUsed,
  ssoDomain,
  ssoIdentity,
  ssoPendingLink,
  ssoProvider,
  ssoRequest,
} from "../../db/schema/sso.ts";
import { type IdpIdentity, SsoRefused } from "../../sso/identity.ts";
import { oidcClient } from "../../sso/oidc.ts";
import type * as Saml from "../../sso/saml.ts";
import { AuthError, hashSecretToken, type RequestMeta, type SessionInfo } from "../types.ts";
import type { AuthContext } from "./context.ts";
import { auditSso, type ProviderRow, ssoAccounts } from "./sso-accounts.ts";
import { samlMetadataFlow } from "./sso-metadata.ts";

/**
 * SAML's libraries (samlify, xmllint compiled to JavaScript, XML signature and X.509 code) load at
 * the first SAML request, not at every start: about 10 MB of V8 heap and 10-30 MB of resident
 * memory that a server whose organisations use no SAML never needs (decision 0158).
 */
let samlModule: Promise<typeof Saml> | undefined;
const loadSaml = () => {
  samlModule ??= import("../../sso/saml.ts");
  return samlModule;
};

const requestMinutes = 10;
const requestCookie = "vn.sso_request";

/**
 * The cookie that binds an SSO request to the browser that started it (decision 0136). The SAML
 * answer comes back as a cross-site POST from the IdP's page: browsers send a cookie on it only
 * when it is SameSite=None, which they accept only with Secure, i.e. over https. Over plain http
 * (development) it is SameSite=Lax: OIDC's callback (a top-level GET) still carries it, the SAML
 * ACS POST does not, and SAML sign-in is refused there as an answer to another browser's request.
 */
export function ssoRequestCookie(id: string, siteUrl: string): string {
  const secure = new URL(siteUrl).protocol === "https:";
  return `${requestCookie}=${encodeURIComponent(id)}; Max-Age=${requestMinutes * 60}; Path=/app/sso; HttpOnly; ${
    secure ? "SameSite=None; Secure" : "SameSite=Lax"
  }`;
}

/** The request this browser started (a cookie), so that an answer to someone else's request is refused. */
function requestOfBrowser(meta: RequestMeta): string | null {
  const match = /(?:^|;\s*)vn\.sso_request=([^;]*)/.exec(meta.headers.get("cookie") ?? "");
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

export type SsoOutcome =
  | { kind: "signed_in"; setCookies: string[]; next: string; mfaVerified: boolean }
  | { kind: "tested"; providerId: string }
  | { kind: "link_pending"; token: string };

export function ssoFlow(ctx: AuthContext) {
  const { db, config, appUrl, secretConfig } = ctx;
  const accounts = ssoAccounts(ctx);
  const metadata = samlMetadataFlow(ctx);
  const oidc = oidcClient(config.allowPrivateIdpUrls);
  const oidcCallback = () => appUrl("/app/sso/oidc/callback");
  const bindCookie = (id: string) => ssoRequestCookie(id, config.siteUrl);
  let samlProvider: ReturnType<typeof Saml.samlServiceProvider> | undefined;
  const saml = async () => {
    samlProvider ??= (await loadSaml()).samlServiceProvider();
    return samlProvider;
  };
  /** The SP's entity ID (also its metadata URL) and ACS, one pair per provider. */
  const samlUrls = (id: string) => ({
    spEntityId: appUrl(`/app/sso/saml/${id}`),
    acsUrl: appUrl(`/app/sso/saml/${id}/acs`),
  });
  function samlSettings(provider: ProviderRow) {
    if (!provider.samlEntryPoint || !provider.samlIdpEntityId || !provider.samlCertificate) {
      throw new SsoRefused("provider not configured");
    }
    return {
      ...samlUrls(provider.id),
      idpEntityId: provider.samlIdpEntityId,
      entryPoint: provider.samlEntryPoint,
      certificate: provider.samlCertificate,
    };
  }

  async function providerById(id: string): Promise<ProviderRow | null> {
    const [row] = await db.select().from(ssoProvider).where(eq(ssoProvider.id, id));
    return row ?? null;
  }

  async function oidcSettings(provider: ProviderRow) {
    if (!provider.oidcIssuer || !provider.oidcClientId || !provider.oidcClientSecret) {
      throw new SsoRefused("provider not configured");
    }
    const clientSecret = await symmetricDecrypt({ key: await secretConfig(), data: provider.oidcClientSecret });
    return { issuer: provider.oidcIssuer, clientId: provider.oidcClientId, clientSecret, scopes: provider.oidcScopes };
  }

  /**
   * The SAML answer checked against the provider's certificate; when its signature fails and the
   * provider was set up by metadata URL, the IdP may have rolled its certificate: the metadata is
   * read again (at most once per few minutes per provider, decision 0163) and, if it changed, the
   * answer is checked once more against the new one. Anything else is refused as before.
   */
  async function samlAnswer(provider: ProviderRow, encoded: string, requestId: string) {
    const sp = await saml();
    try {
      return await sp.finish(samlSettings(provider), encoded, requestId);
    } catch (error) {
      const signatureFailed = error instanceof SsoRefused && /signature|certificate/i.test(error.reason);
      if (!signatureFailed || !provider.samlMetadataUrl) throw error;
      if ((await metadata.refreshSamlMetadata(provider.id, "signature_failed")) !== "changed") throw error;
      const refreshed = await providerById(provider.id);
      if (!refreshed) throw error;
      return await sp.finish(samlSettings(refreshed), encoded, requestId);
    }
  }

  /** The one-time request a callback answers: consumed here, whatever follows. */
  async function takeRequest(id: string) {
    await db.delete(ssoRequest).where(lt(ssoRequest.expiresAt, new Date()));
    const [row] = await db
      .delete(ssoRequest)
      .where(and(eq(ssoRequest.id, id), gt(ssoRequest.expiresAt, new Date())))
      .returning();
    return row ?? null;
  }

  /** After the IdP vouched for `identity`: account, mapping, session (or a test's result). */
  async function complete(
    provider: ProviderRow,
    request: typeof ssoRequest.$inferSelect,
    identity: IdpIdentity,
    meta: RequestMeta,
  ): Promise<SsoOutcome> {
    const subject = { subject: identity.subject, email: identity.email };
    if (request.purpose === "test") {
      await db.transaction(async (tx) => {
        await tx.update(ssoProvider).set({ testedAt: new Date() }).where(eq(ssoProvider.id, provider.id));
        await auditSso(tx, provider, null, "sso.tested", meta, {
          ...subject,
          groups: identity.groups,
          mfa: identity.mfa,
        });
      });
      return { kind: "tested", providerId: provider.id };
    }
    if (!provider.enabled) throw new SsoRefused("provider switched off");
    const outcome = await db.transaction(async (tx) => {
      const found = await accounts.resolve(tx, provider, identity, request.locale);
      if (found.kind === "link") {
        await auditSso(tx, provider, null, "sso.link_pending", meta, subject);
        return found;
      }
      const [row] = await tx.select({ banned: user.banned }).from(user).where(eq(user.id, found.userId));
      if (row?.banned) throw new SsoRefused("member suspended");
      const applied = await accounts.applyMapping(tx, provider, found.userId, identity.groups);
      await tx
        .update(ssoIdentity)
        .set({ lastSignInAt: new Date() })
        .where(and(eq(ssoIdentity.providerId, provider.id), eq(ssoIdentity.subject, identity.subject)));
      const mfaVerified = provider.trustIdpMfa && identity.mfa;
      const actor = { id: found.userId, email: identity.email };
      if (found.provisioned) {
        await auditSso(tx, provider, actor, "sso.linked", meta, { ...subject, provisioned: true });
      }
      if (found.created)
        await auditSso(tx, provider, actor, "sso.provisioned", meta, {
          ...subject,
          role: applied.role,
          locale: found.locale,
        });
      await auditSso(tx, provider, actor, "sso.sign_in", meta, {
        ...subject,
        role: applied.role,
        ...(applied.previousRole && applied.previousRole !== applied.role ? { roleBefore: applied.previousRole } : {}),
        groups: applied.groups,
        mfa: identity.mfaEvidence,
        mfaTrusted: mfaVerified,
      });
      return { kind: "user" as const, userId: found.userId, mfaVerified };
    });
    if (outcome.kind === "link") return { kind: "link_pending", token: outcome.token };
    const setCookies = await accounts.startSession(outcome.userId, provider.id, outcome.mfaVerified, meta);
    return { kind: "signed_in", setCookies, next: request.next ?? "/app", mfaVerified: outcome.mfaVerified };
  }

  /** A refusal after the IdP answered: audited on the provider's organisation, then AuthError. */
  async function refuse(
    provider: ProviderRow,
    reason: string,
    meta: RequestMeta,
    detail: Record<string, unknown> = {},
  ) {
    await auditSso(db, provider, null, "sso.sign_in_refused", meta, { reason, ...detail });
    ctx.log.info({ providerId: provider.id, reason }, "SSO sign-in refused");
    return new AuthError("sso_refused");
  }

  return {
    /** The enabled provider for an email's claimed (proved) domain, if any: the sign-in page's routing. */
    async ssoProviderForEmail(email: string): Promise<{ id: string; name: string } | null> {
      const domain = email.trim().toLowerCase().split("@")[1];
      if (!domain) return null;
      const [row] = await db
        .select({ id: ssoProvider.id, name: ssoProvider.name, verifiedAt: ssoDomain.verifiedAt })
        .from(ssoDomain)
        .innerJoin(ssoProvider, eq(ssoProvider.organizationId, ssoDomain.organizationId))
        .where(and(eq(ssoDomain.domain, domain), eq(ssoProvider.enabled, true)))
        .limit(1);
      return row?.verifiedAt ? { id: row.id, name: row.name } : null;
    },

    /**
     * Starts a sign-in (or an admin's test sign-in) at the provider: the URL to send the browser to.
     * `locale`: the browser's language (its locale cookie or Accept-Language), kept with the request
     * for a member made at this sign-in when the IdP names none (decision 0163).
     */
    async beginSso(
      providerId: string,
      options: { next?: string; test?: { userId: string }; locale?: Locale | undefined } = {},
    ): Promise<{ url: string; setCookies: string[] }> {
      const provider = await providerById(providerId);
      if (!provider || (!options.test && !provider.enabled)) throw new AuthError("not_found");
      if (options.test && provider.kind !== "oidc" && provider.kind !== "saml") throw new AuthError("not_found");
      const expiresAt = new Date(Date.now() + requestMinutes * 60_000);
      const base = {
        providerId,
        purpose: options.test ? ("test" as const) : ("sign_in" as const),
        next: options.next ?? null,
        userId: options.test?.userId ?? null,
        locale: options.locale ?? null,
        expiresAt,
      };
      if (provider.kind === "oidc") {
        const begun = await oidc.begin(await oidcSettings(provider), oidcCallback()).catch((error: Error) => {
          ctx.log.warn({ providerId, err: error.message }, "OIDC discovery failed");
          throw new AuthError("sso_unavailable");
        });
        await db.insert(ssoRequest).values({
          ...base,
          id: begun.state,
          nonce: begun.nonce,
          codeVerifier: begun.codeVerifier,
        });
        return { url: begun.url, setCookies: [bindCookie(begun.state)] };
      }
      let begun: { id: string; url: string };
      try {
        begun = (await saml()).begin(samlSettings(provider));
      } catch (error) {
        ctx.log.warn({ providerId, err: (error as Error).message }, "SAML request failed");
        throw new AuthError("sso_unavailable");
      }
      await db.insert(ssoRequest).values({ ...base, id: begun.id });
      return { url: begun.url, setCookies: [bindCookie(begun.id)] };
    },

    /** The OIDC callback (GET /app/sso/oidc/callback?code&state). */
    async finishOidc(callbackUrl: URL, meta: RequestMeta): Promise<SsoOutcome> {
      const state = callbackUrl.searchParams.get("state") ?? "";
      const request = state ? await takeRequest(state) : null;
      if (!request) throw new AuthError("sso_refused");
      const provider = await providerById(request.providerId);
      if (provider?.kind !== "oidc") throw new AuthError("sso_refused");
      try {
        if (requestOfBrowser(meta) !== request.id) throw new SsoRefused("oidc: state of another browser's request");
        const url = new URL(oidcCallback());
        url.search = callbackUrl.search;
        const identity = await oidc.finish(await oidcSettings(provider), url, {
          state: request.id,
          nonce: request.nonce ?? "",
          codeVerifier: request.codeVerifier ?? "",
        });
        return await complete(provider, request, identity, meta);
      } catch (error) {
        if (error instanceof SsoRefused) throw await refuse(provider, error.reason, meta);
        throw error;
      }
    },

    /** The SP metadata to give the IdP (entity ID, ACS, signed assertions wanted). */
    async samlMetadata(providerId: string): Promise<string | null> {
      const provider = await providerById(providerId);
      return provider?.kind === "saml" ? (await saml()).metadata(samlUrls(provider.id)) : null;
    },

    samlUrls,

    /**
     * The ACS (POST /app/sso/saml/:id/acs): the answer to a request we sent for this provider,
     * every check of sso/saml.ts, each assertion once.
     */
    async finishSaml(providerId: string, encoded: string, meta: RequestMeta): Promise<SsoOutcome> {
      const provider = await providerById(providerId);
      if (provider?.kind !== "saml") throw new AuthError("sso_refused");
      try {
        const { response, assertion } = (await loadSaml()).samlEnvelope(encoded);
        const assertionId = String(assertion["@ID"] ?? "");
        const [used] = await db.select().from(samlAssertionUsed).where(eq(samlAssertionUsed.id, assertionId));
        if (used) throw new SsoRefused("saml: assertion replayed");
        const inResponseTo = String(response["@InResponseTo"] ?? "");
        if (!inResponseTo || requestOfBrowser(meta) !== inResponseTo) {
          throw new SsoRefused("saml: InResponseTo of another request");
        }
        const request = await takeRequest(inResponseTo);
        if (request?.providerId !== provider.id) throw new SsoRefused("saml: InResponseTo of no request of ours");
        const answer = await samlAnswer(provider, encoded, request.id);
        await db.delete(samlAssertionUsed).where(lt(samlAssertionUsed.expiresAt, new Date()));
        const fresh = await db
          .insert(samlAssertionUsed)
          .values({ id: answer.assertionId, providerId: provider.id, expiresAt: answer.expiresAt })
          .onConflictDoNothing()
          .returning({ id: samlAssertionUsed.id });
        if (fresh.length === 0) throw new SsoRefused("saml: assertion replayed");
        return await complete(provider, request, answer.identity, meta);
      } catch (error) {
        if (error instanceof SsoRefused) throw await refuse(provider, error.reason, meta);
        throw error;
      }
    },

    /** The existing account's owner, signed in with their own factors, accepts the IdP link. */
    async confirmSsoLink(current: SessionInfo, token: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [pending] = await tx
          .delete(ssoPendingLink)
          .where(and(eq(ssoPendingLink.tokenHash, hashSecretToken(token)), gt(ssoPendingLink.expiresAt, new Date())))
          .returning();
        if (!pending || pending.userId !== current.userId || !current.mfaVerified) return false;
        const [provider] = await tx.select().from(ssoProvider).where(eq(ssoProvider.id, pending.providerId));
        if (!provider) return false;
        await tx
          .insert(ssoIdentity)
          .values({ providerId: provider.id, subject: pending.subject, userId: current.userId })
          .onConflictDoNothing();
        await accounts.applyMapping(tx, provider, current.userId, JSON.parse(pending.groups) as string[]);
        await auditSso(tx, provider, { id: current.userId, email: current.email }, "sso.linked", meta, {
          subject: pending.subject,
          email: current.email,
        });
        return true;
      });
    },

    /** New ids for SAML requests (kept here so both protocols share the request table). */
    newSsoRequestId: () => `_${randomUUID()}`,
  };
}
