/**
 * A webhook delivery in flight when the server is killed: the receiver answered, the row was not yet
 * marked sent (FAULT_AT=deliveries.sent, app/.server/kernel/fault.ts). After the restart the row is
 * sent again with the same Standard Webhooks id (the receiver deduplicates on it) and ends sent,
 * once; the matching that made it left one delivery per subscription. Built server, embedded
 * database, a real HTTP receiver on loopback.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createWebhook } from "../../app/.server/alerts/webhooks.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import { type Database, openDatabase } from "../../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../../app/.server/db/migrate.ts";
import { startTriage } from "../../app/.server/triage/store.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { type RunningServer, startServer } from "../support/server.ts";

const authSecret = "delivery-crash-auth-secret-0123456789abc";

describe("a webhook delivery killed between the receiver's answer and its mark", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faults-delivery-"));
  const received: string[] = [];
  let waiting: (() => void) | undefined;
  let receiver: Server;
  let receiverUrl = "";
  let server: RunningServer | undefined;

  const withDatabase = async <T>(use: (database: Database) => Promise<T>): Promise<T> => {
    const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  };
  const nextPost = () => new Promise<void>((resolve) => (waiting = resolve));

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received.push(String(req.headers["webhook-id"]));
        res.writeHead(204).end();
        waiting?.();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await withDatabase(async (database) => {
      await migrate(database, defaultMigrationsDir);
      setAuditSecret(authSecret);
      await ensureMember(database, { organizationId: "org-hook", userId: "user-hook", role: "admin" });
      await createWebhook(database.db, "org-hook", {
        url: receiverUrl,
        areas: [],
        jurisdictions: [],
        kinds: [],
        sources: [],
        q: "",
        events: ["document.matched"],
      } as unknown as Parameters<typeof createWebhook>[2]);
      const documentId = await insertDocument(database, {
        source: "boe",
        sourceId: "BOE-A-2026-4242",
        title: "Orden de prueba",
        publishedOn: "2026-12-01",
        areaIds: ["banking"],
      });
      const match = {
        loadDocument: databaseDocuments(database),
        directory: databaseDirectory(database),
        onMatched: startTriage,
      };
      // Matched twice (a job retried): still one delivery per subscription.
      await matchDocument(database, documentId, match);
      await matchDocument(database, documentId, match);
      const rows = await database.rows(sql`select id from deliveries where channel = 'webhook'`);
      expect(rows).toHaveLength(1);
    });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is sent again after the restart with the same webhook-id, and marked sent once", async () => {
    const env = { AUTH_SECRET: authSecret, WEBHOOKS_ALLOW_PRIVATE_URLS: "1" };
    const first = nextPost();
    const killed = await startServer({
      dataDir,
      env: { ...env, FAULT_AT: "deliveries.sent" },
      waitUntilHealthy: false,
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      killed.child.once("exit", (_code, signal) => resolve(signal)),
    );
    await Promise.race([
      first,
      new Promise((_, reject) => setTimeout(() => reject(new Error(killed.output.join("\n"))), 40_000)),
    ]);
    expect(await exited).toBe("SIGKILL");
    expect(received).toHaveLength(1);

    const [inFlight] = await withDatabase((database) =>
      database.rows<{ id: string; status: string }>(sql`select id, status from deliveries where channel = 'webhook'`),
    );
    expect(inFlight).toMatchObject({ id: received[0], status: "sending" });
    // The dead process's lease (2 minutes) ends: aged here instead of waited for.
    await withDatabase((database) =>
      database.rows(sql`update deliveries set lease_until = now() - interval '1 second' where status = 'sending'`),
    );

    const second = nextPost();
    server = await startServer({ dataDir, env });
    await second;
    expect(await server.stop()).toBe(0);
    expect(received).toEqual([inFlight?.id, inFlight?.id]);
    const rows = await withDatabase((database) =>
      database.rows<{ status: string; attempts: number }>(
        sql`select status, attempts from deliveries where channel = 'webhook'`,
      ),
    );
    expect(rows).toEqual([{ status: "sent", attempts: 2 }]);
  });
});
