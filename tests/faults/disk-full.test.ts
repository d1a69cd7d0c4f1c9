/**
 * The disk full under the embedded database: DATA_DIR on a small filesystem of its own (a tmpfs
 * mounted by the test, which needs root; skipped with the reason otherwise). The built server runs
 * on it with DISK_MIN_FREE_MB=16; a file then fills the disk. The server says so (/healthz 503
 * "disk-full", an error in its log), refuses writes with 503 and a message in the reader's language,
 * still serves reads, and survives the disk filled to the last byte (PostgreSQL inside PGlite
 * failing its own writes). Space freed: writes accepted again without a restart; after a restart
 * the data is intact (every lead accepted before and after, nothing else) and `audit:verify` valid.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { validLead } from "../support/contact-services.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { auditVerify, authSecret, tail, waitFor } from "./harness.ts";

const mountPoint = mkdtempSync(path.join(tmpdir(), "faults-disk-"));
/** Whether this process may mount a tmpfs (root in a sandbox that allows it). */
function canMount(): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=192m", "tmpfs", mountPoint], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const mounted = canMount();

const freeBytes = () => {
  const stats = statfsSync(mountPoint);
  return Number(stats.bavail) * Number(stats.bsize);
};

/** Writes zeros to `file` until `leaveBytes` are left (0: until the filesystem refuses). */
function fill(file: string, leaveBytes: number): void {
  const fd = openSync(file, "a");
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (;;) {
      const room = freeBytes() - leaveBytes;
      if (room <= 0) return;
      try {
        writeSync(fd, chunk, 0, Math.min(chunk.length, room));
      } catch {
        return; // ENOSPC: full
      }
    }
  } finally {
    closeSync(fd);
  }
}

async function postLead(server: RunningServer, index: number, language: "es" | "en") {
  const response = await fetch(`${server.url}/mail/send`, {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": language },
    body: JSON.stringify({ ...validLead, email: `lead${index}@example.com`, comments: `request ${index}` }),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
}

describe.skipIf(!mounted)("the disk full under the embedded database (a tmpfs of 192 MB)", () => {
  const dataDir = path.join(mountPoint, "data");
  const filler = path.join(mountPoint, "filler");
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    try {
      execFileSync("umount", [mountPoint], { stdio: "ignore" });
    } finally {
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it("refuses writes with a clear error, keeps serving reads, and loses nothing once space returns", async () => {
    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    await migrate(database, defaultMigrationsDir);
    await database.close();
    const env = { AUTH_SECRET: authSecret, DISK_MIN_FREE_MB: "16", RATE_LIMIT_PER_MINUTE: "1000" };
    server = await startServer({ dataDir, env });
    const running = server;
    expect((await postLead(running, 1, "es")).status).toBe(201);

    // The disk fills (another program, logs, a backup): 8 MB left, below the 16 MB minimum.
    fill(filler, 8 * 1024 * 1024);
    const health = await waitFor(
      async () => {
        const response = await fetch(`${running.url}/healthz`);
        return { status: response.status, body: await response.json() };
      },
      (answer) => answer.status === 503,
      15_000,
      "health check",
    );
    expect(health.body).toEqual({ status: "unavailable", reason: "disk-full" });
    expect(running.output.join("\n")).toMatch(/disk nearly full under the database: writes refused/);

    const refusedEs = await postLead(running, 2, "es");
    expect(refusedEs.status).toBe(503);
    expect(refusedEs.body.message).toMatch(/^El disco del servidor está casi lleno: no se guardan cambios/);
    const refusedEn = await postLead(running, 3, "en");
    expect(refusedEn.status).toBe(503);
    expect(refusedEn.body.message).toMatch(/^The server's disk is nearly full: no changes are saved/);
    // Reads go on.
    expect((await fetch(`${running.url}/`)).status).toBe(200);

    // To the last byte: the background work's own writes fail inside PGlite; the process lives on.
    fill(filler, 0);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(running.child.exitCode, tail(running)).toBeNull();
    expect((await postLead(running, 4, "es")).status).toBe(503);

    // Space returns: writes accepted again, no restart needed.
    rmSync(filler);
    await waitFor(
      async () => (await fetch(`${running.url}/healthz`)).status,
      (status) => status === 200,
      15_000,
      "health back",
    );
    expect((await postLead(running, 5, "en")).status).toBe(201);
    expect(await running.stop()).toBe(0);

    // Restarted: the data as accepted (leads 1 and 5, nothing refused), the audit chains valid.
    const reopened = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    try {
      const leads = await reopened.rows<{ email: string }>(sql`select email from contact_requests order by email`);
      expect(leads.map((lead) => lead.email)).toEqual(["lead1@example.com", "lead5@example.com"]);
      const [check] = await reopened.rows<{ ok: boolean }>(sql`select count(*) >= 0 as ok from documents`);
      expect(check?.ok).toBe(true);
    } finally {
      await reopened.close();
    }
    const audit = await auditVerify({ dataDir, env: (extra = {}) => ({ AUTH_SECRET: authSecret, ...extra }) });
    expect(audit.code, audit.output).toBe(0);
  }, 600_000);
});
