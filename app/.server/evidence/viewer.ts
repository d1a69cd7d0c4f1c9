/** Who is looking at an evidence pack: a signed-in member, or an API token's creator (with their groups). */
import { sql } from "drizzle-orm";
import type { AuthenticatedToken } from "../api/tokens.ts";
import type { Viewer } from "../collab/notes.ts";
import type { Database } from "../db/client.ts";

export async function groupsOf(database: Database, organizationId: string, userId: string): Promise<string[]> {
  const rows = await database.rows<{ id: string }>(sql`select t.id from auth_team_member tm
    join auth_team t on t.id = tm.team_id where tm.user_id = ${userId} and t.organization_id = ${organizationId}`);
  return rows.map((row) => row.id);
}

/** An admin token acts for its creator, who still holds an owner or admin role (token standing). */
export async function tokenViewer(database: Database, token: AuthenticatedToken): Promise<Viewer> {
  return {
    userId: token.createdBy,
    email: token.createdByEmail,
    organizationId: token.organizationId,
    groupIds: await groupsOf(database, token.organizationId, token.createdBy),
    role: "admin",
  };
}
