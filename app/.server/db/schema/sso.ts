/**
 * Enterprise identity (issue 41): an organisation's identity providers (OIDC or SAML 2.0), the
 * email domains it claims, the IdP group → role/group table, the IdP subjects linked to users,
 * sign-in requests in flight (one-time), SAML assertions already used, links waiting for the
 * account owner, the organisation's SSO policy, and SCIM bearer tokens.
 */
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organization, team, user } from "./auth.ts";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const ssoProvider = pgTable(
  "sso_provider",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"oidc" | "saml">().notNull(),
    name: text("name").notNull(),
    /** Off until a test sign-in succeeded and an admin switched it on. */
    enabled: boolean("enabled").notNull().default(false),
    testedAt: at("tested_at"),
    oidcIssuer: text("oidc_issuer"),
    oidcClientId: text("oidc_client_id"),
    /** Encrypted with the auth secret (better-auth's symmetricEncrypt). */
    oidcClientSecret: text("oidc_client_secret"),
    oidcScopes: text("oidc_scopes").notNull().default("openid email profile"),
    samlEntryPoint: text("saml_entry_point"),
    samlIdpEntityId: text("saml_idp_entity_id"),
    samlCertificate: text("saml_certificate"),
    samlMetadataUrl: text("saml_metadata_url"),
    /** The last time the metadata URL was read successfully (decision 0163: re-read daily and on a failed signature). */
    samlMetadataFetchedAt: at("saml_metadata_fetched_at"),
    /** The last attempt to read it, successful or not (at most one refetch per few minutes after a failed signature). */
    samlMetadataAttemptedAt: at("saml_metadata_attempted_at"),
    /** Why the last attempt failed (null after a success): shown to the admins. */
    samlMetadataError: text("saml_metadata_error"),
    /** Accounts created at first sign-in (on by default). */
    jit: boolean("jit").notNull().default(true),
    /** The IdP's MFA claims (amr/acr, AuthnContextClassRef) count as the second factor. */
    trustIdpMfa: boolean("trust_idp_mfa").notNull().default(false),
    defaultRole: text("default_role").notNull().default("member"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [index("sso_provider_org_idx").on(table.organizationId)],
);

export const ssoDomain = pgTable(
  "sso_domain",
  {
    domain: text("domain").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    /** The value of the TXT record `_vigia-challenge.<domain>`. */
    challenge: text("challenge").notNull(),
    verifiedAt: at("verified_at"),
    verifiedBy: text("verified_by").$type<"dns" | "owner">(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (table) => [index("sso_domain_org_idx").on(table.organizationId)],
);

export const ssoGroupMapping = pgTable(
  "sso_group_mapping",
  {
    id: text("id").primaryKey(),
    providerId: text("provider_id")
      .notNull()
      .references(() => ssoProvider.id, { onDelete: "cascade" }),
    idpGroup: text("idp_group").notNull(),
    role: text("role"),
    teamId: text("team_id").references(() => team.id, { onDelete: "cascade" }),
  },
  (table) => [index("sso_group_mapping_provider_idx").on(table.providerId)],
);

export const ssoIdentity = pgTable(
  "sso_identity",
  {
    providerId: text("provider_id")
      .notNull()
      .references(() => ssoProvider.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: at("created_at").notNull().defaultNow(),
    lastSignInAt: at("last_sign_in_at"),
  },
  (table) => [
    uniqueIndex("sso_identity_subject_idx").on(table.providerId, table.subject),
    index("sso_identity_user_idx").on(table.userId),
  ],
);

/** A sign-in sent to an IdP: state (OIDC) or AuthnRequest ID (SAML); consumed once. */
export const ssoRequest = pgTable("sso_request", {
  id: text("id").primaryKey(),
  providerId: text("provider_id")
    .notNull()
    .references(() => ssoProvider.id, { onDelete: "cascade" }),
  purpose: text("purpose").$type<"sign_in" | "test">().notNull(),
  nonce: text("nonce"),
  codeVerifier: text("code_verifier"),
  next: text("next"),
  /** The admin who started a test sign-in. */
  userId: text("user_id"),
  /** The browser's language when the sign-in started (locale cookie or Accept-Language): a JIT member's language (decision 0163). */
  locale: text("locale"),
  expiresAt: at("expires_at").notNull(),
});

/** SAML assertion IDs already accepted, kept until the assertion would have expired. */
export const samlAssertionUsed = pgTable("saml_assertion_used", {
  id: text("id").primaryKey(),
  providerId: text("provider_id")
    .notNull()
    .references(() => ssoProvider.id, { onDelete: "cascade" }),
  expiresAt: at("expires_at").notNull(),
});

/** An IdP identity with an existing account's email: linked once that account's owner confirms. */
export const ssoPendingLink = pgTable("sso_pending_link", {
  tokenHash: text("token_hash").primaryKey(),
  providerId: text("provider_id")
    .notNull()
    .references(() => ssoProvider.id, { onDelete: "cascade" }),
  subject: text("subject").notNull(),
  userId: text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" }),
  groups: text("groups").notNull().default("[]"),
  expiresAt: at("expires_at").notNull(),
});

export const ssoPolicy = pgTable("sso_policy", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organization.id, { onDelete: "cascade" }),
  /** Password sign-in refused for the organisation's members, the break-glass owner excepted. */
  ssoRequired: boolean("sso_required").notNull().default(false),
  breakGlassUserId: text("break_glass_user_id").references(() => user.id, { onDelete: "set null" }),
  updatedAt: at("updated_at").notNull().defaultNow(),
});

export const scimToken = pgTable(
  "scim_token",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: text("created_by"),
    createdAt: at("created_at").notNull().defaultNow(),
    revokedAt: at("revoked_at"),
  },
  (table) => [index("scim_token_org_idx").on(table.organizationId)],
);

/** SCIM's externalId for a user or group of an organisation. */
export const scimResource = pgTable(
  "scim_resource",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"user" | "group">().notNull(),
    /** auth_user.id or auth_team.id */
    resourceId: text("resource_id").notNull(),
    externalId: text("external_id"),
  },
  (table) => [uniqueIndex("scim_resource_idx").on(table.organizationId, table.kind, table.resourceId)],
);
