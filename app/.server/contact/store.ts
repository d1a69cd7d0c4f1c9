/** Demo requests in the database: accept (request + outbox row in one transaction), flash state, operations. */
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { asc, desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import type { ContactInput } from "../../lib/contact-schema.ts";
import type { Database } from "../db/client.ts";
import { contactRequests, formFlash, outbox } from "../db/schema.ts";
import { retryDeadRows } from "../kernel/outbox.ts";

export interface NewLead {
  fields: ContactInput;
  locale: string;
  userAgent: string;
  clientIp: string;
}

export type Lead = typeof contactRequests.$inferSelect;

/** How long a no-JavaScript outcome waits for its page to read it. */
export const flashTtlMs = 10 * 60 * 1000;

export function hashIp(secret: string, ip: string): string {
  return createHmac("sha256", secret).update(`ip:${ip}`).digest("hex");
}

export function createContactStore(database: Database, secret: string) {
  const { db } = database;

  return {
    /** Stores the request and its outbox row in one transaction. */
    async accept(lead: NewLead): Promise<{ id: string }> {
      const id = randomUUID();
      await db.transaction(async (tx) => {
        await tx.insert(contactRequests).values({
          id,
          locale: lead.locale,
          ...lead.fields,
          userAgent: lead.userAgent.slice(0, 500),
          ipHash: hashIp(secret, lead.clientIp),
        });
        await tx.insert(outbox).values({ id: randomUUID(), requestId: id });
      });
      return { id };
    },

    async putFlash(payload: unknown, email: string): Promise<string> {
      const id = randomBytes(18).toString("base64url");
      await db.insert(formFlash).values({
        id,
        email: email.toLowerCase(),
        payload,
        expiresAt: new Date(Date.now() + flashTtlMs),
      });
      return id;
    },

    /** Reads and deletes a flash state; undefined when unknown or expired. */
    async takeFlash(id: string): Promise<unknown> {
      const rows = await db.delete(formFlash).where(eq(formFlash.id, id)).returning();
      const row = rows[0];
      if (!row || row.expiresAt.getTime() < Date.now()) return undefined;
      return row.payload;
    },

    async deleteExpiredFlash(): Promise<number> {
      const rows = await db
        .delete(formFlash)
        .where(lt(formFlash.expiresAt, new Date()))
        .returning({ id: formFlash.id });
      return rows.length;
    },

    async deleteOlderThan(days: number): Promise<number> {
      const cutoff = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
      const rows = await db
        .delete(contactRequests)
        .where(lt(contactRequests.createdAt, cutoff))
        .returning({ id: contactRequests.id });
      return rows.length;
    },

    async list(limit = 1000): Promise<(Lead & { delivery: string | null; attempts: number | null })[]> {
      return db
        .select({
          ...getTableColumns(contactRequests),
          delivery: outbox.status,
          attempts: outbox.attempts,
        })
        .from(contactRequests)
        .leftJoin(outbox, eq(outbox.requestId, contactRequests.id))
        .orderBy(desc(contactRequests.createdAt))
        .limit(limit);
    },

    async all(): Promise<Lead[]> {
      return db.select().from(contactRequests).orderBy(asc(contactRequests.createdAt));
    },

    /** GDPR erasure: the requests with this address, their outbox rows (cascade) and flash state. */
    async erase(email: string): Promise<{ requests: number; flash: number }> {
      const address = email.trim().toLowerCase();
      return db.transaction(async (tx) => {
        const requests = await tx
          .delete(contactRequests)
          .where(sql`lower(${contactRequests.email}) = ${address}`)
          .returning({ id: contactRequests.id });
        const flash = await tx.delete(formFlash).where(eq(formFlash.email, address)).returning({ id: formFlash.id });
        return { requests: requests.length, flash: flash.length };
      });
    },

    /** Puts dead outbox rows back in the queue with a fresh attempt count. */
    retryDead: (): Promise<number> => retryDeadRows(database, "outbox"),
  };
}

export type ContactStore = ReturnType<typeof createContactStore>;
