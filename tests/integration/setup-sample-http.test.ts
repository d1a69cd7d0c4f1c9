/**
 * The bundled recorded sample through the real HTTP server (built app, in process, PGlite, no
 * ingestion: INGEST_SOURCES=none), as a browser without JavaScript: setup with the "load the
 * sample" box checked stores the recorded BOE days and EU acts (marked sample) in the
 * background, classified, with `source.sample_requested` audited with the owner; setup without
 * the box loads nothing, and the Sources page then offers the load to the admin, audited too.
 * Needs `npm run build`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourcesFixturesDir } from "../../app/.server/fixtures-path.ts";
import { htmlProblems } from "../support/html-validator.ts";
import { httpClient, httpPassword, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { type SampleRoot, sampleRootOf } from "../support/sample-root.ts";

type Server = Awaited<ReturnType<typeof startInProcessServer>>;

/** The BOE documents each recorded day lists (YYYYMMDD → source ids). */
const expectedBoe = (
  JSON.parse(readFileSync(path.join(sourcesFixturesDir, "expected.json"), "utf8")) as {
    boe: Record<string, string[]>;
  }
).boe;

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 240_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const counts = (server: Server) =>
  server.app.database
    .rows<{ total: number; sample: number; boe: number; eu: number; classified: number }>(sql`
      select count(*)::int as total, count(*) filter (where sample)::int as sample,
        count(*) filter (where source = 'boe')::int as boe, count(*) filter (where source <> 'boe')::int as eu,
        count(*) filter (where areas is not null)::int as classified
      from documents`)
    .then((rows) => rows[0]!);

const sampleAudits = (server: Server) =>
  server.app.database.rows<{ actor_email: string | null; detail: { via: string; started: boolean } }>(
    sql`select actor_email, detail from audit_events where action = 'source.sample_requested' order by seq`,
  );

describe("sample data from the setup page", () => {
  let server: Server;
  // Two recorded days and the EU acts: the whole sample is loaded by ingest-sample.test.ts.
  const days = ["20181206", "20240102"];
  let sample: SampleRoot;

  beforeAll(async () => {
    sample = sampleRootOf(days);
    server = await startInProcessServer({}, { sampleRoot: sample.root });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    sample?.remove();
  });

  it("shows the box, unchecked, labelled with what it loads", async () => {
    const setupUrl = new URL(readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim());
    const html = await (await httpClient(server.url).request(setupUrl.pathname)).text();
    const box = html.match(/<input[^>]*name="loadSample"[^>]*>/)?.[0] ?? "";
    expect(box).toContain('type="checkbox"');
    expect(box).not.toContain("checked");
    expect(html).toContain("los días del BOE y los actos de la UE grabados");
    expect(html).toContain("«Muestra»");
    expect(await htmlProblems(html)).toEqual([]);
  });

  it("with the box checked, stores the recorded documents in the background and audits the choice", async () => {
    const setupUrl = new URL(readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim());
    const client = httpClient(server.url);
    const setup = await client.request(setupUrl.pathname, {
      form: {
        organizationName: "Org Muestra",
        name: "Ana",
        email: "Ana@Example.com",
        password: httpPassword,
        loadSample: "on",
      },
    });
    expect([302, 303]).toContain(setup.status);
    expect(setup.headers.get("location")).toBe("/app/mfa");

    const loaded = await waitFor(
      () => server.app.services.sample!.status(),
      (status) => status === "loaded",
    );
    expect(loaded).toBe("loaded");
    const stored = await counts(server);
    expect(stored.total).toBeGreaterThan(0);
    expect(stored.sample).toBe(stored.total);
    expect(stored.classified).toBe(stored.total);
    expect(stored.eu).toBeGreaterThan(0);
    const boeIds = await server.app.database.rows<{ source_id: string }>(
      sql`select source_id from documents where source = 'boe'`,
    );
    expect(boeIds.length).toBeGreaterThan(0);
    // Every document of the sample's days, and nothing else from the BOE.
    const wanted = days.flatMap((day) => expectedBoe[day] ?? []);
    expect(boeIds.map((row) => row.source_id).sort()).toEqual([...new Set(wanted)].sort());

    const audits = await sampleAudits(server);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_email: "ana@example.com", detail: { via: "setup", started: true } });
  }, 300_000);
});

describe("sample data without the box, then from the Sources page", () => {
  let server: Server;
  let ana: Awaited<ReturnType<typeof setupOwnerOverHttp>>;
  // The flow, on one recorded day and the EU acts (the whole sample is loaded above).
  let sample: SampleRoot;

  beforeAll(async () => {
    sample = sampleRootOf(["20181206"]);
    server = await startInProcessServer({}, { sampleRoot: sample.root });
    ana = await setupOwnerOverHttp(server.url, server.dataDir);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    sample?.remove();
  });

  it("loads nothing at setup and the Sources page offers the load", async () => {
    // The load is started before the setup's answer: nothing claimed means nothing will load.
    expect(await server.app.services.sample!.status()).toBe("none");
    expect(await server.app.database.rows(sql`select key from source_fetches where key like 'sample%'`)).toEqual([]);
    expect((await counts(server)).total).toBe(0);
    expect(await sampleAudits(server)).toEqual([]);

    const page = await (await ana.request("/app/admin/sources")).text();
    expect(page).toContain('data-status="none"');
    expect(page).toContain("Cargar los datos de muestra");
    expect(await htmlProblems(page)).toEqual([]);
  });

  it("loads the sample when the admin asks, audited, and shows it loading then loaded", async () => {
    const asked = await ana.request("/app/admin/sources", { form: { intent: "sample" } });
    expect(asked.status).toBe(202);
    expect(await asked.text()).toContain("Ha empezado la carga de los datos de muestra.");

    const again = await ana.request("/app/admin/sources", { form: { intent: "sample" } });
    expect(again.status).toBe(202);
    const againHtml = await again.text();
    expect(againHtml).toContain("Los datos de muestra ya están cargados o cargándose.");
    expect(againHtml).not.toContain('data-status="none"');

    await waitFor(
      () => server.app.services.sample!.status(),
      (status) => status === "loaded",
    );
    const page = await (await ana.request("/app/admin/sources")).text();
    expect(page).toContain('data-status="loaded"');
    expect(page).toContain("Datos de muestra cargados");
    // The sample reached no source: the page does not say the BOE was reached or resolved (issue 37, item 11).
    expect(page).not.toContain("Una descarga posterior ha ido bien");
    expect(await server.app.database.rows(sql`select source from source_status`)).toEqual([]);
    // A sample document's provenance: the official URL its bytes were recorded from, marked sample.
    const [doc] = await server.app.database.rows<{ id: string }>(
      sql`select id from documents where source = 'boe' and sample limit 1`,
    );
    const docPage = await (await ana.request(`/app/documents/${doc?.id}`)).text();
    expect(docPage).toContain("https://www.boe.es/diario_boe/xml.php?id=");
    expect(docPage).toContain('data-testid="provenance-sample"');
    const stored = await counts(server);
    expect(stored.total).toBeGreaterThan(0);
    expect(stored.sample).toBe(stored.total);

    const audits = await sampleAudits(server);
    expect(audits.map((a) => a.detail)).toEqual([
      { via: "sources_page", started: true, outcome: "started" },
      { via: "sources_page", started: false, outcome: "loading" },
    ]);
    expect(audits[0]?.actor_email).toBe("ana@example.com");
  }, 300_000);
});
