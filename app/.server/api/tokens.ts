/**
 * API tokens: `vn_` and 43 base64url characters (256 random bits), shown once at creation and
 * stored only as SHA-256, so a leaked database does not leak usable tokens. A fast hash is
 * enough for secrets this long (no guessing), and it lets a request find its token by index.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../audit/executor.ts";
import { recordAudit } from "../audit/record.ts";
import type { TokenAuditContext } from "../auth/flows/token-revocation.ts";
import { apiTokens } from "../db/schema/api.ts";
import { member, user } from "../db/schema/auth.ts";

export type ApiScope = "read" | "admin";
export const apiScopes: readonly ApiScope[] = ["read", "admin"];
export const apiTokenPrefix = "vn_";
const tokenPattern = /^vn_[A-Za-z0-9_-]{43}$/;
/** Characters of the token kept in clear to tell tokens apart in lists. */
const shownPrefixLength = 10;
/** last_used_at is written at most this often per token. */
const lastUsedResolutionSeconds = 60;

/** Who creates or revokes a token, for the audit event written in the same transaction. */
export type { TokenAuditContext };

export interface CreateApiTokenInput {
  organizationId: string;
  name: string;
  scope: ApiScope;
  expiresAt?: Date | null | undefined;
  /** The creating user's id. */
  createdBy: string;
  /** When given, a `token.created` event is recorded in the same transaction. */
  audit?: TokenAuditContext | undefined;
}

export interface ApiTokenSummary {
  id: string;
  name: string;
  scope: ApiScope;
  /** The first characters of the token, e.g. `vn_AbC1234`. */
  prefix: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface AuthenticatedToken {
  tokenId: string;
  organizationId: string;
  scope: ApiScope;
  createdBy: string;
  /** The creator's address: with the token id, the actor of what the token does (audit). */
  createdByEmail: string;
}

/** The actor of what a token does, for the audit trail: the token's creator (the token id goes in the detail). */
export function tokenActor(token: AuthenticatedToken): { id: string; email: string } {
  return { id: token.createdBy, email: token.createdByEmail };
}

/** Roles whose members create tokens: a token works only while its creator still holds one. */
const tokenCreatorRoles = ["owner", "admin"];

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates a token; the returned `token` is the only time it exists in clear. */
export async function createApiToken(tx: Executor, input: CreateApiTokenInput): Promise<{ id: string; token: string }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new RangeError("createApiToken: name must be 1 to 100 characters");
  if (!apiScopes.includes(input.scope)) throw new RangeError(`createApiToken: unknown scope "${input.scope}"`);
  const id = randomUUID();
  const token = `${apiTokenPrefix}${randomBytes(32).toString("base64url")}`;
  return tx.transaction(async (inner) => {
    await inner.insert(apiTokens).values({
      id,
      organizationId: input.organizationId,
      name,
      scope: input.scope,
      tokenHash: hashApiToken(token),
      prefix: token.slice(0, shownPrefixLength),
      createdBy: input.createdBy,
      expiresAt: input.expiresAt ?? null,
    });
    if (input.audit) {
      await recordAudit(inner, {
        organizationId: input.organizationId,
        actor: input.audit.actor,
        action: "token.created",
        object: { type: "api_token", id },
        ip: input.audit.ip,
        userAgent: input.audit.userAgent,
        detail: { name, scope: input.scope, expiresAt: input.expiresAt?.toISOString() ?? null },
      });
    }
    return { id, token };
  });
}

/** The organisation's tokens, newest first, revoked ones included (never the hash). */
export async function listApiTokens(db: Executor, organizationId: string): Promise<ApiTokenSummary[]> {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      scope: apiTokens.scope,
      prefix: apiTokens.prefix,
      createdBy: apiTokens.createdBy,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.organizationId, organizationId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/**
 * Revokes a token of this organisation. False when there is no such token in the
 * organisation or it was already revoked (another organisation's id is simply not found).
 */
export async function revokeApiToken(
  tx: Executor,
  organizationId: string,
  id: string,
  audit?: TokenAuditContext,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  return tx.transaction(async (inner) => {
    const revoked = await inner
      .update(apiTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.organizationId, organizationId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id, name: apiTokens.name });
    const row = revoked[0];
    if (!row) return false;
    if (audit) {
      await recordAudit(inner, {
        organizationId,
        actor: audit.actor,
        action: "token.revoked",
        object: { type: "api_token", id },
        ip: audit.ip,
        userAgent: audit.userAgent,
        detail: { name: row.name },
      });
    }
    return true;
  });
}

/**
 * The token behind an `Authorization` value (`Bearer vn_…`) or a bare token; null when it is
 * malformed, unknown, revoked or expired, or its creator is no longer an active admin or owner of
 * its organisation.
 */
export async function authenticateToken(
  db: Executor,
  bearer: string | null | undefined,
): Promise<AuthenticatedToken | null> {
  if (!bearer) return null;
  const token = bearer.replace(/^\s*bearer\s+/i, "").trim();
  if (!tokenPattern.test(token)) return null;
  // A token lives no longer than its creator's standing: the creator must still be an admin or
  // owner of the token's organisation and not suspended (suspension and demotion also revoke
  // the tokens, see revokeTokensOf; this check holds for removal and for any other path).
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      organizationId: apiTokens.organizationId,
      scope: apiTokens.scope,
      createdBy: apiTokens.createdBy,
      createdByEmail: user.email,
    })
    .from(apiTokens)
    .innerJoin(user, eq(user.id, apiTokens.createdBy))
    .innerJoin(member, and(eq(member.userId, apiTokens.createdBy), eq(member.organizationId, apiTokens.organizationId)))
    .where(
      and(
        eq(apiTokens.tokenHash, hashApiToken(token)),
        isNull(apiTokens.revokedAt),
        sql`(${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > now())`,
        sql`${user.banned} is not true`,
        inArray(member.role, tokenCreatorRoles),
      ),
    );
  if (!row) return null;
  // One small write a minute at most per token, not one per request.
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiTokens.id, row.tokenId),
        sql`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < now() - ${sql.raw(`interval '${lastUsedResolutionSeconds} seconds'`)})`,
      ),
    );
  return row;
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
