/**
 * A new PGlite cluster is created by a helper process (app/.server/db/client.ts,
 * createClusterApart): initdb inside the WebAssembly module takes about 1 GB for a few seconds,
 * which the server process would otherwise keep. The server then opens the existing cluster.
 * The rest of the suite starts clusters from templates (PGLITE_TEMPLATE, PGLITE_TEMPLATE_DIR), so
 * this path is shown here.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";
import { serverEnvironment, serverNodeFlags } from "../../server/runtime-flags.ts";

const root = mkdtempSync(path.join(tmpdir(), "pglite-first-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a PGlite cluster's first start", () => {
  it("is created by a helper process, then opened and usable, and opened as it is the next time", async () => {
    const { PGLITE_TEMPLATE: template, PGLITE_TEMPLATE_DIR: templateDir } = process.env;
    delete process.env.PGLITE_TEMPLATE;
    delete process.env.PGLITE_TEMPLATE_DIR;
    const dir = path.join(root, "db");
    try {
      const peakBefore = process.resourceUsage().maxRSS * 1024;
      const first = await openDatabase({ pgliteDir: dir });
      expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
      // This process's peak did not take initdb's gigabyte (opening an existing cluster: about 80 MB).
      const grew = process.resourceUsage().maxRSS * 1024 - peakBefore;
      expect(grew).toBeLessThan(400 * 1024 * 1024);
      await first.rows(sql`create table kept (v int)`);
      await first.rows(sql`insert into kept values (42)`);
      await first.close();
      const again = await openDatabase({ pgliteDir: dir });
      expect(await again.rows(sql`select v from kept`)).toEqual([{ v: 42 }]);
      // The extensions the search needs load on a cluster the helper made.
      await again.rows(sql`create extension if not exists pg_trgm`);
      expect(await again.rows(sql`select similarity('boletín', 'boletin') > 0 as similar`)).toEqual([
        { similar: true },
      ]);
      await again.close();
    } finally {
      if (template) process.env.PGLITE_TEMPLATE = template;
      if (templateDir) process.env.PGLITE_TEMPLATE_DIR = templateDir;
    }
  }, 120_000);

  it("runs the WebAssembly on V8's baseline tier with the server's flags: queries do not take the optimising compiler's memory", async () => {
    // The cluster the first test made. V8's optimising tier compiles PGlite's hot functions in the
    // background, tens of MB each while it runs: the first queries after a start took a process
    // from 300 to 776 MB (decision 0132). `--liftoff-only` does that only as a start-up flag.
    const dir = path.join(root, "db");
    const script = `
      const { openDatabase } = await import(${JSON.stringify(path.resolve("app/.server/db/client.ts"))});
      const { sql } = await import("drizzle-orm");
      const db = await openDatabase({ pgliteDir: process.argv[1] });
      await db.rows(sql\`create table if not exists t (id int, title text)\`);
      await db.rows(sql\`insert into t select i, 'ley ' || i from generate_series(1, 2000) i\`);
      for (const q of ["select count(*) from pg_class c join pg_attribute a on a.attrelid = c.oid",
        "select sum(i), string_agg(i::text, ',') from generate_series(1, 20000) i",
        "select to_tsvector('spanish', title) from t", "select * from t where title ilike '%ley 1%' order by id desc",
        "select table_name, column_name from information_schema.columns"]) await db.rows(sql.raw(q));
      await db.close();
      process.stdout.write(JSON.stringify({ peak: process.resourceUsage().maxRSS * 1024 }));`;
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(
        process.execPath,
        [...serverNodeFlags, "--input-type=module", "-e", script, dir],
        { env: { ...process.env, ...serverEnvironment, PGLITE_TEMPLATE: "", PGLITE_TEMPLATE_DIR: "" } },
        (error, out) => (error ? reject(error) : resolve({ stdout: out })),
      ),
    );
    const { peak } = JSON.parse(stdout) as { peak: number };
    // Measured: about 160 MB with the flag, 640-700 MB without it.
    expect(peak).toBeLessThan(350 * 1024 * 1024);
  }, 120_000);
});
