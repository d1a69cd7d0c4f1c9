/**
 * Which laws an organisation reaches (issue 37, decision 0124): the ones it follows, through any
 * of its members' or groups' follows. A law's text is public, but what a company watches is its
 * own, and a law is stored only because someone follows it: the laws API, the law pages and the
 * comparison answer for the organisation's followed laws only (404 otherwise, as for a law the
 * platform does not hold), and list nothing else.
 *
 * A followed law is `fetched` (its text is stored), `pending` (registered, not fetched yet) or
 * `unknown` (the source answered it does not know the id: markMissing).
 */
import { and, count, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { alertProfiles, laws } from "../db/schema.ts";
import type { Law } from "../law-texts/model.ts";
import { lawPollTimes, nextDailyRun } from "../sources/law-poll-times.ts";
import { officialActUrl } from "./page.ts";

/** SQL condition on `laws`: the organisation follows the law. */
export function followedBy(organizationId: string): SQL {
  return sql`exists (select 1 from ${alertProfiles} where ${alertProfiles.lawId} = ${laws.id} and ${alertProfiles.organizationId} = ${organizationId})`;
}

export async function organisationFollowsLaw(
  database: Database,
  organizationId: string,
  lawId: string,
): Promise<boolean> {
  const [row] = await database.db
    .select({ n: count() })
    .from(alertProfiles)
    .where(and(eq(alertProfiles.organizationId, organizationId), eq(alertProfiles.lawId, lawId)));
  return Number(row?.n ?? 0) > 0;
}

export type LawState = "fetched" | "pending" | "unknown";

export function lawStateOf(metadata: unknown, blocks: number): LawState {
  if (blocks > 0) return "fetched";
  const missing = (metadata as { sourceMissingAt?: unknown } | null)?.sourceMissingAt;
  return typeof missing === "string" ? "unknown" : "pending";
}

/**
 * When the law's source next looks at it: the source's next scheduled poll, or null when this
 * server does not ingest (INGEST_SOURCES=none: the text will not come until it does).
 */
/** What a pending (or unknown) law's page shows: the law, its state, and the source's last and next checks. */
export async function pendingLawView(database: Database, law: Law, ingesting: boolean, now: Date = new Date()) {
  const [row] = await database.db.select({ checkedAt: laws.checkedAt }).from(laws).where(eq(laws.id, law.id));
  const next = nextLawCheck(law.source, ingesting, now);
  return {
    id: law.id,
    source: law.source,
    title: law.title,
    officialUrl: officialActUrl(law.id),
    state: lawStateOf(law.metadata, 0),
    checkedAt: row?.checkedAt ? row.checkedAt.toISOString() : null,
    nextCheckAt: next ? next.toISOString() : null,
  };
}

export function nextLawCheck(source: "boe" | "eu", ingesting: boolean, now: Date = new Date()): Date | null {
  return ingesting ? nextDailyRun(lawPollTimes(source), now) : null;
}
