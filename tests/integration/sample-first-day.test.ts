/**
 * The sample's first day over HTTP (issue 39), on PGlite and on PostgreSQL (TEST_DATABASE_URL): a
 * fresh organisation's admin loads the sample from the Sources page; the recorded consolidated laws
 * are held, the admin follows two articles of the LOPDGDD whose recorded amendment is a law change
 * with its alert, the last recorded BOE day is published again as today (dates shifted, marked
 * sample) and brings alerts and a triage queue; the page shows the counts. Loading again duplicates
 * nothing; another organisation sees none of the first one's sample (follow, alerts, law page) until
 * it asks, and then gets its own. Needs `npm run build`.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { madridDate } from "../../app/lib/madrid-date.ts";
import { htmlProblems } from "../support/html-validator.ts";
import { acceptInvitationOverHttp, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type SampleRoot, sampleRootOf } from "../support/sample-root.ts";

type Server = Awaited<ReturnType<typeof startInProcessServer>>;
const LAW = "BOE-A-2018-16673";

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What an organisation holds of the sample, and what the instance holds. */
async function holdings(server: Server, organizationId: string) {
  const one = async (query: ReturnType<typeof sql>) =>
    Number((await server.app.database.rows<{ n: number }>(query))[0]?.n ?? 0);
  return {
    documents: await one(sql`select count(*)::int as n from documents`),
    replayed: await one(sql`select count(*)::int as n from documents where record ? 'replayedFrom'`),
    versions: await one(sql`select count(*)::int as n from document_versions`),
    laws: await one(sql`select count(distinct law_id)::int as n from law_blocks`),
    lawChanges: await one(sql`select count(*)::int as n from law_changes`),
    follows: await one(
      sql`select count(*)::int as n from alert_profiles where organization_id = ${organizationId} and law_id is not null`,
    ),
    profiles: await one(
      sql`select count(*)::int as n from alert_profiles where organization_id = ${organizationId} and law_id is null`,
    ),
    alerts: await one(sql`select count(*)::int as n from alerts a join alert_profiles p on p.id = a.profile_id
      where p.organization_id = ${organizationId}`),
    lawAlerts: await one(sql`select count(*)::int as n from alerts a join alert_profiles p on p.id = a.profile_id
      where p.organization_id = ${organizationId} and p.law_id = ${LAW}`),
    triage: await one(
      sql`select count(*)::int as n from triage_items where organization_id = ${organizationId} and status = 'new'`,
    ),
  };
}

for (const target of databaseTargets()) {
  describe(`the sample's first day (${target.name})`, () => {
    let server: Server;
    let sample: SampleRoot;
    let ana: Awaited<ReturnType<typeof setupOwnerOverHttp>>;
    let orgA = "";
    const today = madridDate(new Date());

    beforeAll(async () => {
      // One older day and the last recorded day (replayed as today); the whole sample: ingest-sample.test.ts.
      sample = sampleRootOf(["20181206", "20261001"]);
      const url = await target.create();
      server = await startInProcessServer(url ? { DATABASE_URL: url } : {}, { sampleRoot: sample.root });
      ana = await setupOwnerOverHttp(server.url, server.dataDir);
      const [row] = await server.app.database.rows<{ id: string }>(sql`select id from auth_organization limit 1`);
      orgA = row!.id;
    }, 180_000);
    afterAll(async () => {
      await server?.stop();
      sample?.remove();
      await target.cleanup();
    });

    it("loads laws, a followed law with its change, today's alerts and a triage queue, with counts", async () => {
      const asked = await ana.request("/app/admin/sources", { form: { intent: "sample" } });
      expect(asked.status).toBe(202);
      expect(await asked.text()).toContain("Ha empezado la carga de los datos de muestra.");
      // A few minutes on a loaded machine: eleven laws, two BOE days, the EU acts.
      expect(
        await waitFor(
          () => server.app.services.sample!.status(),
          (status) => status === "loaded",
          800_000,
        ),
      ).toBe("loaded");
      const held = await holdings(server, orgA);
      // Every recorded law with text: eight BOE laws and three EU acts.
      expect(held.laws).toBe(11);
      expect(held.follows).toBe(1);
      expect(held.profiles).toBe(1);
      // The follow: the LOPDGDD's articles 23 and 24, named as sample, and article 23's recorded rewording as its change.
      const [follow] = await server.app.database.rows<{ name: string; law_blocks: string[]; user_id: string }>(
        sql`select name, law_blocks, user_id from alert_profiles where organization_id = ${orgA} and law_id = ${LAW}`,
      );
      expect(follow?.name).toBe("Muestra · LOPDGDD, artículos 23 y 24");
      expect([...(follow?.law_blocks ?? [])].sort()).toEqual(["a2-5", "a2-6"]);
      const changes = await server.app.database.rows<{ norm_id: string; block_ids: string[] }>(
        sql`select norm_id, block_ids from law_changes where law_id = ${LAW} and kind = 'consolidated'`,
      );
      expect(changes).toHaveLength(1);
      expect(changes[0]?.block_ids).toContain("a2-5");
      expect(held.lawAlerts).toBe(1);
      const lawPage = await (await ana.request(`/app/laws/${LAW}`)).text();
      expect(lawPage).toContain("Artículo 23");
      expect(lawPage).toContain("BOE-A-2025-26698");
      // The last recorded day, published again as today: dates shifted, the recorded day kept.
      const replayed = await server.app.database.rows<{ published_on: string; from: string }>(
        sql`select published_on::text, record->>'replayedFrom' as from from documents where record ? 'replayedFrom'`,
      );
      expect(replayed.length).toBeGreaterThan(100);
      expect(new Set(replayed.map((r) => r.published_on))).toEqual(new Set([today]));
      expect(new Set(replayed.map((r) => r.from))).toEqual(new Set(["2026-10-01"]));
      // Today's high-relevance rules: alerts and a triage queue.
      expect(held.alerts).toBeGreaterThan(held.lawAlerts);
      expect(held.triage).toBeGreaterThan(0);
      const triagePage = await (await ana.request("/app/triage")).text();
      expect(triagePage).toContain("Real Decreto-ley 27/2026");
      // The document page and search say it is sample data published again as today.
      const [doc] = await server.app.database.rows<{ id: string }>(
        sql`select id from documents where source_id = 'BOE-A-2026-20385'`,
      );
      const docPage = await (await ana.request(`/app/documents/${doc?.id}`)).text();
      expect(docPage).toContain('data-testid="sample-replayed"');
      expect(docPage).toContain("1 oct 2026");
      const search = await (await ana.request("/app/search?q=estabilidad")).text();
      expect(search).toContain("Muestra");
      // The Sources page's counts.
      const page = await (await ana.request("/app/admin/sources")).text();
      expect(page).toContain('data-status="loaded"');
      const counts = page.match(/data-testid="sample-counts"[^>]*>([^<]*)</)?.[1] ?? "";
      expect(counts).toContain(`${held.documents} documentos`);
      expect(counts).toContain("11 leyes consolidadas");
      expect(counts).toContain(`${held.alerts} alertas`);
      expect(await htmlProblems(page)).toEqual([]);
      // Audited with its actor: the request and the two profiles it created.
      const audits = await server.app.database.rows<{ action: string; actor_email: string; detail: unknown }>(
        sql`select action, actor_email, detail from audit_events where organization_id = ${orgA}
          and (action = 'source.sample_requested' or (action = 'alert_profile.created' and detail->>'sample' = 'true'))
          order by seq`,
      );
      // (The load creates the follow and the profile in the background, so the order varies.)
      expect(audits.map((a) => [a.action, a.actor_email]).sort()).toEqual([
        ["alert_profile.created", "ana@example.com"],
        ["alert_profile.created", "ana@example.com"],
        ["source.sample_requested", "ana@example.com"],
      ]);
    }, 900_000);

    it("duplicates nothing when loaded again", async () => {
      const before = await holdings(server, orgA);
      const again = await ana.request("/app/admin/sources", { form: { intent: "sample" } });
      expect(again.status).toBe(202);
      expect(await again.text()).toContain("Los datos de muestra ya están cargados o cargándose.");
      expect(await holdings(server, orgA)).toEqual(before);
    }, 120_000);

    it("keeps one organisation's sample from another, which gets its own when it asks", async () => {
      const created = await server.app.services.auth.createOrganizationWithOwnerInvitation({
        name: "Org B",
        adminEmail: "bea@example.com",
        locale: "es",
      });
      const bea = await acceptInvitationOverHttp(server.url, created.url, "Bea");
      const orgB = created.organizationId;
      const before = await holdings(server, orgB);
      expect(before).toMatchObject({ follows: 0, profiles: 0, alerts: 0, triage: 0 });
      // The law A follows is not B's: its page is 404, and the Sources page offers B its own sample.
      expect((await bea.request(`/app/laws/${LAW}`)).status).toBe(404);
      const page = await (await bea.request("/app/admin/sources")).text();
      expect(page).toContain("Añadir los datos de muestra a mi organización");
      expect(page.match(/data-testid="sample-counts"[^>]*>([^<]*)</)?.[1]).toContain("0 alertas");

      const asked = await bea.request("/app/admin/sources", { form: { intent: "sample" } });
      expect(await asked.text()).toContain("Tu organización ya tiene su seguimiento y su perfil de muestra.");
      // In-app alerts are written by the delivery worker, just after the match.
      const after = await waitFor(
        () => holdings(server, orgB),
        (h) => h.lawAlerts === 1 && h.alerts > 1,
        60_000,
      );
      // B's own follow, profile, alerts (the law change included) and triage queue: today's documents, as A's;
      // nothing of the sample loaded twice.
      const [todayForA] = await server.app.database.rows<{ n: number }>(
        sql`select count(*)::int as n from triage_items t join documents d on d.id = t.document_id
          where t.organization_id = ${orgA} and d.record ? 'replayedFrom'`,
      );
      expect(todayForA!.n).toBeGreaterThan(0);
      expect(after).toMatchObject({ follows: 1, profiles: 1, lawAlerts: 1, triage: todayForA!.n });
      expect(after.alerts).toBe(todayForA!.n + 1);
      expect(after.documents).toBe(before.documents);
      expect(after.lawChanges).toBe(before.lawChanges);
      expect((await bea.request(`/app/laws/${LAW}`)).status).toBe(200);
    }, 180_000);
  });
}
