/**
 * Calendar feeds (issue 26) on PGlite and PostgreSQL: created and revoked on the account and admin
 * pages (audited, the URL shown once and only its hash stored), served at /calendar/{token}.ics
 * without a session, parsed with ical.js: the expected events (entry into force of followed and
 * triaged documents, triage and obligation due dates), stable UIDs, DTSTAMP, all-day dates,
 * escaping; a member's feed holds their own and their groups' work only; revoked, unknown and
 * malformed URLs answer 404; the address is rate-limited; the token never reaches a log line.
 */

import { sql } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { calendarRequestsPerMinute } from "../../app/.server/calendar/serve.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { redactSecrets } from "../../app/.server/logger.ts";
import * as feedsPage from "../../app/routes/app/calendar-feeds.tsx";
import * as feedRoute from "../../app/routes/calendar-feed.ts";
import { openMigrated } from "../support/alerts-fixtures.ts";
import { type EvidenceStory, setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { pageContext, pageRequest, settle } from "../support/page-harness.ts";
import { databaseTargets } from "../support/postgres.ts";

type Member = EvidenceStory["ana"];

interface Parsed {
  uid: string;
  summary: string;
  start: string;
  isDate: boolean;
  stamp: string | null;
  url: string | null;
}

function parseIcs(text: string): { name: string | null; events: Parsed[] } {
  const component = new ICAL.Component(ICAL.parse(text));
  return {
    name:
      component.getFirstPropertyValue("name")?.toString() ??
      component.getFirstPropertyValue("x-wr-calname")?.toString() ??
      null,
    events: component.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent);
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toString(),
        isDate: event.startDate.isDate,
        stamp: vevent.getFirstPropertyValue("dtstamp")?.toString() ?? null,
        url: vevent.getFirstPropertyValue("url")?.toString() ?? null,
      };
    }),
  };
}

for (const target of databaseTargets()) {
  describe(`calendar feeds on ${target.name}`, () => {
    let database: Database;
    let story: EvidenceStory;
    let ip = 0;

    const page = async (who: Member, path: string, form?: Record<string, string>) => {
      const args = pageRequest(
        path,
        pageContext(database, who, { api: { database, siteUrl: "https://vigia.example" } } as never),
        {},
        form,
      );
      return settle<Record<string, unknown>>(() =>
        form
          ? feedsPage.action(args as unknown as Parameters<typeof feedsPage.action>[0])
          : feedsPage.loader(args as unknown as Parameters<typeof feedsPage.loader>[0]),
      );
    };
    const create = async (who: Member, path: string) => {
      const answer = (await page(who, path, { intent: "create" })).data as unknown as { url: string };
      return answer.url;
    };
    /** GET of the feed's URL, each from its own client address unless told (the limit is per address). */
    const fetchFeed = async (url: string, clientIp = `203.0.113.${++ip % 250}`) => {
      const path = new URL(url).pathname;
      const context = pageContext(database, null, { api: { database, siteUrl: "https://vigia.example" } } as never);
      context.set((await import("../../app/.server/context.ts")).requestContext, {
        requestId: "t",
        nonce: "n",
        clientIp,
        secure: false,
        log: (await import("../../app/.server/logger.ts")).createLogger("silent"),
      });
      return feedRoute.loader({
        request: new Request(`http://127.0.0.1${path}`),
        params: { file: path.split("/").at(-1) ?? "" },
        context,
      } as unknown as Parameters<typeof feedRoute.loader>[0]);
    };

    beforeAll(async () => {
      database = await openMigrated(await target.create());
      story = await setUpEvidenceStory(database);
    }, 300_000);
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("serves the organisation's feed: every expected event, parsed by ical.js, all-day, stamped, stable UIDs", async () => {
      const url = await create(story.ana, "/app/admin/calendar");
      expect(url).toMatch(/^https:\/\/vigia\.example\/calendar\/cal_[A-Za-z0-9_-]{43}\.ics$/);
      const response = await fetchFeed(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      const text = await response.text();
      // RFC 5545: CRLF line ends, lines folded at 75 octets.
      expect(text).toContain("\r\n");
      for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      const { events } = parseIcs(text);
      const { boeDocumentId: doc, dates, obligationIds } = story;
      expect(events.map((e) => [e.uid, e.start])).toEqual(
        [
          [`entry-into-force-${doc}-${dates.effective}@vigia-normativo`, dates.effective],
          [`triage-org-a-${doc}@vigia-normativo`, dates.triageDue],
          [`obligation-${obligationIds[0]}@vigia-normativo`, dates.obligationDue[0]],
          [`obligation-${obligationIds[1]}@vigia-normativo`, dates.obligationDue[1]],
        ].sort((a, b) => (a[1] ?? "").localeCompare(b[1] ?? "") || (a[0] ?? "").localeCompare(b[0] ?? "")),
      );
      for (const event of events) {
        expect(event.isDate).toBe(true);
        expect(event.stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(event.url).toBe(`https://vigia.example/app/documents/${doc}`);
      }
      // Escaping: the title's semicolons, commas and quotes come back intact.
      const entry = events.find((e) => e.uid.startsWith("entry-into-force"));
      expect(entry?.summary).toBe(
        'Entrada en vigor: Real Decreto sobre notificación de incidentes; obligaciones, plazos y "comillas"',
      );
      // The same URL again: the same UIDs (a client updates its events instead of adding others).
      const again = parseIcs(await (await fetchFeed(url)).text());
      expect(again.events.map((e) => e.uid)).toEqual(events.map((e) => e.uid));
    });

    it("gives a member their own and their groups' work only", async () => {
      const bea = parseIcs(await (await fetchFeed(await create(story.bea, "/app/account/calendar"))).text());
      expect(bea.events.map((e) => e.uid.split("-")[0])).toEqual(["triage", "obligation", "obligation", "entry"]);
      // Carl is in no group and was assigned nothing: an empty calendar, still valid.
      const carl = parseIcs(await (await fetchFeed(await create(story.carl, "/app/account/calendar"))).text());
      expect(carl.events).toEqual([]);
    });

    it("answers 404 to revoked, replaced, unknown and malformed URLs, and stores only the token's hash", async () => {
      const first = await create(story.bea, "/app/account/calendar");
      const second = await create(story.bea, "/app/account/calendar");
      expect((await fetchFeed(first)).status).toBe(404);
      expect((await fetchFeed(second)).status).toBe(200);
      const token = second.split("/").at(-1)?.replace(".ics", "") ?? "";
      const stored = await database.rows<{ token_hash: string }>(sql`select token_hash from calendar_feeds`);
      expect(stored.some((row) => row.token_hash.includes(token))).toBe(false);
      expect(JSON.stringify(await database.rows(sql`select * from calendar_feeds`))).not.toContain(token);

      expect((await page(story.bea, "/app/account/calendar", { intent: "revoke" })).data).toEqual({ revoked: true });
      expect((await fetchFeed(second)).status).toBe(404);
      expect((await page(story.bea, "/app/account/calendar")).data).toMatchObject({ activeSince: null });
      expect((await fetchFeed(`https://x/calendar/cal_${"A".repeat(43)}.ics`)).status).toBe(404);
      expect((await fetchFeed("https://x/calendar/nonsense.ics")).status).toBe(404);
      expect((await fetchFeed(second.replace(".ics", ".txt"))).status).toBe(404);
    });

    it("audits creation and revocation with their actor", async () => {
      const events = await listAuditEvents(database.db, "org-a", { action: "calendar_feed.*", limit: 50 });
      const byBea = events.items.filter((e) => e.actor?.id === story.bea.userId).map((e) => e.action);
      expect(byBea.filter((a) => a === "calendar_feed.created").length).toBe(3);
      expect(byBea.filter((a) => a === "calendar_feed.revoked").length).toBe(3);
      expect(events.items.find((e) => e.actor?.id === story.ana.userId)?.action).toBe("calendar_feed.created");
    });

    it("stops an organisation feed when its creator is no longer an admin, and keeps members off the admin page", async () => {
      const url = await create(story.ana, "/app/admin/calendar");
      expect((await fetchFeed(url)).status).toBe(200);
      await database.rows(sql`update auth_member set role = 'member' where user_id = ${story.ana.userId}`);
      expect((await fetchFeed(url)).status).toBe(404);
      await database.rows(sql`update auth_member set role = 'admin' where user_id = ${story.ana.userId}`);
      expect((await fetchFeed(url)).status).toBe(200);
      const denied = await page(story.bea, "/app/admin/calendar");
      expect((denied.thrown as { init?: { status?: number } })?.init?.status).toBe(403);
    });

    it("rate-limits one address, with Retry-After", async () => {
      const url = await create(story.ana, "/app/admin/calendar");
      const statuses: number[] = [];
      for (let i = 0; i <= calendarRequestsPerMinute; i += 1)
        statuses.push((await fetchFeed(url, "192.0.2.77")).status);
      expect(statuses.slice(0, calendarRequestsPerMinute).every((s) => s === 200)).toBe(true);
      const limited = await fetchFeed(url, "192.0.2.77");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }, 60_000);

    it("keeps the token out of log lines", async () => {
      const url = await create(story.ana, "/app/admin/calendar");
      const token = url.split("/").at(-1) ?? "";
      expect(redactSecrets(`GET ${new URL(url).pathname} 200`)).not.toContain(token.slice(4, 20));
      expect(redactSecrets(`{"url":"${new URL(url).pathname}"}`)).toContain("/calendar/[redacted]");
    });
  });
}
