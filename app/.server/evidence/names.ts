/** Names of an organisation's members and groups by id: the evidence page shows people, not ids. */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";

export async function organisationNames(database: Database, organizationId: string): Promise<Record<string, string>> {
  const rows = await database.rows<{ id: string; name: string }>(sql`
    select u.id, u.name from auth_member m join auth_user u on u.id = m.user_id where m.organization_id = ${organizationId}
    union all
    select t.id, t.name from auth_team t where t.organization_id = ${organizationId}`);
  return Object.fromEntries(rows.map((row) => [row.id, row.name]));
}

/** The organisation's groups (better-auth teams), by name. */
export async function organisationGroups(
  database: Database,
  organizationId: string,
): Promise<{ id: string; name: string }[]> {
  return database.rows<{ id: string; name: string }>(
    sql`select id, name from auth_team where organization_id = ${organizationId} order by name, id`,
  );
}
