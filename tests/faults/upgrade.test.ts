/**
 * A database made by the previous release (tests/fixtures/upgrade/previous-release.json.gz, made by
 * scripts/make-upgrade-fixture.ts in a copy of commit 9536773: that release's migrations and the
 * rows its code wrote) upgraded by the next start of this build: the new migrations applied, every
 * row kept, the API serving the same documents, follows, triage and obligations, the audit chain
 * valid. Migrations that cannot run stop the start cleanly and change nothing: a database from a
 * newer release, an edited migration, a migration failing half-way.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, MigrationError, migrate } from "../../app/.server/db/migrate.ts";
import { rowsOf } from "../../app/.server/db/rows.ts";
import { run as auditVerify } from "../../scripts/platform/audit-verify.ts";
import { type RunningServer, startServer } from "../support/server.ts";

interface Fixture {
  release: string;
  authSecret: string;
  token: string;
  organizationId: string;
  boeDocumentId: string;
  migrations: { tag: string; hash: string }[];
  rows: Record<string, Record<string, unknown>[]>;
}

const fixture = JSON.parse(
  gunzipSync(readFileSync(path.join(import.meta.dirname, "../fixtures/upgrade/previous-release.json.gz"))).toString(
    "utf8",
  ),
) as Fixture;

interface Journal {
  version: string;
  dialect: string;
  entries: { idx: number; tag: string }[];
}

/** A migrations folder holding the current journal's entries, trimmed or extended. */
function migrationsDir(
  root: string,
  entries: (all: Journal["entries"]) => Journal["entries"],
  extra: Record<string, string> = {},
) {
  const dir = mkdtempSync(path.join(root, "migrations-"));
  mkdirSync(path.join(dir, "meta"));
  const journal = JSON.parse(readFileSync(path.join(defaultMigrationsDir, "meta/_journal.json"), "utf8")) as Journal;
  const kept = entries(journal.entries);
  for (const entry of kept) {
    if (extra[entry.tag] === undefined) {
      copyFileSync(path.join(defaultMigrationsDir, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
    }
  }
  for (const [tag, text] of Object.entries(extra)) writeFileSync(path.join(dir, `${tag}.sql`), text);
  writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries: kept }));
  return dir;
}

async function counts(database: Database): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of Object.keys(fixture.rows)) {
    const [row] = await database.rows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
    result[table] = row?.n ?? 0;
  }
  return result;
}

describe("upgrade from the previous release's database", () => {
  const root = mkdtempSync(path.join(tmpdir(), "faults-upgrade-"));
  const dataDir = path.join(root, "data");
  const saved = { ...process.env };
  let out = "";
  let server: RunningServer | undefined;
  const open = () => openDatabase({ pgliteDir: path.join(dataDir, "db") });

  beforeAll(async () => {
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    // The previous release's schema: only its migrations, on a new cluster (not the run's template,
    // which already has this build's).
    delete process.env.PGLITE_TEMPLATE_DIR;
    const database = await open();
    const released = new Set(fixture.migrations.map((m) => m.tag));
    await migrate(
      database,
      migrationsDir(root, (all) => all.filter((entry) => released.has(entry.tag))),
    );
    // Its files are the ones this build still ships (an applied migration is never edited).
    const hashes = await database.rows<{ tag: string; hash: string }>(sql`select tag, hash from app_migrations`);
    expect(new Map(hashes.map((m) => [m.tag, m.hash]))).toEqual(
      new Map(fixture.migrations.map((m) => [m.tag, m.hash])),
    );
    // Its rows, as its code wrote them (triggers and foreign keys off while loading, as pg_restore does).
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const [table, rows] of Object.entries(fixture.rows)) {
        if (table === "app_migrations") continue;
        const columns = await rowsOf<{ name: string }>(
          tx,
          sql`select column_name as name
          from information_schema.columns where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'`,
        );
        const list = sql.join(
          columns.map((c) => sql.identifier(c.name)),
          sql`, `,
        );
        await tx.execute(sql`insert into ${sql.identifier(table)} (${list})
          select ${list} from json_populate_recordset(null::${sql.identifier(table)}, ${JSON.stringify(rows)}::json)`);
      }
      const sequences = await rowsOf<{ seq: string; col: string; tab: string }>(
        tx,
        sql`
        select pg_get_serial_sequence(table_name, column_name) as seq, column_name as col, table_name as tab
        from information_schema.columns where table_schema = 'public' and pg_get_serial_sequence(table_name, column_name) is not null`,
      );
      for (const s of sequences) {
        await tx.execute(
          sql`select setval(${s.seq}, coalesce((select max(${sql.identifier(s.col)}) from ${sql.identifier(s.tab)}), 0) + 1, false)`,
        );
      }
    });
    expect(await counts(database)).toEqual(
      Object.fromEntries(Object.entries(fixture.rows).map(([table, rows]) => [table, rows.length])),
    );
    await database.close();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    vi.restoreAllMocks();
    process.env = saved;
    rmSync(root, { recursive: true, force: true });
  });

  it("the next start applies the new migrations and serves the same data; the chain stays valid", async () => {
    server = await startServer({ dataDir, env: { AUTH_SECRET: fixture.authSecret } });
    const applied = server.logs().find((line) => line.msg === "database migrations applied")?.applied as string[];
    expect(applied.length).toBeGreaterThan(0);
    expect(applied.some((tag) => fixture.migrations.some((m) => m.tag === tag))).toBe(false);
    const api = async (pathname: string) => {
      const response = await fetch(`${server?.url}${pathname}`, {
        headers: { authorization: `Bearer ${fixture.token}` },
      });
      expect(response.status, pathname).toBe(200);
      return response.json() as Promise<Record<string, unknown> & Record<string, unknown>[]>;
    };
    const documents = (await api("/api/v1/documents?limit=100")).items as { id: string }[];
    expect(documents.map((d) => d.id).sort()).toEqual(fixture.rows.documents?.map((d) => d.id).sort());
    expect(((await api(`/api/v1/documents/${fixture.boeDocumentId}/triage`)).triage as { status: string }).status).toBe(
      "applies",
    );
    expect(await api("/api/v1/obligations")).toHaveLength(2);
    expect(JSON.stringify(await api("/api/v1/follows"))).toContain("BOE-A-2010-10544");
    expect(await api("/api/v1/audit/verify")).toMatchObject({ valid: true });
    expect(await server.stop()).toBe(0);

    const database = await open();
    try {
      const now = await counts(database);
      for (const [table, rows] of Object.entries(fixture.rows)) {
        if (table === "audit_events") expect(now[table]).toBeGreaterThan(rows.length);
        else if (table === "app_migrations") expect(now[table]).toBe(rows.length + applied.length);
        else expect(now[table], table).toBe(rows.length);
      }
      // Run twice, nothing more to do.
      expect(await migrate(database, defaultMigrationsDir)).toEqual([]);
    } finally {
      await database.close();
    }
    process.env.DATA_DIR = dataDir;
    process.env.AUTH_SECRET = fixture.authSecret;
    delete process.env.DATABASE_URL;
    out = "";
    expect(await auditVerify([])).toBe(0);
    expect(out).toContain("chain(s) valid");
  });

  it("a migration failing half-way applies none of that start's migrations and names it", async () => {
    const database = await open();
    try {
      const before = await database.rows(sql`select tag from app_migrations order by tag`);
      const dir = migrationsDir(
        root,
        (all) => [...all, { idx: 9000, tag: "9000_new_table" }, { idx: 9001, tag: "9001_broken" }],
        {
          "9000_new_table": "create table upgrade_probe (id int primary key);",
          "9001_broken":
            "alter table upgrade_probe add column x int;\n--> statement-breakpoint\nselect * from no_such_table;",
        },
      );
      const error = await migrate(database, dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(
        /migration 9001_broken failed, so none of this start's migrations \(9000_new_table, 9001_broken\) was applied.*no_such_table/,
      );
      expect(await database.rows(sql`select tag from app_migrations order by tag`)).toEqual(before);
      expect(await database.rows(sql`select to_regclass('upgrade_probe') as t`)).toEqual([{ t: null }]);

      // An applied migration edited since: refused before anything runs.
      const edited = migrationsDir(root, (all) => all, {
        "0003_documents": `${readFileSync(path.join(defaultMigrationsDir, "0003_documents.sql"), "utf8")}\n-- edited\n`,
      });
      await expect(migrate(database, edited)).rejects.toThrow(
        /migration 0003_documents was applied to this database with other contents/,
      );
      // A database a newer release migrated.
      await database.rows(sql`insert into app_migrations (tag, hash) values ('9999_future', 'x')`);
    } finally {
      await database.close();
    }
    const refused = await startServer({ dataDir, env: { AUTH_SECRET: fixture.authSecret }, waitUntilHealthy: false });
    const code = await new Promise<number | null>((resolve) => refused.child.once("exit", resolve));
    expect(code).toBe(1);
    expect(refused.output.join("\n")).toContain(
      "start failed: the database was migrated by a newer release (9999_future unknown to this one)",
    );
  });
});
