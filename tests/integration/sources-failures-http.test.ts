/**
 * A source that fails, then recovers, as people see it through the real HTTP server (built app,
 * in process, PGlite): the Sources page names the failure in the reader's language (es, en) with
 * the technical detail beside it, marks it past once a later run succeeded, and a member's home
 * says sources are failing while they are (admins get a link to the Sources page). Needs a build.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSourceClients } from "../../app/.server/sources/clients.ts";
import { ingestEurlex } from "../../app/.server/sources/ingest.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { acceptInvitationOverHttp, type httpClient, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";

const silent = { info() {}, warn() {}, error() {} };

/** A loopback port nobody listens on: connections are refused. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const clientsAt = (base: string) =>
  createSourceClients({
    urls: { boeApiUrl: base, eurlexUrl: base, cellarUrl: base, cellarSparqlUrl: `${base}/webapi/rdf/sparql` },
    siteUrl: "http://localhost",
    perSecond: 1000,
    timeoutMs: 5000,
    retries: 0,
    backoffMs: 10,
  });

/** The text of the Sources table's EUR-Lex row, tags stripped. */
function eurlexRow(html: string): string {
  const rows = html.split('data-testid="source-row"');
  const row = rows.find((r) => r.includes("EUR-Lex")) ?? "";
  return row.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

describe("a failing source, in the user's terms", () => {
  let server: Awaited<ReturnType<typeof startInProcessServer>>;
  let replay: ReplayServer;
  let ana: ReturnType<typeof httpClient>;
  let bea: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    server = await startInProcessServer();
    replay = await startReplayServer();
    ana = await setupOwnerOverHttp(server.url, server.dataDir);
    const auth = server.app.services.auth;
    const session = await auth.currentSession(new Headers({ cookie: ana.cookie }));
    const owner = session && (await auth.memberOf(session));
    if (!owner) throw new Error("no owner");
    const invited = await auth.invite(
      owner,
      { email: "bea@example.com", role: "member", locale: "es", groupIds: [] },
      { headers: new Headers(), ip: "198.51.100.9", userAgent: "test" },
    );
    bea = await acceptInvitationOverHttp(server.url, invited.url, "Bea");
  }, 120_000);
  afterAll(async () => {
    await replay?.close();
    await server?.stop();
  });

  it("names an unreachable source in Spanish and English, tells members, then marks it past", async () => {
    const database = server.app.database;
    const dead = `http://127.0.0.1:${await deadPort()}`;
    await expect(ingestEurlex({ database, clients: clientsAt(dead), log: silent })).rejects.toThrow(/fetch failed/);

    const es = eurlexRow(await (await ana.request("/app/admin/sources")).text());
    expect(es).toContain("No se pudo conectar con la fuente");
    expect(es).toContain("Sin resolver");
    expect(es).toContain("Detalle técnico");
    expect(es).toContain("network error: fetch failed");

    const memberHome = await (await bea.request("/app")).text();
    expect(memberHome).toContain('data-testid="sources-failing"');
    expect(memberHome).toContain("Algunas fuentes están fallando (EUR-Lex");
    expect(memberHome).not.toContain('href="/app/admin/sources"');
    const adminHome = await (await ana.request("/app")).text();
    expect(adminHome).toContain("Consulta el motivo en la página de Fuentes.");
    expect(adminHome).toContain('href="/app/admin/sources"');

    await ana.request("/app/locale", { form: { locale: "en" }, headers: { referer: `${server.url}/app` } });
    const en = eurlexRow(await (await ana.request("/app/admin/sources")).text());
    expect(en).toContain("Could not connect to the source");
    expect(en).toContain("Unresolved");
    expect(en).toContain("Technical detail");

    // Reachable again: a run that starts after the error succeeds.
    const ok = await ingestEurlex({ database, clients: clientsAt(replay.url), log: silent });
    expect(ok.failed).toEqual([]);
    const after = eurlexRow(await (await ana.request("/app/admin/sources")).text());
    expect(after).toContain("Resolved");
    expect(after).toContain("A later download succeeded.");
    expect(after).not.toContain("Unresolved");
    expect(after).toContain("Could not connect to the source");
    expect(await (await bea.request("/app")).text()).not.toContain('data-testid="sources-failing"');
  });

  it("names a server error with its HTTP status, and a rate limit as such", async () => {
    const database = server.app.database;
    const failWith = async (status: number) => {
      replay.setFaults([{ pattern: /display-feed/, kind: "status", status }]);
      await expect(ingestEurlex({ database, clients: clientsAt(replay.url), log: silent })).rejects.toThrow();
      replay.setFaults([]);
      return eurlexRow(await (await ana.request("/app/admin/sources")).text());
    };
    expect(await failWith(403)).toContain("The source answered with an error (HTTP 403).");
    expect(await failWith(429)).toContain("The source asked us to wait before asking again (too many requests).");
  });
});
