/**
 * From a search to an alert, saved searches and profile feeds (issue 39), through the real HTTP
 * server (built app, in process) on PGlite and on PostgreSQL when TEST_DATABASE_URL is set:
 * - "save as alert" maps the search's filters to a profile, says what does not carry over, and
 *   previews the last 30 days with the profile's own matcher; the alerts then sent for those
 *   documents are exactly the preview's (the reach rule applied to both);
 * - saved searches on the search page and over the API (owner only, audited, 422s in the
 *   caller's language, answers matching the OpenAPI description);
 * - a profile's Atom feed behind a revocable token: only its hash stored, valid by an XML parser
 *   and by a maintained feed parser, titles escaped both ways, the reach rule at read time,
 *   404 right after revocation and once its maker is suspended, creation and revocation audited.
 * Needs `npm run build`.
 */
import { parseFeed } from "@rowanmanning/feed-parser";
import { sql } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactSecrets } from "../../app/.server/logger.ts";
import { madridDateDaysAgo } from "../../app/lib/madrid-date.ts";
import { insertStoredDocument } from "../support/alerts-fixtures.ts";
import { openApiChecker } from "../support/api-harness.ts";
import { issueToken } from "../support/api-tokens.ts";
import { type httpClient, inviteOverHttp, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { databaseTargets } from "../support/postgres.ts";

const decode = (html: string) =>
  html
    .replaceAll("&amp;", "&")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

const trickyTitle = 'Orden de bases de subvenciones agrarias <b>"cupo"</b> & ]]> 2026';

for (const target of databaseTargets()) {
  describe(`search to alert, saved searches and profile feeds on ${target.name}`, () => {
    let server: Awaited<ReturnType<typeof startInProcessServer>>;
    let ana: ReturnType<typeof httpClient>;
    let organizationId = "";
    let anaId = "";
    const docs: Record<string, string> = {};
    let profileId = "";

    const db = () => server.app.database;
    const count = async (query: ReturnType<typeof sql>) => (await db().rows<{ n: number }>(query))[0]?.n ?? Number.NaN;

    beforeAll(async () => {
      const url = await target.create();
      server = await startInProcessServer(url ? { DATABASE_URL: url } : {});
      ana = await setupOwnerOverHttp(server.url, server.dataDir);
      const [row] = await db().rows<{ organization_id: string; user_id: string }>(
        sql`select organization_id, user_id from auth_member limit 1`,
      );
      organizationId = row?.organization_id ?? "";
      anaId = row?.user_id ?? "";
      const store = (fields: Parameters<typeof insertStoredDocument>[1]) => insertStoredDocument(db(), fields);
      docs.high = await store({
        title: "Real Decreto por el que se regulan las subvenciones para la digitalización",
        areas: ["grants"],
        relevance: "high",
        publishedOn: madridDateDaysAgo(1),
      });
      docs.tricky = await store({
        title: trickyTitle,
        areas: ["grants"],
        relevance: "medium",
        publishedOn: madridDateDaysAgo(3),
      });
      // The search's stems find "subvención" for "subvenciones"; an alert's query looks for the word as typed.
      docs.singular = await store({
        title: "Resolución de la subvención a la innovación industrial",
        areas: ["grants"],
        relevance: "medium",
        publishedOn: madridDateDaysAgo(2),
      });
      docs.low = await store({ title: "Anuncio de subvenciones municipales", areas: ["grants"], relevance: "low" });
      docs.old = await store({
        title: "Orden de subvenciones de hace dos meses",
        areas: ["grants"],
        relevance: "high",
        publishedOn: madridDateDaysAgo(60),
      });
      docs.other = await store({ title: "Resolución sobre prevención del blanqueo", areas: ["aml"] });
      // A feed entry of no feed of this organisation: outside its reach everywhere.
      docs.foreign = await store({ title: "Entrada ajena con subvenciones", areas: ["grants"], relevance: "high" });
      await db().rows(sql`update documents set source = 'feed' where id = ${docs.foreign}::uuid`);
    }, 300_000);
    afterAll(async () => {
      await server?.stop();
      await target.cleanup();
    });

    const searchQuery = `q=subvenciones&area=grants&relevance=medium&from=2026-01-01`;

    it("turns a search into an alert profile: filters mapped, differences said, the preview is what alerts then say", async () => {
      const search = decode(await (await ana.request(`/app/search?${searchQuery}`)).text());
      const alertHref = search.match(/href="(\/app\/profiles\/new\?[^"]+)"/)?.[1];
      expect(alertHref).toBeDefined();
      expect(alertHref).toBe(
        "/app/profiles/new?q=subvenciones&area=grants&relevance=medium&from=2026-01-01&fromSearch=1",
      );

      const page = await ana.request(alertHref as string);
      expect(page.status).toBe(200);
      const html = decode(await page.text());
      // Mapped: the name and query, the area, the minimum relevance.
      const has = (pattern: RegExp) => expect(pattern.test(html), String(pattern)).toBe(true);
      has(/name="name" value="subvenciones"/);
      has(/name="query" value="subvenciones"/);
      has(/id="areas-grants" name="areas" checked="" value="grants"/);
      has(/<option value="medium" selected="">/);
      // What does not carry over, said on the page.
      expect(html).toContain("sin las variantes de cada palabra");
      expect(html).toContain("una alerta filtra una relevancia mínima");
      expect(html).toContain("Las fechas de la búsqueda (desde, hasta) no pasan a la alerta");
      // The preview at once: the profile's matcher over the last 30 days, within reach.
      expect(html).toContain(
        "En los últimos 30 días, documentos que encuentra la búsqueda: 2. Documentos de los que te habría avisado esta alerta: 2.",
      );
      const preview = html.slice(html.indexOf('data-testid="profile-preview"'));
      const previewIds = [...preview.matchAll(/href="\/app\/documents\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
      expect(previewIds.sort()).toEqual([docs.high, docs.tricky].sort());
      expect(preview).toContain(trickyTitle);
      expect(preview).toContain("Por qué: área Ayudas y subvenciones; relevancia Alta; consulta «subvenciones»");

      const saved = await ana.request(alertHref as string, {
        form: {
          intent: "save",
          name: "Subvenciones",
          owner: "me",
          areas: "grants",
          minRelevance: "medium",
          keywords: "",
          query: "subvenciones",
          email: "off",
          digestHour: "8",
          language: "es",
        },
      });
      expect(saved.status).toBe(302);
      expect(saved.headers.get("location")).toBe("/app/profiles?done=saved");
      const [profile] = await db().rows<{
        id: string;
        areas: string[];
        min_relevance: number;
        query: string;
        user_id: string;
      }>(sql`select id, areas, min_relevance, query, user_id from alert_profiles where name = 'Subvenciones'`);
      expect(profile).toMatchObject({ areas: ["grants"], min_relevance: 2, query: "subvenciones", user_id: anaId });
      profileId = profile?.id ?? "";
      expect(
        await count(sql`select count(*)::int as n from audit_events where action = 'alert_profile.created'
          and object_id = ${profileId} and actor_id = ${anaId}`),
      ).toBe(1);

      // What the alerts say for those documents is what the preview said.
      for (const id of Object.values(docs)) await server.app.services.alerts.matchNow(id);
      const matched = await db().rows<{ document_id: string }>(
        sql`select document_id from alert_matches where profile_id = ${profileId}::uuid`,
      );
      const recent = matched.map((m) => m.document_id).filter((id) => id !== docs.old);
      expect(recent.sort()).toEqual(previewIds.sort());
      // The old one matches today (alerts do not look at dates) but was outside the preview's 30 days.
      expect(matched.map((m) => m.document_id)).toContain(docs.old);
    });

    it("previews with the organisation's area corrections, as its alerts match", async () => {
      // The organisation says the AML resolution is about grants too, and the high-relevance decree is not.
      const correct = (documentId: string, action: "add" | "remove") =>
        db().rows(sql`insert into area_corrections (organization_id, document_id, area, action, reason, user_id, user_name, user_email)
          values (${organizationId}, ${documentId}::uuid, 'grants', ${action}, 'revisado', ${anaId}, 'Ana', 'ana@example.com')`);
      await correct(docs.other as string, "add");
      await correct(docs.high as string, "remove");
      const html = decode(
        await (await ana.request("/app/profiles/new?area=grants&relevance=high&fromSearch=1")).text(),
      );
      const preview = html.slice(html.indexOf('data-testid="profile-preview"'));
      const ids = [...preview.matchAll(/href="\/app\/documents\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
      expect(ids).toEqual([docs.other]);
      await db().rows(sql`delete from area_corrections where organization_id = ${organizationId}`);
    });

    it("saves, lists, reruns and deletes a search on the pages, audited, errors in the member's language", async () => {
      const saved = await ana.request(`/app/search?q=subvenciones&area=grants`, { form: { name: "Ayudas" } });
      expect(saved.status).toBe(200);
      const html = decode(await saved.text());
      expect(html).toContain("Búsqueda «Ayudas» guardada.");
      expect(html).toContain('href="/app/search?q=subvenciones&area=grants"');

      const again = decode(
        await (await ana.request(`/app/search?q=subvenciones&area=grants`, { form: { name: "Ayudas" } })).text(),
      );
      expect(again).toContain("Ya tienes una búsqueda con ese nombre: elige otro.");
      const nothing = decode(await (await ana.request(`/app/search`, { form: { name: "Todo" } })).text());
      expect(nothing).toContain("No hay nada que guardar");
      const bad = decode(await (await ana.request(`/app/search?area=astrology`, { form: { name: "Mal" } })).text());
      expect(bad).toContain("Revisa los filtros de la búsqueda antes de guardarla.");
      expect(await count(sql`select count(*)::int as n from saved_searches`)).toBe(1);

      const list = decode(await (await ana.request("/app/searches")).text());
      expect(list).toContain("Consulta: subvenciones · Área: Ayudas y subvenciones");
      expect(list).toContain('href="/app/profiles/new?q=subvenciones&area=grants&fromSearch=1"');
      // Rerun in one click: the link opens the search with the saved filters.
      const rerun = decode(await (await ana.request("/app/search?q=subvenciones&area=grants")).text());
      expect(rerun).toContain(docs.high);

      const [row] = await db().rows<{ id: string }>(sql`select id from saved_searches where name = 'Ayudas'`);
      const deleted = decode(await (await ana.request("/app/searches", { form: { id: row?.id ?? "" } })).text());
      expect(deleted).toContain("Búsqueda «Ayudas» eliminada.");
      expect(await count(sql`select count(*)::int as n from saved_searches`)).toBe(0);
      for (const action of ["saved_search.created", "saved_search.deleted"]) {
        expect(
          await count(
            sql`select count(*)::int as n from audit_events where action = ${action} and actor_id = ${anaId}`,
          ),
        ).toBe(1);
      }
    });

    it("keeps saved searches over the API: the token's creator's only, OpenAPI answers, 422 in the caller's language", async () => {
      const { token } = await issueToken(db(), { organizationId, scope: "read", userId: anaId });
      const call = (path: string, init: { method?: string; body?: unknown; lang?: string } = {}) =>
        fetch(`${server.url}${path}`, {
          method: init.method ?? (init.body ? "POST" : "GET"),
          headers: {
            authorization: `Bearer ${token}`,
            "accept-language": init.lang ?? "es",
            ...(init.body ? { "content-type": "application/json" } : {}),
          },
          body: init.body ? JSON.stringify(init.body) : undefined,
        });
      const openapi = (await (await call("/api/v1/openapi.json")).json()) as Record<string, unknown>;
      const checker = openApiChecker(openapi);

      const created = await call("/api/v1/saved-searches", {
        body: { name: "BOE subvenciones", filters: { q: "subvenciones", source: "boe", sort: "date" } },
      });
      expect(created.status).toBe(201);
      const body = (await created.json()) as {
        id: string;
        documentsPath: string;
        searchPath: string;
        alertPath: string;
      };
      expect(checker.check("/api/v1/saved-searches", "post", 201, body)).toEqual([]);
      expect(body).toMatchObject({
        documentsPath: "/api/v1/documents?q=subvenciones&source=boe&sort=date",
        searchPath: "/app/search?q=subvenciones&source=boe&sort=date",
        alertPath: "/app/profiles/new?q=subvenciones&source=boe&sort=date&fromSearch=1",
      });
      // Another member's search is not the token's.
      const [bea] = await db().rows<{ id: string }>(sql`insert into auth_user (id, name, email)
        values ('bea-api', 'Bea', 'bea-api@example.com') returning id`);
      await db().rows(sql`insert into auth_member (id, organization_id, user_id, role, created_at)
        values ('m-bea-api', ${organizationId}, 'bea-api', 'member', now())`);
      // Written directly (the audit chain's head is signed by the server's secret, not the test's).
      const [beas] = await db().rows<{
        id: string;
      }>(sql`insert into saved_searches (id, organization_id, user_id, name, filters)
        values (gen_random_uuid(), ${organizationId}, ${bea?.id ?? ""}, 'De Bea', '{"q":"blanqueo"}'::jsonb) returning id`);
      const listed = await call("/api/v1/saved-searches");
      expect(listed.status).toBe(200);
      const list = (await listed.json()) as { items: { name: string }[] };
      expect(checker.check("/api/v1/saved-searches", "get", 200, list)).toEqual([]);
      expect(list.items.map((item) => item.name)).toEqual(["BOE subvenciones"]);
      // Rerun over the API.
      const run = (await (await call(body.documentsPath)).json()) as { items: { id: string }[] };
      expect(run.items.map((item) => item.id)).toEqual(expect.arrayContaining([docs.high, docs.tricky]));
      expect(run.items.map((item) => item.id)).not.toContain(docs.foreign);

      const bad = await call("/api/v1/saved-searches", { body: { name: "x", filters: { area: "astrology" } } });
      expect(bad.status).toBe(422);
      expect(checker.check("/api/v1/saved-searches", "post", 422, await bad.clone().json())).toEqual([]);
      expect(Object.keys(((await bad.json()) as { fieldErrors: object }).fieldErrors)).toEqual(["filters.area"]);
      const duplicate = await call("/api/v1/saved-searches", {
        body: { name: "BOE subvenciones", filters: { q: "otra" } },
        lang: "en",
      });
      expect(duplicate.status).toBe(422);
      expect(await duplicate.json()).toMatchObject({
        fieldErrors: { name: ["You already have a search with that name: pick another."] },
      });
      const empty = await call("/api/v1/saved-searches", { body: { name: "Vacía", filters: { sort: "date" } } });
      expect(await empty.json()).toMatchObject({
        fieldErrors: { filters: ["No hay nada que guardar: escribe una consulta o elige algún filtro."] },
      });

      expect((await call(`/api/v1/saved-searches/${beas?.id}`, { method: "DELETE" })).status).toBe(404);
      expect((await call(`/api/v1/saved-searches/${body.id}`, { method: "DELETE" })).status).toBe(204);
      expect((await call(`/api/v1/saved-searches/${body.id}`, { method: "DELETE" })).status).toBe(404);
      expect(await count(sql`select count(*)::int as n from saved_searches`)).toBe(1);
      expect(
        await count(sql`select count(*)::int as n from audit_events where action like 'saved_search.%'
          and detail->>'tokenId' is not null and actor_id = ${anaId}`),
      ).toBe(3);
    });

    it("serves the profile's Atom feed behind a revocable token, valid by an XML parser and a feed parser", async () => {
      expect(profileId).not.toBe("");
      const made = decode(
        await (await ana.request(`/app/profiles/${profileId}/feed`, { form: { intent: "create" } })).text(),
      );
      const url = made.match(/value="(http[^"]+\/feeds\/pfd_[A-Za-z0-9_-]{43}\.atom)"/)?.[1];
      expect(url).toBeDefined();
      const token =
        new URL(url as string).pathname
          .split("/")
          .at(-1)
          ?.replace(/\.atom$/, "") ?? "";
      const stored = await db().rows<{ token_hash: string; created_by: string }>(
        sql`select token_hash, created_by from profile_feeds where profile_id = ${profileId}::uuid`,
      );
      expect(stored).toHaveLength(1);
      expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored[0]?.token_hash).not.toContain(token);
      expect(redactSecrets(`GET ${new URL(url as string).pathname} 200`)).not.toContain(token);
      // Shown once: the page afterwards says a URL is active, without it.
      expect(await (await ana.request(`/app/profiles/${profileId}/feed`)).text()).not.toContain(token);

      // A match outside the organisation's reach (stored before a reach change, say) never shows.
      await db().rows(sql`insert into alert_matches (id, document_id, profile_id, reasons)
        values (gen_random_uuid(), ${docs.foreign}::uuid, ${profileId}::uuid, '{}'::jsonb)`);

      const response = await fetch(url as string);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      const tree = new XMLParser({ ignoreAttributes: false }).parse(xml) as { feed: Record<string, unknown> };
      expect(tree.feed["@_xmlns"]).toBe("http://www.w3.org/2005/Atom");

      const feed = parseFeed(xml);
      expect(feed.title).toBe("Subvenciones · alertas de Vigía Normativo");
      const items = feed.items.map((item) => ({
        title: item.title,
        url: item.url,
        published: item.published?.toISOString().slice(0, 10),
        description: item.description,
      }));
      expect(items.map((item) => item.url).sort()).toEqual(
        [docs.high, docs.tricky, docs.old].map((id) => `${server.url}/app/documents/${id}`).sort(),
      );
      const tricky = items.find((item) => item.url?.endsWith(docs.tricky as string));
      expect(tricky?.title).toBe(trickyTitle);
      expect(tricky?.published).toBe(madridDateDaysAgo(3));
      expect(tricky?.description).toContain("Por qué: área Ayudas y subvenciones");
      expect(tricky?.description).toContain("«subvenciones»");
      expect(xml).not.toContain(docs.foreign);
      expect(
        await count(
          sql`select count(*)::int as n from audit_events where action = 'profile_feed.created' and actor_id = ${anaId}`,
        ),
      ).toBe(1);

      // Revoked: 404 at once, and the revocation is audited.
      const revoked = decode(
        await (await ana.request(`/app/profiles/${profileId}/feed`, { form: { intent: "revoke" } })).text(),
      );
      expect(revoked).toContain("Dirección revocada");
      expect((await fetch(url as string)).status).toBe(404);
      expect(
        await count(
          sql`select count(*)::int as n from audit_events where action = 'profile_feed.revoked' and actor_id = ${anaId}`,
        ),
      ).toBe(1);
      for (const wrong of ["pfd_nonsense.atom", `${token}.rss`, `${"pfd_"}${"A".repeat(43)}.atom`]) {
        expect((await fetch(`${server.url}/feeds/${wrong}`)).status).toBe(404);
      }
    });

    it("ends a member's feed when they are suspended; another member cannot reach the profile", async () => {
      const bea = await inviteOverHttp(ana, server.url, server.dataDir, "bea@example.com", "Bea");
      const createdProfile = await bea.request("/app/profiles/new", {
        form: {
          intent: "save",
          name: "Blanqueo",
          owner: "me",
          areas: "aml",
          email: "off",
          digestHour: "8",
          language: "es",
        },
      });
      expect(createdProfile.status).toBe(302);
      const [profile] = await db().rows<{ id: string; user_id: string }>(
        sql`select id, user_id from alert_profiles where name = 'Blanqueo'`,
      );
      await server.app.services.alerts.matchNow(docs.other as string);
      const made = decode(
        await (await bea.request(`/app/profiles/${profile?.id}/feed`, { form: { intent: "create" } })).text(),
      );
      const url = made.match(/value="(http[^"]+\.atom)"/)?.[1] as string;
      expect((await fetch(url)).status).toBe(200);
      // Ana (owner) cannot open Bea's own profile's feed page: not hers.
      expect((await ana.request(`/app/profiles/${profile?.id}/feed`)).status).toBe(404);
      await db().rows(sql`update auth_user set banned = true where id = ${profile?.user_id}`);
      expect((await fetch(url)).status).toBe(404);
      await db().rows(sql`update auth_user set banned = false where id = ${profile?.user_id}`);
      expect((await fetch(url)).status).toBe(200);
    });
  });
}
