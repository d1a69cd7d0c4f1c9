/**
 * Makes tests/fixtures/upgrade/previous-release.json.gz: a database as a previous release left it,
 * for tests/faults/upgrade.test.ts. Run in a copy of that release, not in this checkout (the one
 * stored was made from commit 9536773, main before issue 42):
 *
 *   rm -rf /tmp/vn-prev && mkdir /tmp/vn-prev && git archive 9536773 | tar -x -C /tmp/vn-prev
 *   ln -s "$PWD/node_modules" /tmp/vn-prev/node_modules
 *   cp scripts/make-upgrade-fixture.ts /tmp/vn-prev/scripts/
 *   (cd /tmp/vn-prev && node scripts/make-upgrade-fixture.ts "$OLDPWD/tests/fixtures/upgrade/previous-release.json.gz")
 *
 * That release's migrations make the schema and its own code writes the rows (the issue 26 story:
 * two organisations, documents, an alert profile with matches and deliveries, triage, obligations,
 * notes, an audit chain signed with the AUTH_SECRET below, an API token, a law follow). The file
 * holds the applied migrations (tag and hash) and every table's rows as JSON.
 */
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { setAuditSecret } from "../app/.server/audit/ip-hash.ts";
import { openDatabase } from "../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../app/.server/db/migrate.ts";
import { issueToken } from "../tests/support/api-tokens.ts";
import { setUpEvidenceStory } from "../tests/support/evidence-fixtures.ts";

const authSecret = "previous-release-auth-secret-0123456789";
const out = process.argv[2];
if (!out) throw new Error("usage: node scripts/make-upgrade-fixture.ts OUT.json.gz");

const database = await openDatabase({});
await migrate(database, defaultMigrationsDir);
setAuditSecret(authSecret);
const story = await setUpEvidenceStory(database, new Date("2026-11-20T10:00:00Z"));
const { token } = await issueToken(database, {
  organizationId: story.ana.organizationId,
  scope: "admin",
  userId: story.ana.userId,
});
// A follow of a law (an alert profile with a law scope), as the laws capability stores it.
await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode, law_id)
  values (gen_random_uuid(), ${story.ana.organizationId}, ${story.ana.userId}, 'Ley de Sociedades de Capital', 'digest', 'BOE-A-2010-10544')`);
const tables = await database.rows<{ name: string }>(
  sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
);
const rows: Record<string, unknown[]> = {};
for (const { name } of tables) {
  const [result] = await database.rows<{ rows: unknown[] | null }>(
    sql`select json_agg(t) as rows from ${sql.identifier(name)} t`,
  );
  if (result?.rows?.length) rows[name] = result.rows;
}
writeFileSync(
  out,
  gzipSync(
    JSON.stringify({
      release: "9536773",
      authSecret,
      token,
      organizationId: story.ana.organizationId,
      boeDocumentId: story.boeDocumentId,
      migrations: rows.app_migrations,
      rows,
    }),
  ),
);
await database.close();
process.stdout.write(`${out}: ${Object.keys(rows).length} tables\n`);
