/**
 * The hourly run (alerts' digests, then triage's reminders before due dates) killed half-way, on the
 * embedded database and (TEST_DATABASE_URL set) on PostgreSQL. 60 members, each with a digest
 * profile (hour 0: due whatever the hour the test runs at) and an alert of yesterday, and a triage
 * item assigned to their group, due tomorrow (reminders at hour 0, 3 days before). The server runs
 * the hourly work at start; it kills itself after the 20th digest stored (FAULT_AT=digest.stored@20),
 * then, restarted, after the 25th reminder (reminder.stored@25); the third start finishes. SMTP
 * refuses while the kills happen (a mail sent and not yet marked may be sent twice: decision 0145),
 * then accepts. After: every member got one digest and one reminder mail, one reminder notification;
 * one digest row and one reminders_sent row each; the audit chains valid.
 */
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { insertDocument } from "../support/evidence-fixtures.ts";
import { databaseTargets } from "../support/postgres.ts";
import type { RunningServer } from "../support/server.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";
import {
  auditVerify,
  expireLeases,
  populateOrganisation,
  prepareSite,
  runUntilKilled,
  type Site,
  startHealthy,
  tail,
  waitFor,
} from "./harness.ts";

const members = 60;
const madridDay = (date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(date);

async function prepareHourly(database: Database): Promise<void> {
  await populateOrganisation(database, { organizationId: "org-hourly", members, team: "team-hourly" });
  const documentId = await insertDocument(database, {
    source: "boe",
    sourceId: "BOE-A-2026-7001",
    title: "Orden de plazos",
    publishedOn: "2026-12-01",
    areaIds: ["banking"],
  });
  await database.rows(sql`insert into alert_profiles (id, organization_id, user_id, name, email_mode, digest_hour)
    select gen_random_uuid(), 'org-hourly', id, 'Resumen diario', 'digest', 0 from auth_user`);
  await database.rows(sql`insert into alerts (user_id, document_id, profile_id, title, created_at)
    select user_id, ${documentId}::uuid, id, 'Orden de plazos', now() - interval '1 day' from alert_profiles`);
  const tomorrow = madridDay(new Date(Date.now() + 86_400_000));
  await database.rows(sql`insert into triage_items (organization_id, document_id, status, assignee_team_id, due_on)
    values ('org-hourly', ${documentId}::uuid, 'new', 'team-hourly', ${tomorrow}::date)`);
  await database.rows(sql`insert into reminder_settings (user_id, hour, days_before, mail)
    select id, 0, 3, true from auth_user`);
}

interface HourlyState {
  digests: number;
  digestKeys: number;
  digestsSent: number;
  reminders: number;
  reminderMails: number;
  reminderMailsSent: number;
  notices: number;
  noticeUsers: number;
}

const readState = (database: Database) =>
  database
    .rows<HourlyState>(sql`select
      (select count(*)::int from deliveries where match_key like 'digest:%') as digests,
      (select count(distinct match_key)::int from deliveries where match_key like 'digest:%') as "digestKeys",
      (select count(*)::int from deliveries where match_key like 'digest:%' and status = 'sent') as "digestsSent",
      (select count(*)::int from reminders_sent) as reminders,
      (select count(*)::int from mail_outbox where kind = 'reminder') as "reminderMails",
      (select count(*)::int from mail_outbox where kind = 'reminder' and status = 'sent') as "reminderMailsSent",
      (select count(*)::int from alerts where profile_id = '00000000-0000-4000-8000-000000000026') as notices,
      (select count(distinct user_id)::int from alerts where profile_id = '00000000-0000-4000-8000-000000000026') as "noticeUsers"`)
    .then((rows) => rows[0] as HourlyState);

/** The mails the killed process had claimed wait for their leases (2 minutes): aged instead of waited for. */
async function expireAllLeases(database: Database): Promise<void> {
  await expireLeases(database, "deliveries");
  await expireLeases(database, "mail_outbox");
}

describe.each(databaseTargets())("the hourly digests and reminders killed half-way ($name)", (target) => {
  let site: Site | undefined;
  let sink: SmtpSink | undefined;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await sink?.stop();
    await target.cleanup();
    site?.remove();
  });

  it("sends every digest and every reminder once after the restarts", async () => {
    site = await prepareSite(target, "hourly");
    await site.withDatabase(prepareHourly);
    sink = await startSmtpSink({ mode: "refuse" });
    // Retries at most a second apart, and never dead while SMTP refuses.
    const env = {
      SMTP_URL: sink.url,
      ALERTS_RETRY_BASE_MS: "200",
      ALERTS_RETRY_MAX_MS: "1000",
      ALERTS_MAX_ATTEMPTS: "1000",
      OUTBOX_RETRY_BASE_MS: "200",
      OUTBOX_RETRY_MAX_MS: "1000",
      OUTBOX_MAX_ATTEMPTS: "1000",
    };

    await runUntilKilled(site, "digest.stored@20", { env });
    const afterDigests = await site.withDatabase(readState);
    await site.withDatabase(expireAllLeases);
    expect(afterDigests).toMatchObject({ digests: 20, digestKeys: 20, digestsSent: 0, reminders: 0 });

    await runUntilKilled(site, "reminder.stored@25", { env });
    const afterReminders = await site.withDatabase(readState);
    await site.withDatabase(expireAllLeases);
    expect(afterReminders).toMatchObject({
      digests: members,
      digestKeys: members,
      reminders: 25,
      reminderMails: 25,
      notices: 25,
    });
    expect(sink.messages).toHaveLength(0);

    await sink.setMode("accept");
    server = await startHealthy(site, env);
    const running = server;
    const mails = sink;
    await waitFor(
      async () => mails.messages.length,
      (count) => count >= 2 * members,
      90_000,
      "digest and reminder mails",
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${tail(running)}`);
    });
    // A moment for anything sent twice to arrive, then the server stops (its current sends done).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await running.stop()).toBe(0);

    expect(await site.withDatabase(readState)).toEqual({
      digests: members,
      digestKeys: members,
      digestsSent: members,
      reminders: members,
      reminderMails: members,
      reminderMailsSent: members,
      notices: members,
      noticeUsers: members,
    });
    // Each member: two mails (the digest, the reminder), each once.
    const perRecipient = new Map<string, number>();
    for (const message of sink.messages)
      for (const to of message.to) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    expect(sink.messages).toHaveLength(2 * members);
    expect(perRecipient.size).toBe(members);
    expect([...perRecipient.values()].every((count) => count === 2)).toBe(true);
    expect([...sink.countByMessageId().values()].every((count) => count === 1)).toBe(true);
    const audit = await auditVerify(site);
    expect(audit.code, audit.output).toBe(0);
  }, 600_000);
});
