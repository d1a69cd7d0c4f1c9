/**
 * A webhook retry in flight when its process is killed, on the embedded database (one server,
 * restarted) and (TEST_DATABASE_URL set) on PostgreSQL with two instances (the one holding the retry
 * killed, the other finishes it). The receiver, a real HTTP server on loopback, answers the first
 * attempt 500; the retry (attempt two) reaches it and is held unanswered: the process that sent it
 * (found by its socket's port) is SIGKILLed there. Once that process's lease ends (aged here, two
 * minutes in production) the delivery arrives exactly once more, with the same Standard Webhooks
 * `webhook-id` as the failed attempt and a valid signature, is marked sent, and no further copy
 * comes. crash-delivery.test.ts covers a first attempt killed between the receiver's answer and its
 * mark (FAULT_AT=deliveries.sent).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { databaseDirectory, databaseDocuments } from "../../app/.server/alerts/directory.ts";
import { matchDocument } from "../../app/.server/alerts/matching.ts";
import { createWebhook, webhookInputSchema } from "../../app/.server/alerts/webhooks.ts";
import { setAuditSecret } from "../../app/.server/audit/ip-hash.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { startTriage } from "../../app/.server/triage/store.ts";
import { ensureMember } from "../support/api-tokens.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import type { RunningServer } from "../support/server.ts";
import {
  auditVerify,
  authSecret,
  exitSignal,
  expireLeases,
  note,
  prepareSite,
  type Site,
  startHealthy,
  waitFor,
} from "./harness.ts";

interface Hit {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The sender's port (its process is found by it). */
  port: number;
}

/** Answers the first request 500, holds the second unanswered, answers the rest 204; records each. */
async function startReceiver() {
  const hits: Hit[] = [];
  let held: { hit: Hit; res: ServerResponse } | undefined;
  let onHeld: ((hit: Hit) => void) | undefined;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const hit: Hit = {
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body: Buffer.concat(chunks).toString("utf8"),
        port: req.socket.remotePort ?? 0,
      };
      hits.push(hit);
      if (hits.length === 1) res.writeHead(500).end();
      else if (hits.length === 2) {
        held = { hit, res };
        onHeld?.(hit);
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    /** The retry, once it is held. */
    retryHeld: () =>
      new Promise<Hit>((resolve) => {
        if (held) resolve(held.hit);
        else onHeld = resolve;
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Which of `servers` has a TCP socket bound to local `port` (Linux: /proc/net/tcp and the processes' fds). */
function serverWithLocalPort(servers: RunningServer[], port: number): RunningServer | undefined {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns[1]?.endsWith(hex) && columns[9]) inodes.add(columns[9]);
    }
  }
  return servers.find((server) => {
    const pid = server.child.pid;
    if (!pid) return false;
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        return inode !== undefined && inodes.has(inode);
      } catch {
        return false;
      }
    });
  });
}

const readDelivery = (database: Database) =>
  database
    .rows<{ id: string; status: string; attempts: number }>(
      sql`select id::text as id, status, attempts from deliveries where channel = 'webhook'`,
    )
    .then((rows) => rows);

describe.each(databaseTargets())("a webhook retry in flight when its process is killed ($name)", (target) => {
  let site: Site | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop("SIGKILL").catch(() => {});
    await receiver?.stop();
    await target.cleanup();
    site?.remove();
  });

  it("is sent once more after the kill, with the failed attempt's webhook-id, and marked sent", async () => {
    const hooks = await startReceiver();
    receiver = hooks;
    const prepared = await prepareSite(target, "webhook-retry");
    site = prepared;
    const secret = await prepared.withDatabase(async (database) => {
      setAuditSecret(authSecret);
      await ensureMember(database, { organizationId: "org-hook", userId: "user-hook", role: "admin" });
      const made = await createWebhook(
        database.db,
        "org-hook",
        webhookInputSchema("es", { allowPrivate: true }).parse({ url: hooks.url, events: ["document.matched"] }),
      );
      const documentId = await insertDocument(database, {
        source: "boe",
        sourceId: "BOE-A-2026-4343",
        title: "Orden de prueba",
        publishedOn: "2026-12-01",
        areaIds: ["banking"],
      });
      await matchDocument(database, documentId, {
        loadDocument: databaseDocuments(database),
        directory: databaseDirectory(database),
        onMatched: startTriage,
      });
      expect(await readDelivery(database)).toHaveLength(1);
      return made.secret;
    });

    // A short first back-off (500 ms instead of 5 s): the retry comes soon after the 500.
    const env = { WEBHOOKS_ALLOW_PRIVATE_URLS: "1", ALERTS_RETRY_BASE_MS: "500", LOG_LEVEL: "warn" };
    const two = prepared.databaseUrl !== undefined;
    servers.push(await startHealthy(prepared, env));
    if (two) servers.push(await startHealthy(prepared, env));
    const retry = await Promise.race([
      hooks.retryHeld(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no retry within 90 s")), 90_000)),
    ]);
    const holder = serverWithLocalPort(servers, retry.port);
    if (!holder) throw new Error(`no server holds the retry's connection (port ${retry.port})`);
    note(`retry held by instance ${servers.indexOf(holder) + 1} of ${servers.length}`);
    holder.child.kill("SIGKILL");
    expect(await exitSignal(holder, 30_000)).toBe("SIGKILL");
    servers.splice(servers.indexOf(holder), 1);
    expect(hooks.hits).toHaveLength(2);

    // The failed attempt and the retry in flight: one row, leased by the dead process.
    const [inFlight] = await prepared.withDatabase(readDelivery);
    expect(inFlight).toMatchObject({ status: "sending", attempts: 2 });
    await prepared.withDatabase((database) => expireLeases(database, "deliveries"));
    // PostgreSQL: the other instance takes it once the lease has ended; embedded: the restart does.
    if (!two) servers.push(await startHealthy(prepared, env));
    await waitFor(
      async () => hooks.hits.length,
      (count) => count >= 3,
      120_000,
      "the retry sent again",
    );
    // Nothing more comes (another copy would come within the worker's next polls); a stop
    // (SIGTERM) lets the worker mark what it sent.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const server of servers.splice(0)) expect(await server.stop()).toBe(0);

    expect(await prepared.withDatabase(readDelivery)).toEqual([{ id: inFlight?.id, status: "sent", attempts: 3 }]);
    // The 500, the retry in flight, and exactly one more: each with the row's id, each signed.
    expect(hooks.hits.map((hit) => hit.id)).toEqual([inFlight?.id, inFlight?.id, inFlight?.id]);
    const verifier = new Webhook(secret);
    for (const hit of hooks.hits)
      expect(() =>
        verifier.verify(hit.body, {
          "webhook-id": hit.id,
          "webhook-timestamp": hit.timestamp,
          "webhook-signature": hit.signature,
        }),
      ).not.toThrow();
    const audit = await auditVerify(prepared);
    expect(audit.code, audit.output).toBe(0);
  }, 600_000);
});
