/**
 * The admin Sources page (/app/admin/sources) in-process: admins only; each source's status;
 * "Run now" (queued and audited, or a clear 503 when ingestion is off); adding (validated,
 * private addresses refused) and removing RSS/Atom feeds, audited, per organisation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import type { AppServices } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { recordStatus } from "../../app/.server/sources/ingest.ts";
import { backfillDayDone, startBackfill } from "../../app/.server/sources/progress.ts";
import * as sourcesRoute from "../../app/routes/app/admin-sources.tsx";
import { memberInfo, pageContext, pageRequest, settle } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

type Args = Parameters<typeof sourcesRoute.action>[0];
type Answer = { data: Record<string, unknown>; status: number };

describe("admin sources page", () => {
  let database: Database;
  const admin = memberInfo({ userId: "user-root", email: "root@org-a.example", role: "admin" });
  const member = memberInfo();
  const otherAdmin = memberInfo({
    userId: "user-eve",
    email: "eve@org-b.example",
    organizationId: "org-b",
    role: "owner",
  });
  const queued: string[] = [];
  const on = {
    ingestJobs: {
      start: async () => {},
      stop: async () => {},
      runSourceNow: async (id: string) => {
        queued.push(id);
        return queued.length === 1 ? "job-1" : null;
      },
    },
    config: { sources: { ingest: ["boe", "eurlex"] }, alerts: { allowPrivateWebhookUrls: false } },
  } as unknown as Partial<AppServices>;

  const post = async (who: typeof admin, form: Record<string, string>, services = on): Promise<Answer> => {
    const result = (await sourcesRoute.action(
      pageRequest("/app/admin/sources", pageContext(database, who, services), {}, form) as unknown as Args,
    )) as unknown;
    if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
      const wrapped = result as unknown as { data: Record<string, unknown>; init: { status: number } };
      return { data: wrapped.data, status: wrapped.init.status };
    }
    return { data: result as Record<string, unknown>, status: 200 };
  };
  const list = async (who: typeof admin) =>
    (
      await sourcesRoute.loader(
        pageRequest("/app/admin/sources", pageContext(database, who)) as unknown as Parameters<
          typeof sourcesRoute.loader
        >[0],
      )
    ).sources;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    await recordStatus(database, "boe", { ok: true, added: 12 });
    await recordStatus(database, "eurlex", { ok: false, error: "HTTP 503", url: "https://eur-lex.europa.eu/feed" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("is for admins and owners only", async () => {
    const { thrown } = await settle(() =>
      sourcesRoute.loader(
        pageRequest("/app/admin/sources", pageContext(database, member)) as unknown as Parameters<
          typeof sourcesRoute.loader
        >[0],
      ),
    );
    expect((thrown as { init?: { status?: number } }).init?.status).toBe(403);
    const refused = await settle(() => post(member, { intent: "run", id: "boe" }));
    expect((refused.thrown as { init?: { status?: number } }).init?.status).toBe(403);
    expect(queued).toEqual([]);
  });

  it("shows each source's last success, last error and documents today", async () => {
    const sources = await list(admin);
    expect(sources.map((s) => s.id)).toEqual(["boe", "eurlex"]);
    expect(sources[0]).toMatchObject({ lastError: null, documentsToday: 12 });
    expect(sources[0]?.lastSuccessAt).toEqual(expect.any(String));
    expect(sources[1]).toMatchObject({
      lastSuccessAt: null,
      lastError: "HTTP 503",
      lastErrorKind: "http",
      lastErrorStatus: 503,
      lastErrorPast: false,
      failing: true,
      lastErrorUrl: "https://eur-lex.europa.eu/feed",
      documentsToday: 0,
    });
  });

  it("shows the backfill's progress: days done of the total, documents, finished at the last day", async () => {
    const backfill = async () =>
      (
        await sourcesRoute.loader(
          pageRequest("/app/admin/sources", pageContext(database, admin)) as unknown as Parameters<
            typeof sourcesRoute.loader
          >[0],
        )
      ).backfill;
    expect(await backfill()).toBeNull();
    await startBackfill(database, "boe", ["2026-04-06", "2026-04-07", "2026-04-08"]);
    expect(await backfill()).toEqual({ daysTotal: 3, daysDone: 0, daysFailed: 0, documents: 0, finished: false });
    await backfillDayDone(database, "boe", { ok: true, documents: 218 });
    await backfillDayDone(database, "boe", { ok: false, documents: 0 });
    expect(await backfill()).toEqual({ daysTotal: 3, daysDone: 1, daysFailed: 1, documents: 218, finished: false });
    await backfillDayDone(database, "boe", { ok: true, documents: 132 });
    expect(await backfill()).toEqual({ daysTotal: 3, daysDone: 2, daysFailed: 1, documents: 350, finished: true });
  });

  it("runs a source now, audited; says so when it was already queued; 503 when ingestion is off", async () => {
    const first = await post(admin, { intent: "run", id: "boe" });
    expect(first).toEqual({ status: 202, data: { notice: "queued", name: "Boletín Oficial del Estado (BOE)" } });
    const again = await post(admin, { intent: "run", id: "boe" });
    expect(again.data.notice).toBe("alreadyQueued");
    expect(queued).toEqual(["boe", "boe"]);
    const events = await listAuditEvents(database.db, "org-a", { action: "source.run_requested" });
    expect(events.items).toHaveLength(2);
    expect(events.items[0]).toMatchObject({
      actor: { id: admin.userId, email: admin.email },
      object: { type: "source", id: "boe" },
    });

    const off = await post(admin, { intent: "run", id: "eurlex" }, {});
    expect(off).toEqual({ status: 503, data: { failure: "off" } });
    const unknown = await post(admin, { intent: "run", id: "twitter" });
    expect(unknown.status).toBe(404);
  });

  it("adds a feed (validated, audited), refuses duplicates and private addresses, and removes it", async () => {
    for (const [values, field] of [
      [{ name: "", url: "https://www.cnmv.es/rss" }, "name"],
      [{ name: "CNMV", url: "ftp://www.cnmv.es/rss" }, "url"],
      [{ name: "CNMV", url: "not a url" }, "url"],
      [{ name: "Interno", url: "http://127.0.0.1:8080/feed" }, "url"],
      [{ name: "Interno", url: "http://intranet.local/feed" }, "url"],
    ] as const) {
      const answer = await post(admin, { intent: "add", ...values });
      expect(answer.status, values.url).toBe(422);
      expect(Object.keys(answer.data.errors as object)).toEqual([field]);
      expect(answer.data.values).toEqual(values);
    }
    const added = await post(admin, {
      intent: "add",
      name: "CNMV — Novedades",
      url: "https://www.cnmv.es/rss/novedades",
    });
    expect(added).toEqual({ status: 200, data: { notice: "added", name: "CNMV — Novedades" } });
    const duplicate = await post(admin, { intent: "add", name: "Otra", url: "https://www.cnmv.es/rss/novedades" });
    expect(duplicate).toEqual({ status: 409, data: { failure: "duplicate" } });

    const sources = await list(admin);
    const feed = sources.find((s) => s.type === "feed");
    expect(feed).toMatchObject({
      name: "CNMV — Novedades",
      url: "https://www.cnmv.es/rss/novedades",
      documentsToday: 0,
    });
    expect((await list(otherAdmin)).map((s) => s.id)).toEqual(["boe", "eurlex"]);
    // Its first fetch was queued at once.
    expect(queued.at(-1)).toBe(feed?.id);
    const addedEvents = await listAuditEvents(database.db, "org-a", { action: "source_feed.added" });
    expect(addedEvents.items.map((e) => e.object)).toEqual([{ type: "source_feed", id: feed?.id }]);

    // Another organisation can neither run nor remove it.
    expect((await post(otherAdmin, { intent: "run", id: feed?.id ?? "" })).status).toBe(404);
    expect((await post(otherAdmin, { intent: "remove", id: feed?.id ?? "" })).status).toBe(404);

    const removed = await post(admin, { intent: "remove", id: feed?.id ?? "" });
    expect(removed.data.notice).toBe("removed");
    expect((await list(admin)).map((s) => s.id)).toEqual(["boe", "eurlex"]);
    const removedEvents = await listAuditEvents(database.db, "org-a", { action: "source_feed.removed" });
    expect(removedEvents.items).toHaveLength(1);
  });
});
