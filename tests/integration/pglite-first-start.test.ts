/**
 * A new PGlite cluster is created by a helper process (app/.server/db/client.ts,
 * createClusterApart): initdb inside the WebAssembly module takes about 1 GB for a few seconds,
 * which the server process would otherwise keep. The server then opens the existing cluster.
 * The rest of the suite starts clusters from templates (PGLITE_TEMPLATE, PGLITE_TEMPLATE_DIR), so
 * this path is shown here.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";

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
});
