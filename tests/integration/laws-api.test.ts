/**
 * Issue 25 (lawsrc): the laws API. Laws, one law with its blocks' last change, a block's versions
 * with provenance (sorted by date, whatever the payload's order), the text at a date, follows
 * (create for the token's creator or a group of the organisation, list, delete: audited), every
 * answer checked against the served OpenAPI document; errors in the caller's language.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServices } from "../../app/.server/api/service.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { registerLaw } from "../../app/.server/law-texts/store.ts";
import { followFromForm } from "../../app/.server/laws/follow-page.ts";
import { createFollow } from "../../app/.server/laws/follows.ts";
import { lawPageView } from "../../app/.server/laws/page.ts";
import { pollConsolidated } from "../../app/.server/sources/consolidated/poll.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import * as lawRoute from "../../app/routes/app/law.tsx";
import * as lawCompareRoute from "../../app/routes/app/law-compare.tsx";
import { openMigrated } from "../support/alerts-fixtures.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { issueToken } from "../support/api-tokens.ts";
import { memberInfo, pageContext, pageRequest, settle } from "../support/page-harness.ts";

const LAW = "BOE-A-1985-5392";
let replay: ReplayServer;
let database: Database;
let api: ApiServices;
let alfa: string;
let beta: string;
let checker: ReturnType<typeof openApiChecker>;
let baseFollow: string;

beforeAll(async () => {
  replay = await startReplayServer();
  database = await openMigrated(undefined);
  await registerLaw(database, LAW, "boe");
  await pollConsolidated(
    {
      database,
      http: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000 }),
      baseUrl: replay.url,
      log: { info() {}, warn() {} },
    },
    { only: [LAW] },
  );
  api = await apiServicesFor(database);
  alfa = (await issueToken(database, { organizationId: "org-alfa", scope: "read", userId: "ana" })).token;
  // The laws API answers for the organisation's followed laws only: org-alfa follows LAW.
  baseFollow = await createFollow(database, "org-alfa", {
    lawId: LAW,
    blockIds: [],
    userId: "ana",
    emailMode: "off",
    language: "es",
  }).then((outcome) => ("follow" in outcome ? outcome.follow.id : ""));
  beta = (await issueToken(database, { organizationId: "org-beta", scope: "read", userId: "bea" })).token;
  checker = openApiChecker((await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>);
});
afterAll(async () => {
  await database?.close();
  await replay?.close();
});

async function get(path: string, template: string, token = alfa, status = 200) {
  const response = await callApi(api, path, { token });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(status);
  expect(checker.check(template, "get", status, body)).toEqual([]);
  return body;
}

describe("laws API", () => {
  it("lists laws and shows one with its blocks and their last change", async () => {
    const list = await get("/api/v1/laws", "/api/v1/laws");
    expect(list.items).toEqual([expect.objectContaining({ id: LAW, source: "boe", blocks: 231 })]);
    const law = await get(`/api/v1/laws/${LAW}`, "/api/v1/laws/{id}");
    const blocks = law.blockList as Array<{
      blockId: string;
      lastChange: { publishedOn: string } | null;
      versions: number;
    }>;
    expect(blocks).toHaveLength(231);
    // a2's versions are listed out of date order in the payload: the last change is the latest (2013), not the last listed (1990).
    expect(blocks.find((b) => b.blockId === "a2")?.lastChange?.publishedOn).toBe("2013-12-30");
    expect(law.attribution).toMatch(/Agencia Estatal Boletín Oficial del Estado/);
    await get("/api/v1/laws/BOE-A-1999-1", "/api/v1/laws/{id}", alfa, 404);
  });

  it("gives a block's versions sorted by date with provenance, and the text at a date", async () => {
    const a2 = await get(`/api/v1/laws/${LAW}/blocks/a2/versions`, "/api/v1/laws/{id}/blocks/{blockId}/versions");
    const versions = a2.versions as Array<{ publishedOn: string; provenance: { url: string; sha256: string } }>;
    expect(versions.map((v) => v.publishedOn)).toEqual(["1985-04-03", "1990-01-11", "2013-12-30"]);
    expect(versions[0]?.provenance.url).toBe(`${replay.url}/datosabiertos/api/legislacion-consolidada/id/${LAW}`);
    expect(versions[0]?.provenance.sha256).toMatch(/^[0-9a-f]{64}$/);
    const text1995 = await get(`/api/v1/laws/${LAW}/text?date=1995-01-01`, "/api/v1/laws/{id}/text");
    const a2At1995 = (text1995.blocks as Array<{ blockId: string; version: { publishedOn: string } }>).find(
      (b) => b.blockId === "a2",
    );
    expect(a2At1995?.version.publishedOn).toBe("1990-01-11");
    // a92bis was inserted later: absent in 1995.
    expect((text1995.blocks as Array<{ blockId: string }>).some((b) => b.blockId === "a92bis")).toBe(false);
    const bad = await callApi(api, `/api/v1/laws/${LAW}/text?date=ayer`, {
      token: alfa,
      headers: { "accept-language": "es" },
    });
    expect(bad.status).toBe(422);
    const badBody = (await bad.json()) as { fieldErrors: Record<string, string[]> };
    expect(badBody.fieldErrors.date?.[0]).toMatch(/AAAA-MM-DD/);
    expect(checker.check("/api/v1/laws/{id}/text", "get", 422, badBody)).toEqual([]);
    // Days that do not exist are refused (Date.parse rolled 2023-02-30 over to 2 March); a leap day is one.
    for (const date of ["2023-02-30", "2023-02-29", "2023-13-01", "2023-1-1"]) {
      const impossible = await callApi(api, `/api/v1/laws/${LAW}/text?date=${date}`, {
        token: alfa,
        headers: { "accept-language": "en" },
      });
      const body = (await impossible.json()) as { fieldErrors: Record<string, string[]> };
      expect(impossible.status, date).toBe(422);
      expect(body.fieldErrors.date?.[0]).toMatch(/YYYY-MM-DD/);
    }
    const leap = await get(`/api/v1/laws/${LAW}/text?date=2024-02-29`, "/api/v1/laws/{id}/text");
    expect(leap.date).toBe("2024-02-29");
  });

  it("follows: created for the token's creator or a group of the organisation, listed, deleted, audited", async () => {
    const create = async (token: string, body: unknown, lang = "en") =>
      callApi(api, "/api/v1/follows", {
        token,
        method: "POST",
        headers: { "content-type": "application/json", "accept-language": lang },
        body: JSON.stringify(body),
      });
    const created = await create(alfa, { lawId: LAW, blockIds: ["a22", "a2"], emailMode: "immediate" });
    const follow = (await created.json()) as { id: string; userId: string; blockIds: string[] };
    expect(created.status).toBe(201);
    expect(checker.check("/api/v1/follows", "post", 201, follow)).toEqual([]);
    expect(follow).toMatchObject({ userId: "ana", blockIds: ["a22", "a2"] });
    // Unknown block, bad id, another organisation's group: 422 with field errors in the caller's language.
    const badBlock = await create(alfa, { lawId: LAW, blockIds: ["a9999"] }, "es");
    expect(badBlock.status).toBe(422);
    expect(((await badBlock.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.blockIds?.[0]).toMatch(
      /no está en la norma/,
    );
    const badId = await create(alfa, { lawId: "ley de costas" });
    expect(((await badId.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.lawId?.[0]).toMatch(
      /BOE-A-/,
    );
    await database.rows(
      sql`insert into auth_team (id, name, organization_id, created_at) values ('team-beta', 'Beta', 'org-beta', now())`,
    );
    const otherGroup = await create(alfa, { lawId: LAW, groupId: "team-beta" });
    expect(otherGroup.status).toBe(422);
    const groupFollow = await create(beta, { lawId: LAW, groupId: "team-beta" });
    expect(groupFollow.status).toBe(201);
    // An ELI of a law the platform holds.
    const eli = await create(beta, { lawId: "https://www.boe.es/eli/es/l/1985/04/02/7" });
    expect(eli.status).toBe(201);
    // An EU act by its CELEX number: registered as an EU law, fetched by the next Cellar poll.
    const celex = await create(beta, { lawId: "32016R0679", blockIds: [] });
    expect(celex.status).toBe(201);
    expect(((await celex.json()) as { lawId: string }).lawId).toBe("32016R0679");
    expect(await database.rows(sql`select source from laws where id = '32016R0679'`)).toEqual([{ source: "eu" }]);

    // Each organisation sees its own follows only, and cannot delete another's.
    const listA = await callApi(api, "/api/v1/follows", { token: alfa });
    const followsA = (await listA.json()) as Array<{ id: string }>;
    expect(checker.check("/api/v1/follows", "get", 200, followsA)).toEqual([]);
    expect(followsA.map((f) => f.id).sort()).toEqual([baseFollow, follow.id].sort());
    const listB = (await (await callApi(api, "/api/v1/follows", { token: beta })).json()) as Array<{ id: string }>;
    expect(listB).toHaveLength(3);
    expect((await callApi(api, `/api/v1/follows/${follow.id}`, { token: beta, method: "DELETE" })).status).toBe(404);
    expect((await callApi(api, `/api/v1/follows/${follow.id}`, { token: alfa, method: "DELETE" })).status).toBe(204);
    const events = await database.rows<{ action: string; organization_id: string; actor_id: string | null }>(
      sql`select action, organization_id, actor_id from audit_events where action like 'follow.%' order by seq`,
    );
    expect(events.filter((e) => e.organization_id === "org-alfa").map((e) => e.action)).toEqual([
      "follow.created",
      "follow.listed",
      "follow.deleted",
    ]);
    expect(events.every((e) => e.actor_id === (e.organization_id === "org-alfa" ? "ana" : "bea"))).toBe(true);
  });

  it("two organisations: laws, law pages, follows and their names stay each one's; follows capped; unknown ids refused", async () => {
    const SECRET = "BOE-A-2010-10544";
    const create = (token: string, body: unknown, lang = "en", services = api) =>
      callApi(services, "/api/v1/follows", {
        token,
        method: "POST",
        headers: { "content-type": "application/json", "accept-language": lang },
        body: JSON.stringify(body),
      });
    const secret = await create(alfa, { lawId: SECRET, name: "Secret M&A target law" });
    expect(secret.status).toBe(201);
    const secretFollow = (await secret.json()) as { id: string };

    // Alfa lists and reads it: pending, with the source's next check (issue 37 item 6), not a failure.
    const listA = (await get("/api/v1/laws", "/api/v1/laws")).items as Array<{ id: string; state: string }>;
    expect(listA.map((l) => [l.id, l.state])).toEqual(
      expect.arrayContaining([
        [LAW, "fetched"],
        [SECRET, "pending"],
      ]),
    );
    const pending = await get(`/api/v1/laws/${SECRET}`, "/api/v1/laws/{id}");
    expect(pending).toMatchObject({ id: SECRET, state: "pending", blocks: 0, blockList: [] });
    expect(Date.parse(String(pending.nextCheckAt))).toBeGreaterThan(Date.now());

    // Beta: nothing of it, on any path; nor the name alfa gave; nor LAW, which beta does not follow.
    const listB = await get("/api/v1/laws", "/api/v1/laws", beta);
    const betaFollows = (await (await callApi(api, "/api/v1/follows", { token: beta })).json()) as unknown[];
    for (const seen of [JSON.stringify(listB), JSON.stringify(betaFollows)]) {
      expect(seen).not.toContain(SECRET);
      expect(seen).not.toContain("Secret M&A");
    }
    for (const path of [
      `/api/v1/laws/${SECRET}`,
      `/api/v1/laws/${SECRET}/text`,
      `/api/v1/laws/${SECRET}/blocks/a1/versions`,
      `/api/v1/laws/${SECRET}/compare?block=a1`,
    ]) {
      expect((await callApi(api, path, { token: beta })).status, path).toBe(404);
    }

    // The law pages apply the same rule: beta's member gets 404, alfa's the pending page.
    const ana = memberInfo({ organizationId: "org-alfa", userId: "ana" });
    const bea = memberInfo({ organizationId: "org-beta", userId: "bea" });
    type Loader = (args: unknown) => Promise<unknown>;
    const page = (who: typeof ana, path: string, id: string, route: { loader: unknown } = lawRoute) =>
      settle(() => (route.loader as Loader)(pageRequest(path, pageContext(database, who), { id })));
    const status = (outcome: { data?: unknown; thrown?: unknown }) =>
      (outcome.thrown as { init?: { status?: number } } | undefined)?.init?.status ?? 200;
    expect(status(await page(bea, `/app/laws/${SECRET}`, SECRET))).toBe(404);
    // A fetched law an organisation does not follow (beta follows LAW since the test above; delta never did).
    const dan = memberInfo({ organizationId: "org-delta", userId: "dan" });
    expect(status(await page(dan, `/app/laws/${LAW}`, LAW))).toBe(404);
    expect(status(await page(dan, `/app/laws/${LAW}/compare?block=a2`, LAW, lawCompareRoute))).toBe(404);
    expect(status(await page(bea, `/app/laws/${LAW}/compare?block=a2`, LAW, lawCompareRoute))).toBe(200);
    const pendingPage = await page(ana, `/app/laws/${SECRET}`, SECRET);
    expect(pendingPage.thrown).toBeUndefined();
    const pendingData = pendingPage.data as unknown as {
      pending: { state: string; nextCheckAt: string | null };
      follows: unknown[];
    };
    expect(pendingData.pending).toMatchObject({ state: "pending" });
    expect(pendingData.pending.nextCheckAt).not.toBeNull();
    expect(pendingData.follows).toHaveLength(1);
    // The view model itself no longer breaks on a law without parts.
    expect((await lawPageView(database, "org-alfa", SECRET, "2026-01-01"))?.blocks).toEqual([]);
    expect(status(await page(ana, `/app/laws/${LAW}`, LAW))).toBe(200);

    // Unfollowing takes it out of alfa's list too.
    expect((await callApi(api, `/api/v1/follows/${secretFollow.id}`, { token: alfa, method: "DELETE" })).status).toBe(
      204,
    );
    const after = (await get("/api/v1/laws", "/api/v1/laws")).items as Array<{ id: string }>;
    expect(after.map((l) => l.id)).not.toContain(SECRET);
    expect((await callApi(api, `/api/v1/laws/${SECRET}`, { token: alfa })).status).toBe(404);

    // A cap per organisation (here 2), through the API and the law pages' form, in the caller's language.
    const gamma = (await issueToken(database, { organizationId: "org-gamma", scope: "read", userId: "gil" })).token;
    const capped = await apiServicesFor(database, 600, {}, { maxFollowsPerOrganization: 2 });
    for (const id of ["BOE-A-2099-1", "BOE-A-2099-2"])
      expect((await create(gamma, { lawId: id }, "en", capped)).status).toBe(201);
    const third = await create(gamma, { lawId: "BOE-A-2099-3" }, "es", capped);
    expect(third.status).toBe(422);
    const thirdBody = (await third.json()) as { fieldErrors: Record<string, string[]> };
    expect(checker.check("/api/v1/follows", "post", 422, thirdBody)).toEqual([]);
    expect(thirdBody.fieldErrors.lawId?.[0]).toBe(
      "Tu organización ya sigue 2 leyes, el máximo. Deja de seguir alguna para añadir otra.",
    );
    const thirdEn = (await (await create(gamma, { lawId: "BOE-A-2099-3" }, "en", capped)).json()) as typeof thirdBody;
    expect(thirdEn.fieldErrors.lawId?.[0]).toMatch(/already follows 2 laws/);
    const gil = memberInfo({ organizationId: "org-gamma", userId: "gil" });
    const form = new FormData();
    form.set("law", "BOE-A-2099-3");
    const meta = { headers: new Headers(), ip: "127.0.0.1", userAgent: "test" };
    expect(await followFromForm(database, gil, meta, form, undefined, 2)).toMatchObject({
      ok: false,
      failure: "tooManyFollows",
    });

    // Once the source has answered that it does not know an id, following it is refused.
    const polled = await pollConsolidated(
      {
        database,
        http: createSourceHttp({ userAgent: "test", source: "boe", perSecond: 10_000, retries: 0 }),
        baseUrl: replay.url,
        log: { info() {}, warn() {} },
      },
      { only: ["BOE-A-2099-1"] },
    );
    expect(polled.laws.map((l) => l.status)).toEqual(["missing"]);
    const unknown = await create(beta, { lawId: "BOE-A-2099-1" }, "en");
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as typeof thirdBody).fieldErrors.lawId?.[0]).toMatch(/does not know that law/);
    // Gamma's page for it says the source does not know it.
    const unknownPage = await page(gil, "/app/laws/BOE-A-2099-1", "BOE-A-2099-1");
    expect((unknownPage.data as unknown as { pending: { state: string } }).pending.state).toBe("unknown");
    // Nothing answers differently for a law another organisation follows: an ELI resolves among the
    // caller's follows only, and parts of a law it does not follow are not checked against the text.
    const delta = (await issueToken(database, { organizationId: "org-delta", scope: "read", userId: "dan" })).token;
    const byEli = await create(delta, { lawId: "https://www.boe.es/eli/es/l/1985/04/02/7" });
    expect(byEli.status).toBe(422);
    expect(((await byEli.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.lawId?.[0]).toMatch(
      /among the ones your organisation follows/,
    );
    expect((await create(delta, { lawId: "https://www.boe.es/eli/es/l/2099/01/01/1" })).status).toBe(422);
    const blocksOfOther = await create(delta, { lawId: LAW, blockIds: ["a9999"] });
    expect(blocksOfOther.status).toBe(201);
    const dForm = new FormData();
    dForm.set("scope", "blocks");
    dForm.set("block", "a2");
    const dan2 = memberInfo({ organizationId: "org-epsilon", userId: "eva" });
    expect(await followFromForm(database, dan2, meta, dForm, LAW)).toMatchObject({ ok: false, failure: "badBlocks" });
    // An id never polled is still accepted (pending until the first poll answers).
    expect((await create(beta, { lawId: "BOE-A-2099-2" }, "en")).status).toBe(201);
  });

  it("asks for a token", async () => {
    const response = await callApi(api, "/api/v1/laws");
    expect(response.status).toBe(401);
  });
});
