/**
 * EU consolidated versions through the replay: the act's versions listed by SPARQL, only new
 * versions fetched, stored in the law tables (source 'eu'); the replay moved in time makes a
 * new version appear.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { alertMatches, alertProfiles, lawBlocks, lawBlockVersions, laws } from "../../app/.server/db/schema.ts";
import { actCelexOf } from "../../app/.server/law-texts/celex.ts";
import { lawAlertsFor } from "../../app/.server/laws/service.ts";
import { pollEuAndAlert } from "../../app/.server/sources/eu-consolidated/run.ts";
import { syncEuLaw } from "../../app/.server/sources/eu-consolidated/sync.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { type ReplayServer, startReplayServer } from "../../app/.server/sources/replay.ts";
import { memoryDirectory } from "../support/alerts-fixtures.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

let replay: ReplayServer;
let database: Database;

beforeAll(async () => {
  replay = await startReplayServer();
  database = await openMigratedDatabase();
  // A migrated PGlite: slow on a loaded 2-core machine.
}, 240_000);

afterAll(async () => {
  await replay?.close();
  await database?.close();
});

const http = () =>
  createSourceHttp({ userAgent: "test", source: "cellar", perSecond: 1000, retries: 2, backoffMs: 50 });
const urls = () => ({ cellarSparqlUrl: replay.sparqlUrl, cellarUrl: replay.url });
const textRequests = () => replay.requests.filter((r) => r.includes("/resource/celex/"));

describe("EU consolidated versions stored as a law", () => {
  it("reads the CELEX number a member types", () => {
    expect(actCelexOf("32014R0596")).toBe("32014R0596");
    expect(actCelexOf("https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:32014R0596")).toBe("32014R0596");
    expect(actCelexOf("BOE-A-2015-10565")).toBeNull();
  });

  it("as of 2023: two versions; a second poll fetches no text; moved on: the new article 21a", async () => {
    replay.moveEuTo("2023-12-31");
    const first = await syncEuLaw(database, http(), urls(), "32014R0596");
    expect(first.applied).toEqual(["02014R0596-20160703", "02014R0596-20210101"]);
    expect(textRequests()).toHaveLength(2);
    const [law] = await database.db.select().from(laws).where(eq(laws.id, "32014R0596"));
    expect(law?.source).toBe("eu");
    expect(law?.title).toMatch(/REGULATION \(EU\) No 596\/2014/);
    const art17 = await database.db
      .select()
      .from(lawBlockVersions)
      .where(and(eq(lawBlockVersions.lawId, "32014R0596"), eq(lawBlockVersions.blockId, "art_17")));
    expect(art17.map((v) => [v.normId, v.publishedOn]).sort()).toEqual([
      ["32014R0596", "2016-07-03"],
      ["32019R2115", "2021-01-01"],
    ]);
    expect(art17[0]?.sourceUrl).toMatch(/\/resource\/celex\/02014R0596-20\d{6}$/);
    expect(art17[0]?.payloadHash).toMatch(/^[0-9a-f]{64}$/);

    const again = await syncEuLaw(database, http(), urls(), "32014R0596");
    expect(again.applied).toEqual([]);
    expect(textRequests()).toHaveLength(2);

    replay.moveEuTo(null);
    const moved = await syncEuLaw(database, http(), urls(), "32014R0596");
    expect(moved.applied).toEqual(["02014R0596-20240109"]);
    expect(moved.changed).toEqual(["art_21a"]);
    expect(textRequests()).toHaveLength(3);
    const blocks = await database.db.select().from(lawBlocks).where(eq(lawBlocks.lawId, "32014R0596"));
    const order = blocks.sort((a, b) => a.position - b.position).map((b) => b.blockId);
    expect(order.indexOf("art_21a")).toBe(order.indexOf("art_21") + 1);
  });

  it("an article deleted by a later version is kept, repealed from that date", async () => {
    replay.moveEuTo(null);
    const result = await syncEuLaw(database, http(), urls(), "32014R0910");
    expect(result.applied).toEqual(["02014R0910-20240520", "02014R0910-20241018"]);
    const [art19] = await database.db
      .select()
      .from(lawBlocks)
      .where(and(eq(lawBlocks.lawId, "32014R0910"), eq(lawBlocks.blockId, "art_19")));
    expect(art19?.expiresOn).toBe("2024-10-18");
  });

  it("a followed act's new version alerts the follow of the changed annex, not the follow of an unchanged article", async () => {
    const ACT = "32009R1107";
    await database.db.insert(laws).values({ id: ACT, source: "eu", title: ACT }).onConflictDoNothing();
    const profile = (id: string, blocks: string[]) => ({
      id,
      organizationId: "org-a",
      userId: "u-ana",
      name: `follow ${blocks.join(",")}`,
      emailMode: "off",
      language: "es",
      lawId: ACT,
      lawBlocks: blocks,
    });
    await database.db
      .insert(alertProfiles)
      .values([
        profile("00000000-0000-4000-8000-000000000001", []),
        profile("00000000-0000-4000-8000-000000000002", []),
      ]);
    const deps = {
      database,
      http: http(),
      urls: urls(),
      lawAlerts: lawAlertsFor(
        database,
        memoryDirectory([{ userId: "u-ana", email: "ana@example.com", language: "es" }], {}),
      ),
      log: { warn() {} },
    };
    replay.moveEuTo("2021-12-31");
    const first = await pollEuAndAlert(deps);
    expect(first.find((r) => r.lawId === ACT)).toMatchObject({ changeId: null, applied: ["02009R1107-20210327"] });
    // Now narrow the follows: one to Annex II, one to Article 1.
    await database.db
      .update(alertProfiles)
      .set({ lawBlocks: ["anx_II"] })
      .where(eq(alertProfiles.id, "00000000-0000-4000-8000-000000000001"));
    await database.db
      .update(alertProfiles)
      .set({ lawBlocks: ["art_1"] })
      .where(eq(alertProfiles.id, "00000000-0000-4000-8000-000000000002"));
    replay.moveEuTo(null);
    const moved = await pollEuAndAlert(deps);
    const change = moved.find((r) => r.lawId === ACT);
    expect(change?.applied).toEqual(["02009R1107-20221121"]);
    expect(change?.changeId).toBeTruthy();
    const matches = await database.db.select().from(alertMatches).where(eq(alertMatches.documentId, change!.changeId!));
    expect(matches.map((m) => m.profileId)).toEqual(["00000000-0000-4000-8000-000000000001"]);
  });
});
