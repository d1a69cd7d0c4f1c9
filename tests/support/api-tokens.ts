/**
 * API tokens for tests, created as the platform does: by an admin (or owner) who is a member of the
 * token's organisation (a token works only while its creator is; app/.server/api/tokens.ts).
 */
import { sql } from "drizzle-orm";
import { type ApiScope, createApiToken } from "../../app/.server/api/tokens.ts";
import type { Database } from "../../app/.server/db/client.ts";

/** Ensures the organisation, the user and their membership exist (idempotent). */
export async function ensureMember(
  database: Database,
  input: { organizationId: string; userId: string; email?: string; role?: "owner" | "admin" | "member" },
): Promise<{ id: string; email: string }> {
  const email = input.email ?? `${input.userId}@${input.organizationId}.example`;
  await database.rows(sql`insert into auth_organization (id, name, slug, created_at)
    values (${input.organizationId}, ${input.organizationId}, ${input.organizationId}, now()) on conflict do nothing`);
  await database.rows(sql`insert into auth_user (id, name, email) values (${input.userId}, ${input.userId}, ${email})
    on conflict do nothing`);
  await database.rows(sql`insert into auth_member (id, organization_id, user_id, role, created_at)
    values (${`m-${input.organizationId}-${input.userId}`}, ${input.organizationId}, ${input.userId}, ${input.role ?? "admin"}, now())
    on conflict do nothing`);
  return { id: input.userId, email };
}

/** A token of `scope` created by `userId` (an admin of the organisation unless told). */
export async function issueToken(
  database: Database,
  input: { organizationId: string; scope: ApiScope; userId?: string; email?: string; name?: string },
): Promise<{ id: string; token: string }> {
  const userId = input.userId ?? `admin-${input.organizationId}`;
  await ensureMember(database, {
    organizationId: input.organizationId,
    userId,
    ...(input.email ? { email: input.email } : {}),
  });
  return createApiToken(database.db, {
    organizationId: input.organizationId,
    name: input.name ?? `${input.organizationId} ${input.scope}`,
    scope: input.scope,
    createdBy: userId,
  });
}
