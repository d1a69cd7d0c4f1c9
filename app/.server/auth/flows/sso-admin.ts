/**
 * An organisation's admins set up its identity providers (issue 41): OIDC or SAML settings, the
 * IdP group table, switching a provider on after a test sign-in, claimed domains (DNS TXT proof or
 * the owner's confirmation, decision 0135) and the SSO policy. Every change is audited.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { symmetricEncrypt } from "better-auth/crypto";
import { and, asc, eq, inArray, isNull, ne } from "drizzle-orm";
import { member, session, team } from "../../db/schema/auth.ts";
import { ssoDomain, ssoGroupMapping, ssoPolicy, ssoProvider } from "../../db/schema/sso.ts";
import { validateOutboundUrl } from "../../net/outbound.ts";
import { type IdpMetadata, readCertificate, readIdpMetadata, SamlMetadataError } from "../../sso/saml-metadata.ts";
import { fetchSamlMetadata } from "../../sso/saml-metadata-fetch.ts";
import { isRole, type MemberInfo, type Role } from "../permissions.ts";
import { AuthError, type RequestMeta } from "../types.ts";
import { type AuthContext, auditByMember } from "./context.ts";

export interface OidcInput {
  kind: "oidc";
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes?: string;
}

/**
 * A SAML provider from its metadata (a URL fetched through the outbound guard, or the XML
 * pasted), or by hand (SSO URL, entity ID and certificate). Metadata wins when given.
 */
export interface SamlInput {
  kind: "saml";
  name: string;
  metadataUrl?: string;
  metadataXml?: string;
  entryPoint?: string;
  idpEntityId?: string;
  certificate?: string;
}

export type ProviderInput = (OidcInput | SamlInput) & { jit?: boolean; trustIdpMfa?: boolean; defaultRole?: Role };

export interface MappingInput {
  idpGroup: string;
  role: Role | null;
  teamId: string | null;
}

export const domainChallengeHost = (domain: string) => `_vigia-challenge.${domain}`;
const domainPattern = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function ssoAdminFlow(ctx: AuthContext) {
  const { db, config, secretConfig } = ctx;
  const policy = { allowPrivate: config.allowPrivateIdpUrls };
  /** TXT lookups for domain proofs: the system's resolvers, or SSO_DNS_SERVERS (a split-horizon DNS, a test). */
  const dns = new Resolver({ timeout: 3000, tries: 2 });
  if (config.ssoDnsServers.length > 0) dns.setServers([...config.ssoDnsServers]);
  const resolveTxt = (host: string) => dns.resolveTxt(host);

  function requireAdmin(actor: MemberInfo) {
    if (actor.role !== "owner" && actor.role !== "admin") throw new AuthError("forbidden");
  }

  async function ownProvider(actor: MemberInfo, id: string) {
    const [row] = await db
      .select()
      .from(ssoProvider)
      .where(and(eq(ssoProvider.id, id), eq(ssoProvider.organizationId, actor.organizationId)));
    if (!row) throw new AuthError("not_found");
    return row;
  }

  async function checkUrl(value: string) {
    const checked = await validateOutboundUrl(value, policy);
    if (!checked.ok) throw new AuthError("sso_unavailable");
    if (!policy.allowPrivate && new URL(value).protocol !== "https:") throw new AuthError("sso_unavailable");
  }

  /** The IdP's metadata at `url`, fetched through the outbound guard (private addresses per SSO_ALLOW_PRIVATE_IDP_URLS). */
  async function fetchMetadata(url: string): Promise<string> {
    await checkUrl(url);
    try {
      return await fetchSamlMetadata(policy, url);
    } catch (error) {
      ctx.log.warn({ url, err: (error as Error).message }, "SAML metadata not fetched");
      throw new AuthError("saml_metadata_unreachable");
    }
  }

  /** What a SAML provider keeps, from metadata or the admin's three values, each checked. */
  async function samlValues(input: SamlInput): Promise<IdpMetadata & { metadataUrl: string | null }> {
    const metadataUrl = input.metadataUrl?.trim() || null;
    const pasted = input.metadataXml?.trim() || null;
    try {
      if (metadataUrl || pasted) {
        const read = readIdpMetadata(metadataUrl ? await fetchMetadata(metadataUrl) : pasted!);
        await checkUrl(read.ssoUrl);
        return { ...read, metadataUrl };
      }
      const entityId = input.idpEntityId?.trim() ?? "";
      const ssoUrl = input.entryPoint?.trim() ?? "";
      if (!entityId || entityId.length > 1024) throw new SamlMetadataError("saml_metadata_not_idp", "no entity ID");
      if (!URL.canParse(ssoUrl)) throw new SamlMetadataError("saml_metadata_no_sso", "no SSO URL");
      await checkUrl(ssoUrl);
      const certificate = readCertificate(input.certificate ?? "");
      return { entityId, ssoUrl, certificate: certificate.pem, certificateValidTo: certificate.validTo, metadataUrl };
    } catch (error) {
      if (error instanceof SamlMetadataError) {
        ctx.log.info({ problem: error.problem, err: error.message }, "SAML provider settings refused");
        throw new AuthError(error.problem);
      }
      throw error;
    }
  }

  return {
    /** The IdP's values read from its metadata (for the admin to check before adding): nothing is kept. */
    async readSamlMetadata(actor: MemberInfo, input: { metadataUrl?: string; metadataXml?: string }) {
      requireAdmin(actor);
      return samlValues({ kind: "saml", name: "", ...input });
    },

    async createSsoProvider(actor: MemberInfo, input: ProviderInput, meta: RequestMeta): Promise<string> {
      requireAdmin(actor);
      const id = randomUUID();
      const common = {
        id,
        organizationId: actor.organizationId,
        kind: input.kind,
        name: input.name.trim().slice(0, 120),
        jit: input.jit ?? true,
        trustIdpMfa: input.trustIdpMfa ?? false,
        defaultRole: input.defaultRole && input.defaultRole !== "owner" ? input.defaultRole : "member",
      };
      if (input.kind === "oidc") {
        await checkUrl(input.issuer);
        const secret = await symmetricEncrypt({ key: await secretConfig(), data: input.clientSecret });
        await db.transaction(async (tx) => {
          await tx.insert(ssoProvider).values({
            ...common,
            oidcIssuer: input.issuer.trim(),
            oidcClientId: input.clientId.trim(),
            oidcClientSecret: secret,
            oidcScopes: input.scopes?.trim() || "openid email profile",
          });
          await auditByMember(
            tx,
            actor,
            meta,
            "sso.provider_created",
            { type: "sso_provider", id },
            {
              protocol: "oidc",
              issuer: input.issuer,
            },
          );
        });
      } else {
        const values = await samlValues(input);
        await db.transaction(async (tx) => {
          await tx.insert(ssoProvider).values({
            ...common,
            samlEntryPoint: values.ssoUrl,
            samlIdpEntityId: values.entityId,
            samlCertificate: values.certificate,
            samlMetadataUrl: values.metadataUrl,
            ...(values.metadataUrl ? { samlMetadataFetchedAt: new Date() } : {}),
          });
          await auditByMember(
            tx,
            actor,
            meta,
            "sso.provider_created",
            { type: "sso_provider", id },
            {
              protocol: "saml",
              entityId: values.entityId,
              from: values.metadataUrl ? "metadata_url" : input.metadataXml?.trim() ? "metadata_xml" : "manual",
              certificateValidTo: values.certificateValidTo.toISOString(),
            },
          );
        });
      }
      return id;
    },

    /** Settings that need no secret: JIT, MFA trust, default role. */
    async updateSsoProvider(
      actor: MemberInfo,
      id: string,
      input: { jit?: boolean; trustIdpMfa?: boolean; defaultRole?: Role },
      meta: RequestMeta,
    ): Promise<void> {
      requireAdmin(actor);
      const before = await ownProvider(actor, id);
      const changes = {
        ...(input.jit === undefined ? {} : { jit: input.jit }),
        ...(input.trustIdpMfa === undefined ? {} : { trustIdpMfa: input.trustIdpMfa }),
        ...(input.defaultRole && input.defaultRole !== "owner" ? { defaultRole: input.defaultRole } : {}),
      };
      await db.transaction(async (tx) => {
        await tx
          .update(ssoProvider)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(ssoProvider.id, id));
        await auditByMember(
          tx,
          actor,
          meta,
          "sso.provider_changed",
          { type: "sso_provider", id },
          {
            idp: before.name,
            ...changes,
          },
        );
      });
    },

    /** On only after a test sign-in succeeded. */
    async setSsoProviderEnabled(actor: MemberInfo, id: string, enabled: boolean, meta: RequestMeta): Promise<void> {
      requireAdmin(actor);
      const row = await ownProvider(actor, id);
      if (enabled && !row.testedAt) throw new AuthError("forbidden");
      await db.transaction(async (tx) => {
        await tx.update(ssoProvider).set({ enabled, updatedAt: new Date() }).where(eq(ssoProvider.id, id));
        await auditByMember(tx, actor, meta, enabled ? "sso.provider_enabled" : "sso.provider_disabled", {
          type: "sso_provider",
          id,
        });
      });
    },

    async setSsoGroupMappings(actor: MemberInfo, id: string, rows: MappingInput[], meta: RequestMeta): Promise<void> {
      requireAdmin(actor);
      await ownProvider(actor, id);
      const teams = await db.select({ id: team.id }).from(team).where(eq(team.organizationId, actor.organizationId));
      const own = new Set(teams.map((row) => row.id));
      const clean = rows
        .map((row) => ({
          idpGroup: row.idpGroup.trim().slice(0, 256),
          role: row.role && isRole(row.role) && row.role !== "owner" ? row.role : null,
          teamId: row.teamId && own.has(row.teamId) ? row.teamId : null,
        }))
        .filter((row) => row.idpGroup && (row.role || row.teamId));
      await db.transaction(async (tx) => {
        await tx.delete(ssoGroupMapping).where(eq(ssoGroupMapping.providerId, id));
        if (clean.length > 0) {
          await tx.insert(ssoGroupMapping).values(clean.map((row) => ({ id: randomUUID(), providerId: id, ...row })));
        }
        await auditByMember(tx, actor, meta, "sso.mapping_changed", { type: "sso_provider", id }, { rows: clean });
      });
    },

    async listSsoProviders(actor: MemberInfo) {
      requireAdmin(actor);
      const providers = await db
        .select()
        .from(ssoProvider)
        .where(eq(ssoProvider.organizationId, actor.organizationId))
        .orderBy(asc(ssoProvider.createdAt));
      const mappings = await db
        .select()
        .from(ssoGroupMapping)
        .innerJoin(ssoProvider, eq(ssoProvider.id, ssoGroupMapping.providerId))
        .where(eq(ssoProvider.organizationId, actor.organizationId));
      const domains = await db.select().from(ssoDomain).where(eq(ssoDomain.organizationId, actor.organizationId));
      const [policyRow] = await db.select().from(ssoPolicy).where(eq(ssoPolicy.organizationId, actor.organizationId));
      return {
        providers: providers.map(({ oidcClientSecret, ...rest }) => ({ ...rest, hasSecret: !!oidcClientSecret })),
        mappings: mappings.map((row) => row.sso_group_mapping),
        domains,
        policy: policyRow ?? { organizationId: actor.organizationId, ssoRequired: false, breakGlassUserId: null },
      };
    },

    /** Claims a domain: the TXT record to publish (or the owner's confirmation). */
    async claimSsoDomain(actor: MemberInfo, domain: string, meta: RequestMeta): Promise<{ challenge: string }> {
      requireAdmin(actor);
      const name = domain.trim().toLowerCase().replace(/\.$/, "");
      if (!domainPattern.test(name)) throw new AuthError("not_found");
      const challenge = `vigia-domain=${randomBytes(16).toString("hex")}`;
      const [taken] = await db.select().from(ssoDomain).where(eq(ssoDomain.domain, name));
      if (taken && taken.organizationId !== actor.organizationId) throw new AuthError("email_taken");
      if (taken) return { challenge: taken.challenge };
      await db.transaction(async (tx) => {
        await tx.insert(ssoDomain).values({ domain: name, organizationId: actor.organizationId, challenge });
        await auditByMember(tx, actor, meta, "sso.domain_claimed", { type: "sso_domain", id: name });
      });
      return { challenge };
    },

    /** Proves a claimed domain by its TXT record `_vigia-challenge.<domain>`. */
    async verifySsoDomainDns(actor: MemberInfo, domain: string, meta: RequestMeta): Promise<boolean> {
      requireAdmin(actor);
      const [row] = await db
        .select()
        .from(ssoDomain)
        .where(and(eq(ssoDomain.domain, domain), eq(ssoDomain.organizationId, actor.organizationId)));
      if (!row) throw new AuthError("not_found");
      const records = await resolveTxt(domainChallengeHost(domain)).catch(() => [] as string[][]);
      const proved = records.some((parts) => parts.join("") === row.challenge);
      if (!proved) return false;
      await db.transaction(async (tx) => {
        await tx
          .update(ssoDomain)
          .set({ verifiedAt: new Date(), verifiedBy: "dns" })
          .where(eq(ssoDomain.domain, domain));
        await auditByMember(tx, actor, meta, "sso.domain_verified", { type: "sso_domain", id: domain }, { by: "dns" });
      });
      return true;
    },

    /** The owner vouches for a domain without DNS (decision 0135): owners only, audited as such. */
    async confirmSsoDomainByOwner(actor: MemberInfo, domain: string, meta: RequestMeta): Promise<void> {
      if (actor.role !== "owner") throw new AuthError("forbidden");
      const updated = await db.transaction(async (tx) => {
        const rows = await tx
          .update(ssoDomain)
          .set({ verifiedAt: new Date(), verifiedBy: "owner" })
          .where(and(eq(ssoDomain.domain, domain), eq(ssoDomain.organizationId, actor.organizationId)))
          .returning({ domain: ssoDomain.domain });
        if (rows[0]) {
          await auditByMember(
            tx,
            actor,
            meta,
            "sso.domain_verified",
            { type: "sso_domain", id: domain },
            { by: "owner" },
          );
        }
        return rows.length;
      });
      if (updated === 0) throw new AuthError("not_found");
    },

    /** "SSO required" and the one break-glass owner who keeps password + TOTP. Owners only. */
    async setSsoPolicy(
      actor: MemberInfo,
      input: { ssoRequired: boolean; breakGlassUserId: string | null },
      meta: RequestMeta,
    ): Promise<void> {
      if (actor.role !== "owner") throw new AuthError("forbidden");
      if (input.breakGlassUserId) {
        const [owner] = await db
          .select({ role: member.role })
          .from(member)
          .where(and(eq(member.organizationId, actor.organizationId), eq(member.userId, input.breakGlassUserId)));
        if (owner?.role !== "owner") throw new AuthError("forbidden");
      }
      if (input.ssoRequired && !input.breakGlassUserId) throw new AuthError("forbidden");
      await db.transaction(async (tx) => {
        await tx
          .insert(ssoPolicy)
          .values({ organizationId: actor.organizationId, ...input, updatedAt: new Date() })
          .onConflictDoUpdate({ target: ssoPolicy.organizationId, set: { ...input, updatedAt: new Date() } });
        // Required from now on: the members' password sessions end (their next request signs them out);
        // sessions opened through an IdP and the break-glass owner's stay.
        const ended = input.ssoRequired
          ? await tx
              .delete(session)
              .where(
                and(
                  isNull(session.ssoProviderId),
                  inArray(
                    session.userId,
                    tx
                      .select({ userId: member.userId })
                      .from(member)
                      .where(eq(member.organizationId, actor.organizationId)),
                  ),
                  input.breakGlassUserId ? ne(session.userId, input.breakGlassUserId) : undefined,
                ),
              )
              .returning({ userId: session.userId })
          : [];
        await auditByMember(
          tx,
          actor,
          meta,
          "sso.policy_changed",
          { type: "organization", id: actor.organizationId },
          {
            ...input,
            passwordSessionsEnded: ended.length,
            membersSignedOut: new Set(ended.map((row) => row.userId)).size,
          },
        );
      });
    },
  };
}
