/**
 * The SMTP server down for an hour, then back (issue 42), on the built server, with the embedded
 * database and with PostgreSQL (TEST_DATABASE_URL). Queued before the start: three alert mails sent
 * at once (three matched documents, profile in immediate mode) and one daily digest (profile in
 * digest mode, the previous day's alerts). The SMTP peer (smtp-server, tests/support/smtp-sink.ts)
 * refuses connections for the hour, through a SIGKILL of the server in its middle; the mails are
 * retried on the bounded back-off (every retry's delay at most the cap, the attempt count going on
 * across the restart, none dead), then, once the peer is back, each is delivered exactly once.
 *
 * Time is compressed by configuration, not faked: one second is two minutes of the real schedule
 * (÷ 120), so the hour is 30 s. ALERTS_RETRY_BASE_MS 42 (5 s ÷ 120), ALERTS_RETRY_MAX_MS 15000
 * (30 min), ALERTS_RETRY_WINDOW_MS 720000 (24 h). The worker's poll (500 ms, one minute at this
 * scale) is not scaled: the first retries come at most one poll apart. The restart's seconds count
 * as part of the hour (minutes of it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { enqueueDueDigests } from "../../app/.server/alerts/channels/digest/index.ts";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createProfile, profileInputSchema } from "../../app/.server/alerts/profiles.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { retryDelayMs } from "../../app/.server/kernel/outbox.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { startSmtpSink } from "../support/smtp-sink.ts";

const authSecret = "smtp-hour-auth-secret-0123456789abcdefgh";
const settings = { retryBaseMs: 42, retryMaxMs: 15_000, windowMs: 720_000 };
const hourMs = 30_000;
const organizationId = "org-smtp";

/** The most attempts the schedule allows within `spanMs`: every delay at its shortest (the jitter's half). */
function mostAttemptsWithin(spanMs: number): number {
  let elapsed = 0;
  let attempts = 1;
  while (elapsed + retryDelayMs(attempts, settings, () => 0) <= spanMs) {
    elapsed += retryDelayMs(attempts, settings, () => 0);
    attempts++;
  }
  return attempts;
}

const targets = databaseTargets();
afterAll(async () => {
  for (const target of targets) await target.cleanup();
});

interface Row {
  channel: string;
  status: string;
  attempts: number;
}

describe.each(targets.map((target) => [target.name, target] as const))("SMTP down for an hour (%s)", (_, target) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faults-smtp-hour-"));
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("retries the queued alert mails and digest on a bounded back-off and delivers each once when it returns", async () => {
    const databaseUrl = await target.create();
    const open = (): Promise<Database> =>
      openDatabase(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, "db") });
    const withDatabase = async <T>(use: (database: Database) => Promise<T>): Promise<T> => {
      const database = await open();
      try {
        return await use(database);
      } finally {
        await database.close();
      }
    };

    // Queued while the server is stopped: three immediate alert mails and one digest.
    const queued = await withDatabase(async (database) => {
      await migrate(database, defaultMigrationsDir);
      setAuditSecret(authSecret);
      await ensureMember(database, { organizationId, userId: "eva", email: "eva@example.com", role: "admin" });
      const es = profileInputSchema("es");
      await createProfile(
        database.db,
        organizationId,
        es.parse({ name: "Al momento", userId: "eva", email: "immediate" }),
      );
      const digest = await createProfile(
        database.db,
        organizationId,
        es.parse({ name: "Resumen", userId: "eva", email: "digest", digestHour: 8, timeZone: "Europe/Madrid" }),
      );
      const match = { loadDocument: databaseDocuments(database), directory: databaseDirectory(database) };
      for (const n of [1, 2, 3]) {
        const id = await insertDocument(database, {
          source: "boe",
          sourceId: `BOE-A-2026-90${n}`,
          title: `Orden de prueba ${n}`,
          publishedOn: "2026-12-01",
        });
        await matchDocument(database, id, match);
        // Yesterday's alert of the digest profile (what the in-app channel leaves for the digest).
        await database.rows(sql`insert into alerts (user_id, document_id, profile_id, title, created_at)
          values ('eva', ${id}::uuid, ${digest.id}::uuid, ${`Orden de prueba ${n}`}, '2026-12-01T10:00:00+01:00')
          on conflict do nothing`);
      }
      const digests = await enqueueDueDigests(database, {
        directory: databaseDirectory(database),
        from: "alertas@example.com",
        siteUrl: "http://127.0.0.1",
        now: new Date("2026-12-02T07:30:00Z"), // 08:30 in Madrid
      });
      expect(digests).toBe(1);
      return database.rows<Row>(
        sql`select channel, status, attempts from deliveries where channel in ('email', 'mail') order by channel`,
      );
    });
    expect(queued.map((row) => row.channel)).toEqual(["email", "email", "email", "mail"]);

    const sink = await startSmtpSink({ mode: "refuse" });
    const env = {
      AUTH_SECRET: authSecret,
      SMTP_URL: sink.url,
      MAIL_FROM: "alertas@example.com",
      LOG_FORMAT: "json",
      ALERTS_RETRY_BASE_MS: String(settings.retryBaseMs),
      ALERTS_RETRY_MAX_MS: String(settings.retryMaxMs),
      ALERTS_RETRY_WINDOW_MS: String(settings.windowMs),
      // The attempts limit of in-app and chat deliveries: mail is retried for its window instead
      // (with this limit, an attempts-counted mail would be dead a few minutes into the outage).
      ALERTS_MAX_ATTEMPTS: "3",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    try {
      const retries: { deliveryId: string; attempts: number; retryInMs: number }[] = [];
      const failures = (running: RunningServer) =>
        running
          .logs()
          .filter((line) => line.msg === "delivery failed, will retry")
          .map((line) => ({
            deliveryId: String(line.deliveryId),
            attempts: Number(line.attempts),
            retryInMs: Number(line.retryInMs),
          }));
      server = await startServer({ dataDir, env });
      const down = Date.now();
      // Half the hour, then the server is killed (a power cut) and started again.
      await expect.poll(() => failures(server as RunningServer).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(8);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, down + hourMs / 2 - Date.now())));
      expect(await server.stop("SIGKILL")).toBeNull();
      retries.push(...failures(server));
      const beforeKill = new Map<string, number>();
      for (const r of retries) beforeKill.set(r.deliveryId, Math.max(beforeKill.get(r.deliveryId) ?? 0, r.attempts));
      server = await startServer({ dataDir, env });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, down + hourMs - Date.now())));
      const afterRestart = failures(server);
      const span = Date.now() - down;
      retries.push(...afterRestart);

      // Bounded back-off: every delay within the cap; retried all through the hour; none dead.
      expect(retries.every((r) => r.retryInMs > 0 && r.retryInMs <= settings.retryMaxMs)).toBe(true);
      const ids = new Set(retries.map((r) => r.deliveryId));
      expect(ids.size).toBe(4);
      for (const id of ids) {
        const counts = retries.filter((r) => r.deliveryId === id).map((r) => r.attempts);
        expect(Math.max(...counts)).toBeGreaterThanOrEqual(4);
        // Bounded from above: no more attempts than the schedule holds with every delay at its shortest.
        expect(Math.max(...counts)).toBeLessThanOrEqual(mostAttemptsWithin(span));
      }
      // The retry state is the row's: after the restart each mail's attempts go on from where they were.
      for (const [id, attempts] of beforeKill) {
        const next = afterRestart.filter((r) => r.deliveryId === id).map((r) => r.attempts);
        if (next.length) expect(Math.min(...next)).toBeGreaterThan(attempts);
      }
      expect(server.logs().some((line) => line.msg === "delivery dead")).toBe(false);
      expect(sink.messages).toEqual([]);

      // The SMTP server is back: each mail arrives once.
      await sink.setMode("accept");
      // At its next attempt (at most the cap away); a mail whose send the kill caught waits for its
      // lease first (2 minutes, not compressed).
      await expect.poll(() => sink.messages.length, { timeout: 120_000 + settings.retryMaxMs + 15_000 }).toBe(4);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(sink.messages).toHaveLength(4);
      expect([...sink.countByMessageId().values()]).toEqual([1, 1, 1, 1]);
      expect(sink.messages.every((message) => message.to.includes("eva@example.com"))).toBe(true);
      expect(await server.stop()).toBe(0);
      const rows = await withDatabase((database) =>
        database.rows<Row>(
          sql`select channel, status, attempts from deliveries where channel in ('email', 'mail') order by channel`,
        ),
      );
      expect(rows.map((row) => row.status)).toEqual(["sent", "sent", "sent", "sent"]);
      expect(rows.every((row) => row.attempts > 4)).toBe(true);
    } finally {
      await sink.stop();
    }
  }, 600_000);
});
