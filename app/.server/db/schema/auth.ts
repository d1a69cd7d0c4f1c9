/**
 * better-auth's tables (core, twoFactor, passkey, organization with teams, admin) as its
 * Drizzle adapter expects them (field names are better-auth's; columns snake_case), plus the
 * project's own policy tables: setup tokens, invitation extras (groups, language), sign-in
 * failures for the lockout, the last TOTP time-step per user (no replay).
 * Groups are better-auth teams.
 */
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const user = pgTable("auth_user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: at("created_at").notNull().defaultNow(),
  updatedAt: at("updated_at").notNull().defaultNow(),
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  role: text("role"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: at("ban_expires"),
  /** The project's: preferred language (es or en). */
  locale: text("locale").notNull().default("es"),
});

export const session = pgTable(
  "auth_session",
  {
    id: text("id").primaryKey(),
    expiresAt: at("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    activeOrganizationId: text("active_organization_id"),
    activeTeamId: text("active_team_id"),
    impersonatedBy: text("impersonated_by"),
    /** The project's: when a second factor was verified in this session (null: not yet). */
    mfaVerifiedAt: at("mfa_verified_at"),
    /** The project's: the identity provider this session was signed in through (null: password or passkey). */
    ssoProviderId: text("sso_provider_id"),
  },
  (table) => [index("auth_session_user_idx").on(table.userId)],
);

export const account = pgTable(
  "auth_account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: at("access_token_expires_at"),
    refreshTokenExpiresAt: at("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull(),
  },
  (table) => [index("auth_account_user_idx").on(table.userId)],
);

export const verification = pgTable(
  "auth_verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: at("expires_at").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [index("auth_verification_identifier_idx").on(table.identifier)],
);

export const twoFactor = pgTable(
  "auth_two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(false),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: at("locked_until"),
  },
  (table) => [index("auth_two_factor_user_idx").on(table.userId), index("auth_two_factor_secret_idx").on(table.secret)],
);

export const passkey = pgTable(
  "auth_passkey",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    createdAt: at("created_at"),
    aaguid: text("aaguid"),
  },
  (table) => [
    index("auth_passkey_user_idx").on(table.userId),
    index("auth_passkey_credential_idx").on(table.credentialID),
  ],
);

export const organization = pgTable("auth_organization", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  logo: text("logo"),
  createdAt: at("created_at").notNull(),
  metadata: text("metadata"),
});

export const team = pgTable(
  "auth_team",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    memberCount: integer("member_count").notNull().default(0),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at"),
  },
  (table) => [index("auth_team_org_idx").on(table.organizationId)],
);

export const teamMember = pgTable(
  "auth_team_member",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id")
      .notNull()
      .references(() => team.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    membershipKey: text("membership_key").unique(),
    createdAt: at("created_at"),
  },
  (table) => [index("auth_team_member_team_idx").on(table.teamId), index("auth_team_member_user_idx").on(table.userId)],
);

export const member = pgTable(
  "auth_member",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("member"),
    createdAt: at("created_at").notNull(),
  },
  (table) => [
    index("auth_member_org_idx").on(table.organizationId),
    uniqueIndex("auth_member_org_user_idx").on(table.organizationId, table.userId),
  ],
);

export const invitation = pgTable(
  "auth_invitation",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role"),
    teamId: text("team_id"),
    status: text("status").notNull().default("pending"),
    expiresAt: at("expires_at").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    inviterId: text("inviter_id").references(() => user.id, { onDelete: "set null" }),
    /** The project's: the invitee's language and the secret token of the link (hashed). */
    locale: text("locale").notNull().default("es"),
    tokenHash: text("token_hash").unique(),
  },
  (table) => [
    index("auth_invitation_org_idx").on(table.organizationId),
    index("auth_invitation_email_idx").on(table.email),
  ],
);

/** One-use first-run setup tokens (hashed), 24 h. */
export const setupToken = pgTable("auth_setup_token", {
  tokenHash: text("token_hash").primaryKey(),
  expiresAt: at("expires_at").notNull(),
  usedAt: at("used_at"),
  createdAt: at("created_at").notNull().defaultNow(),
});

/** Sign-in failures per account (lowercased email) for the 10-in-15-minutes lockout. */
export const signInFailure = pgTable(
  "auth_sign_in_failure",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** HMAC of the client address (audit/ip-hash.ts): the per-address throttle; null on older rows. */
    ipHash: text("ip_hash"),
    at: at("at").notNull().defaultNow(),
  },
  (table) => [
    index("auth_sign_in_failure_email_at_idx").on(table.email, table.at),
    index("auth_sign_in_failure_email_ip_at_idx").on(table.email, table.ipHash, table.at),
  ],
);

/** The last TOTP time-step accepted per user: a code is accepted only once. */
export const totpLastStep = pgTable("auth_totp_last_step", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  step: integer("step").notNull(),
});

/** Devices (user agent + IP) a user has signed in from: a new one gets a notice by mail. */
export const knownDevice = pgTable(
  "auth_known_device",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    fingerprint: text("fingerprint").notNull(),
    lastSeenAt: at("last_seen_at").notNull().defaultNow(),
  },
  (table) => [uniqueIndex("auth_known_device_idx").on(table.userId, table.fingerprint)],
);

/** Invited groups (teams) per invitation, joined when it is accepted. */
export const invitationGroup = pgTable(
  "auth_invitation_group",
  {
    invitationId: text("invitation_id")
      .notNull()
      .references(() => invitation.id, { onDelete: "cascade" }),
    teamId: text("team_id")
      .notNull()
      .references(() => team.id, { onDelete: "cascade" }),
  },
  (table) => [uniqueIndex("auth_invitation_group_idx").on(table.invitationId, table.teamId)],
);

/**
 * Platform mail (invitations, password resets, new-device notices) waiting for the outbox
 * worker: rendered when queued (in the recipient's language), written in the same
 * transaction as the change that causes it. status: pending → sending → sent, or dead.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    leaseUntil: at("lease_until"),
    lastError: text("last_error"),
    createdAt: at("created_at").notNull().defaultNow(),
    sentAt: at("sent_at"),
  },
  (table) => [index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt)],
);
