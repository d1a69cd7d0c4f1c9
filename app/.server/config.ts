/** Configuration: read from the environment once at start, validated, frozen. */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { calendarDate } from "../lib/calendar-date.ts";
import type { CommonSourceSettings } from "./sources/plugin.ts";
import { type RegisteredSourceSettings, registeredSources, selectableSourceIds } from "./sources/registry.ts";
import { parseWindow } from "./sources/schedule.ts";

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .transform((value) => value.replace(/\/+$/, ""));
const emailAddress = z.email({ error: "must be an email address" });

const schema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  SITE_URL: httpUrl.optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  // Embedded database: below this much free space under DATA_DIR/db, writes are refused (decision 0157).
  DISK_MIN_FREE_MB: positiveInt.default(64),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_TO: emailAddress.default("ventas@example.com"),
  MAIL_FROM: emailAddress.default("web@example.com"),
  PLATFORM_URL: httpUrl.optional(),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** JSON lines, or readable lines; unset: readable on a terminal, JSON otherwise. */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  LEAD_RETENTION_DAYS: positiveInt.default(730),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(5),
  RATE_LIMIT_PER_HOUR: positiveInt.default(20),
  FORM_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OUTBOX_RETRY_BASE_MS: positiveInt.default(2000),
  OUTBOX_RETRY_MAX_MS: positiveInt.default(60_000),
  OUTBOX_MAX_ATTEMPTS: positiveInt.default(25),
  OUTBOX_LEASE_MS: positiveInt.default(120_000),
  // Audit trail and REST API (platform spec sections 8 and 9).
  AUDIT_RETENTION_DAYS: positiveInt.default(1825),
  API_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  // --- Sources and ingestion (issue 11) ---
  // Each source's own variables (BOE_API_URL, EURLEX_URL, …) come from its plug-in (sources/registry.ts).
  INGEST_SINCE: calendarDate({ error: "must be a date YYYY-MM-DD that exists" }).optional(),
  INGEST_INTERVAL_SECONDS: positiveInt.default(300),
  // --- alerts (issue 13): delivery outbox and webhook URLs ---
  ALERTS_RETRY_BASE_MS: positiveInt.default(5000),
  ALERTS_RETRY_MAX_MS: positiveInt.default(1_800_000),
  ALERTS_MAX_ATTEMPTS: positiveInt.default(12),
  ALERTS_RETRY_WINDOW_MS: positiveInt.default(86_400_000),
  WEBHOOKS_ALLOW_PRIVATE_URLS: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("0"),
  WEBHOOKS_MAX_PER_ORGANIZATION: positiveInt.default(25),
  FOLLOWS_MAX_PER_ORGANIZATION: positiveInt.default(200),
  // --- end alerts ---
  // Enterprise identity (issue 41): identity providers on loopback or a private network (on-premises IdP).
  SSO_ALLOW_PRIVATE_IDP_URLS: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("0"),
  SSO_DNS_SERVERS: z
    .string()
    .regex(/^\s*[0-9A-Fa-f.:[\]]+(\s*,\s*[0-9A-Fa-f.:[\]]+)*\s*$/, {
      error: "must be IP addresses (with :port) separated by commas",
    })
    .optional(),
  // Platform sign-in (issue 10, auth): session/token key, first organisation by mail.
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  PLATFORM_ADMIN_EMAIL: emailAddress.optional(),
  PLATFORM_ORG_NAME: z
    .string()
    .trim()
    .min(1, "must not be blank")
    .max(120, "must be at most 120 characters")
    .default("Mi organización"),
});

export type Config = Readonly<{
  env: "production" | "development" | "test";
  port: number;
  host: string;
  siteUrl: string;
  dataDir: string;
  /** Embedded database: writes refused below this many free bytes under DATA_DIR/db (DISK_MIN_FREE_MB). */
  diskMinFreeBytes: number;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailTo: string;
  mailFrom: string;
  platformUrl: string | undefined;
  trustProxy: number;
  logLevel: string;
  logFormat: "json" | "pretty" | undefined;
  leadRetentionDays: number;
  rateLimit: Readonly<{ perMinute: number; perHour: number }>;
  /** HMAC key for the form's time trap; shared by every instance. */
  formSecret: string;
  /** Contact mail delivery: retry backoff (base doubles up to max) and attempts before a mail is dead. */
  outbox: Readonly<{ retryBaseMs: number; retryMaxMs: number; maxAttempts: number; leaseMs: number }>;
  /** Audit events older than this many days are purged (the chain stays verifiable). */
  auditRetentionDays: number;
  /** REST API requests per token (or per client IP on public routes) and minute. */
  apiRateLimitPerMinute: number;
  /**
   * Sources and ingestion (issue 11): which sources run (INGEST_SOURCES), backfill start,
   * polling interval, and every registered source's own settings (boeApiUrl, watch, eurlexUrl, …).
   */
  sources: Readonly<
    RegisteredSourceSettings &
      CommonSourceSettings & {
        /** The ids INGEST_SOURCES named (selectable sources); empty: ingestion off. */
        ingest: readonly string[];
      }
  >;
  /** Alerts (issue 13): delivery retries (webhooks and mail retry for retryWindowMs whatever maxAttempts) and whether webhook URLs may be private (tests only). */
  alerts: Readonly<{
    retryBaseMs: number;
    retryMaxMs: number;
    maxAttempts: number;
    /** How long webhook and mail deliveries are retried before they are dead (a webhook's is then failing). */
    retryWindowMs: number;
    allowPrivateWebhookUrls: boolean;
    /** API webhook subscriptions an organisation may hold (WEBHOOKS_MAX_PER_ORGANIZATION). */
    maxWebhooksPerOrganization: number;
    /** Follows of laws an organisation may hold, all members and groups together (FOLLOWS_MAX_PER_ORGANIZATION). */
    maxFollowsPerOrganization: number;
  }>;
  /** Platform sign-in: signs sessions and tokens (generated once in DATA_DIR when unset). */
  authSecret: string;
  /** SSO_ALLOW_PRIVATE_IDP_URLS=1: IdP URLs (discovery, metadata, tokens) may be private addresses and http. */
  allowPrivateIdpUrls: boolean;
  /** SSO_DNS_SERVERS: the resolvers asked for domain proofs (TXT); unset: the system's. */
  ssoDnsServers: readonly string[];
  /** On a start with no organisation: create one and invite this owner. */
  platformAdminEmail: string | undefined;
  platformOrgName: string;
}>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; throws ConfigError with one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, as most process managers write them.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = withSources(schema).safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue?.path.join(".") ?? "environment";
    throw new ConfigError(`Invalid configuration: ${variable} ${issue?.message ?? "is invalid"}`);
  }
  const v = result.data;
  const dataDir = path.resolve(v.DATA_DIR);
  return Object.freeze({
    env: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    siteUrl: v.SITE_URL ?? `http://localhost:${v.PORT}`,
    dataDir,
    diskMinFreeBytes: v.DISK_MIN_FREE_MB * 1024 * 1024,
    databaseUrl: v.DATABASE_URL,
    smtpUrl: v.SMTP_URL,
    mailTo: v.MAIL_TO,
    mailFrom: v.MAIL_FROM,
    platformUrl: v.PLATFORM_URL,
    trustProxy: v.TRUST_PROXY,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    leadRetentionDays: v.LEAD_RETENTION_DAYS,
    rateLimit: Object.freeze({ perMinute: v.RATE_LIMIT_PER_MINUTE, perHour: v.RATE_LIMIT_PER_HOUR }),
    formSecret: v.FORM_SECRET ?? localSecret(dataDir),
    outbox: Object.freeze({
      retryBaseMs: v.OUTBOX_RETRY_BASE_MS,
      retryMaxMs: Math.max(v.OUTBOX_RETRY_BASE_MS, v.OUTBOX_RETRY_MAX_MS),
      maxAttempts: v.OUTBOX_MAX_ATTEMPTS,
      leaseMs: v.OUTBOX_LEASE_MS,
    }),
    auditRetentionDays: v.AUDIT_RETENTION_DAYS,
    apiRateLimitPerMinute: v.API_RATE_LIMIT_PER_MINUTE,
    sources: Object.freeze({
      ...sourceSettings(v),
      ingest: Object.freeze(v.INGEST_SOURCES === "none" ? [] : [...new Set(v.INGEST_SOURCES.split(","))]),
      since: v.INGEST_SINCE,
      intervalSeconds: v.INGEST_INTERVAL_SECONDS,
    }) as Config["sources"],
    alerts: Object.freeze({
      retryBaseMs: v.ALERTS_RETRY_BASE_MS,
      retryMaxMs: Math.max(v.ALERTS_RETRY_BASE_MS, v.ALERTS_RETRY_MAX_MS),
      maxAttempts: v.ALERTS_MAX_ATTEMPTS,
      retryWindowMs: v.ALERTS_RETRY_WINDOW_MS,
      allowPrivateWebhookUrls: v.WEBHOOKS_ALLOW_PRIVATE_URLS === "1",
      maxWebhooksPerOrganization: v.WEBHOOKS_MAX_PER_ORGANIZATION,
      maxFollowsPerOrganization: v.FOLLOWS_MAX_PER_ORGANIZATION,
    }),
    authSecret: v.AUTH_SECRET ?? localSecret(dataDir, "auth-secret"),
    allowPrivateIdpUrls: v.SSO_ALLOW_PRIVATE_IDP_URLS === "1",
    ssoDnsServers: Object.freeze(
      (v.SSO_DNS_SERVERS ?? "")
        .split(",")
        .map((server) => server.trim())
        .filter(Boolean),
    ),
    platformAdminEmail: v.PLATFORM_ADMIN_EMAIL,
    platformOrgName: v.PLATFORM_ORG_NAME,
  });
}

/** "1-6 07:00-10:00" → weekdays 1..6 and minutes of the day [420, 600). */
export function parseWatchWindow(value: string): { days: readonly number[]; fromMinute: number; toMinute: number } {
  const window = parseWindow(value);
  if (!window) throw new ConfigError(`Invalid configuration: BOE_WATCH_WINDOW must be like "1-6 07:00-10:00"`);
  return window;
}

/**
 * The schema with every registered source's variables and INGEST_SOURCES, built when the
 * configuration is read (a source registered at run time counts).
 */
function withSources<T extends z.ZodRawShape>(base: z.ZodObject<T>) {
  const { all, byDefault } = selectableSourceIds();
  const shape: Record<string, z.ZodType> = {};
  for (const source of registeredSources()) {
    for (const [name, field] of Object.entries(source.config?.env ?? {})) {
      if (name in base.shape || name in shape)
        throw new Error(`source ${source.id}: variable ${name} is declared twice`);
      shape[name] = field as z.ZodType;
    }
  }
  const id = `(${all.map((each) => each.replace(/[^a-z0-9-]/g, "")).join("|")})`;
  return base.extend({
    ...shape,
    INGEST_SOURCES: z
      .string()
      .regex(new RegExp(`^(none|${id}(,${id})*)$`), `must be "none" or a comma-separated list of ${all.join(", ")}`)
      .default(byDefault.join(",") || "none"),
  });
}

/** Every registered source's settings, read from its variables. */
function sourceSettings(values: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const source of registeredSources()) {
    if (!source.config) continue;
    const own = Object.fromEntries(Object.keys(source.config.env).map((name) => [name, values[name]]));
    Object.assign(settings, source.config.read(own));
  }
  return settings;
}

/** Without FORM_SECRET, one instance keeps a random key in DATA_DIR so restarts keep it. */
function localSecret(dataDir: string, name = "form-secret"): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** What may be logged: the configuration without secrets or credentials. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    port: config.port,
    host: config.host,
    siteUrl: config.siteUrl,
    dataDir: config.dataDir,
    database: config.databaseUrl ? redactUrl(config.databaseUrl) : "pglite",
    mail: config.smtpUrl ? redactUrl(config.smtpUrl) : "files",
    mailTo: config.mailTo,
    trustProxy: config.trustProxy,
  };
}

export function redactUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = "***";
  return url.toString();
}
