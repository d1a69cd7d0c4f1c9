/** The site's tables: demo requests, their mail outbox, and the no-JavaScript form's flash state. */
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const contactRequests = pgTable(
  "contact_requests",
  {
    id: uuid("id").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    locale: text("locale").notNull(),
    name: text("name").notNull(),
    firstName: text("first_name").notNull(),
    email: text("email").notNull(),
    position: text("position").notNull().default(""),
    company: text("company").notNull(),
    phone: text("phone").notNull().default(""),
    location: text("location").notNull().default(""),
    comments: text("comments").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    /** HMAC-SHA256 of the client IP with FORM_SECRET: lets abuse be correlated without keeping the address. */
    ipHash: text("ip_hash").notNull(),
  },
  (table) => [
    index("contact_requests_created_at_idx").on(table.createdAt),
    index("contact_requests_email_idx").on(sql`lower(${table.email})`),
  ],
);

/** One row per mail to send. status: pending → sending → sent, or dead after too many attempts. */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("outbox_request_idx").on(table.requestId),
  ],
);

/** What a no-JavaScript submission shows after its 303: read once, expires quickly. */
export const formFlash = pgTable(
  "form_flash",
  {
    id: text("id").primaryKey(),
    /** Lower-cased email of the submission (if any), so erasure can find it. */
    email: text("email").notNull().default(""),
    payload: jsonb("payload").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("form_flash_expires_idx").on(table.expiresAt)],
);
