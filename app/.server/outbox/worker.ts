/**
 * The outbox worker: two queues, the contact requests' `outbox` (rendered at send time from the
 * stored request) and the platform's `mail_outbox` (invitations, password resets, new-device
 * notices, rendered when queued, with a `kind`). For both it claims due rows one at a time (FOR UPDATE SKIP LOCKED, with a lease so a
 * crashed instance's rows are taken again), sends the notification, retries with exponential
 * backoff and jitter, and marks a row dead after a bounded number of attempts.
 */
import { eq, sql } from "drizzle-orm";
import type { ContactStore } from "../contact/store.ts";
import type { Database } from "../db/client.ts";
import { contactRequests, mailOutbox, outbox } from "../db/schema.ts";
import { createPollLoop } from "../jobs/poll-loop.ts";
import type { Logger } from "../logger.ts";
import { buildNotification, type NotificationOptions } from "../mail/notification.ts";
import type { MailTransport } from "../mail/transport.ts";

export interface OutboxSettings {
  /** First retry delay; doubles each attempt. */
  retryBaseMs: number;
  /** Upper bound of one retry delay. */
  retryMaxMs: number;
  /** After this many failed attempts a row is dead. */
  maxAttempts: number;
  pollMs: number;
  /** A row in "sending" longer than this belongs to a crashed instance and is taken again. */
  leaseMs: number;
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

/** Exponential backoff with "equal jitter": half the delay fixed, half random; never above the cap. */
export function retryDelayMs(attempt: number, settings: Pick<OutboxSettings, "retryBaseMs" | "retryMaxMs">): number {
  const exp = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

interface Claimed {
  id: string;
  request_id: string;
  attempts: number;
}

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
  const batchSize = 8;
  const log = deps.log.child({ component: "outbox" });
  let lastRetention = 0;
  let lastFlashCleanup = 0;

  /** Up to `batch` due rows, claimed with a lease; rows other instances hold are skipped. */
  async function claim(): Promise<Claimed[]> {
    return database.rows<Claimed>(sql`
      update outbox set status = 'sending', attempts = attempts + 1,
        lease_until = now() + (${settings.leaseMs}::int * interval '1 millisecond')
      where id in (
        select id from outbox
        where (status = 'pending' and next_attempt_at <= now())
           or (status = 'sending' and lease_until < now())
        order by next_attempt_at
        limit ${batchSize}
        for update skip locked)
      returning id, request_id, attempts`);
  }

  async function process(row: Claimed): Promise<void> {
    const [lead] = await database.db.select().from(contactRequests).where(eq(contactRequests.id, row.request_id));
    if (!lead) {
      await database.db.delete(outbox).where(eq(outbox.id, row.id));
      return;
    }
    const message = buildNotification(lead, deps.mail);
    try {
      await transport.send(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
      if (row.attempts >= settings.maxAttempts) {
        await database.db
          .update(outbox)
          .set({ status: "dead", leaseUntil: null, lastError: reason })
          .where(eq(outbox.id, row.id));
        log.error(
          { outboxId: row.id, requestId: row.request_id, attempts: row.attempts, err: error },
          "contact mail dead after too many attempts (npm run leads -- retry-dead)",
        );
        return;
      }
      const delay = retryDelayMs(row.attempts, settings);
      await database.rows(sql`
        update outbox set status = 'pending', lease_until = null, last_error = ${reason},
          next_attempt_at = now() + (${delay}::int * interval '1 millisecond')
        where id = ${row.id}`);
      log.warn(
        { outboxId: row.id, requestId: row.request_id, attempts: row.attempts, retryInMs: delay, err: reason },
        "contact mail failed, will retry",
      );
      return;
    }
    await database.db
      .update(outbox)
      .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
      .where(eq(outbox.id, row.id));
    log.info(
      { outboxId: row.id, requestId: row.request_id, messageId: message.messageId, attempts: row.attempts },
      "contact mail sent",
    );
  }

  interface ClaimedMail {
    id: string;
    kind: string;
    attempts: number;
  }

  /** Platform mail: the same claim, lease and backoff over mail_outbox. */
  async function claimMail(): Promise<ClaimedMail[]> {
    return database.rows<ClaimedMail>(sql`
      update mail_outbox set status = 'sending', attempts = attempts + 1,
        lease_until = now() + (${settings.leaseMs}::int * interval '1 millisecond')
      where id in (
        select id from mail_outbox
        where (status = 'pending' and next_attempt_at <= now())
           or (status = 'sending' and lease_until < now())
        order by next_attempt_at
        limit ${batchSize}
        for update skip locked)
      returning id, kind, attempts`);
  }

  async function processMail(row: ClaimedMail): Promise<void> {
    const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id));
    if (!mail) return;
    let host = "localhost";
    try {
      host = new URL(deps.mail.siteUrl).hostname || host;
    } catch {
      // keep the default
    }
    const message = {
      from: deps.mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<${mail.kind}-${mail.id}@${host}>`,
      headers: { "Auto-Submitted": "auto-generated" },
    };
    try {
      await transport.send(message);
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
      if (row.attempts >= settings.maxAttempts) {
        await database.db
          .update(mailOutbox)
          .set({ status: "dead", leaseUntil: null, lastError: reason })
          .where(eq(mailOutbox.id, row.id));
        log.error({ mailId: row.id, kind: row.kind, attempts: row.attempts, err: error }, "platform mail dead");
        return;
      }
      const delay = retryDelayMs(row.attempts, settings);
      await database.rows(sql`
        update mail_outbox set status = 'pending', lease_until = null, last_error = ${reason},
          next_attempt_at = now() + (${delay}::int * interval '1 millisecond')
        where id = ${row.id}`);
      log.warn({ mailId: row.id, kind: row.kind, retryInMs: delay, err: reason }, "platform mail failed, will retry");
      return;
    }
    await database.db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
      .where(eq(mailOutbox.id, row.id));
    log.info({ mailId: row.id, kind: row.kind, attempts: row.attempts }, "platform mail sent");
  }

  async function drain(): Promise<number> {
    let handled = 0;
    while (!loop.stopping) {
      const mails = await claimMail();
      if (mails.length === 0) break;
      const results = await Promise.allSettled(mails.map((row) => processMail(row)));
      const failed = results.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
      handled += mails.length;
    }
    while (!loop.stopping) {
      const rows = await claim();
      if (rows.length === 0) break;
      // A few mails in parallel over the transport's pooled connections.
      // allSettled: one failure must not leave the others' sends running unawaited
      // (their rows would not be marked sent, and would be sent again after the lease).
      const results = await Promise.allSettled(rows.map((row) => process(row)));
      const failed = results.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
      handled += rows.length;
    }
    return handled;
  }

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

  const loop = createPollLoop({
    pollMs: settings.pollMs,
    log,
    name: "outbox",
    async tick() {
      await housekeeping();
      await drain();
    },
  });

  return {
    start: () => loop.start(),
    drain,
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      transport.close();
    },
  };
}
