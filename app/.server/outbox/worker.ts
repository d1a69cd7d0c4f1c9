/**
 * The mail outbox worker: two outboxes (kernel/outbox.ts) in one loop, the platform's
 * `mail_outbox` (invitations, password resets, new-device notices, rendered when queued, with a
 * `kind`) and the contact requests' `outbox` (rendered at send time from the stored request).
 * Claim, lease, back-off with jitter and dead rows are the generic outbox's; this file says how
 * each row is sent, and does the contact store's housekeeping (expired flash state, retention).
 */
import { eq, sql } from "drizzle-orm";
import type { ContactStore } from "../contact/store.ts";
import type { Database } from "../db/client.ts";
import { contactRequests, mailOutbox } from "../db/schema.ts";
import { createOutbox, createOutboxLoop, type OutboxRetrySettings } from "../kernel/outbox.ts";
import type { Logger } from "../logger.ts";
import { buildNotification, type NotificationOptions } from "../mail/notification.ts";
import type { MailTransport } from "../mail/transport.ts";

export interface OutboxSettings extends OutboxRetrySettings {
  pollMs: number;
  retentionDays: number;
}

export const defaultOutboxSettings: OutboxSettings = {
  retryBaseMs: 2000,
  retryMaxMs: 60_000,
  maxAttempts: 25,
  pollMs: 1000,
  leaseMs: 120_000,
  retentionDays: 730,
};

export interface OutboxWorker {
  start(): void;
  /** Runs claim/send until nothing is due (tests and the CLI). */
  drain(): Promise<number>;
  wake(): void;
  /** Stops after the current send. */
  stop(): Promise<void>;
}

export function createOutboxWorker(deps: {
  database: Database;
  store: ContactStore;
  transport: MailTransport;
  mail: NotificationOptions;
  settings: OutboxSettings;
  log: Logger;
}): OutboxWorker {
  const { database, store, transport, settings } = deps;
  const log = deps.log.child({ component: "outbox" });
  const retry = { ...settings, batchSize: 8 };
  let lastRetention = 0;
  let lastFlashCleanup = 0;
  let host = "localhost";
  try {
    host = new URL(deps.mail.siteUrl).hostname || host;
  } catch {
    // keep the default
  }

  const platformMail = createOutbox<{ id: string; attempts: number; kind: string }>({
    database,
    table: "mail_outbox",
    columns: ["kind"],
    settings: retry,
    log,
    what: "platform mail",
    describe: (row) => ({ kind: row.kind }),
    async send(row) {
      const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
      if (!mail) return "handled";
      await transport.send({
        from: deps.mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.kind}-${mail.id}@${host}>`,
        headers: { "Auto-Submitted": "auto-generated" },
      });
    },
  });

  const contactMail = createOutbox<{ id: string; attempts: number; request_id: string }>({
    database,
    table: "outbox",
    columns: ["request_id"],
    settings: retry,
    log,
    what: "contact mail",
    describe: (row) => ({ requestId: row.request_id }),
    deadHint: "npm run leads -- retry-dead",
    async send(row) {
      const [lead] = await database.db.select().from(contactRequests).where(eq(contactRequests.id, row.request_id));
      if (!lead) {
        await database.rows(sql`delete from outbox where id = ${row.id}`);
        return "handled";
      }
      await transport.send(buildNotification(lead, deps.mail));
    },
  });

  async function housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - lastFlashCleanup > 10 * 60 * 1000) {
      lastFlashCleanup = now;
      await store.deleteExpiredFlash();
    }
    if (now - lastRetention > 24 * 60 * 60 * 1000) {
      lastRetention = now;
      const deleted = await store.deleteOlderThan(settings.retentionDays);
      if (deleted > 0) log.info({ deleted, retentionDays: settings.retentionDays }, "old demo requests deleted");
    }
  }

  const loop = createOutboxLoop({
    outboxes: [platformMail, contactMail],
    pollMs: settings.pollMs,
    log,
    name: "outbox",
    beforeDrain: housekeeping,
  });

  return {
    start: () => loop.start(),
    drain: () => loop.drain(),
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      transport.close();
    },
  };
}
