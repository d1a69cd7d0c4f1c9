/**
 * What an EU act changes (issue 39), on PGlite and PostgreSQL: an act stored with Cellar's relations
 * (eurlex/relations.ts) says it on its page and in the API's `changes` (Spanish and English
 * citations), linked to the law page for an organisation that follows the amended act and offering
 * the follow to one that does not; and it warns the followers at once, listed on the EU law page
 * as announced, not yet consolidated. The act here is written by the test (no recording holds
 * Cellar's amendment relations: see relations.test.ts); the amended act, the market abuse
 * regulation, is read from its recorded consolidated versions.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseDirectory } from "../../app/.server/alerts/directory.ts";
import type { Database } from "../../app/.server/db/client.ts";
import { storeDocument } from "../../app/.server/documents/store.ts";
import { createFollow } from "../../app/.server/laws/follows.ts";
import { lawPageView } from "../../app/.server/laws/page.ts";
import { lawDocumentStored } from "../../app/.server/laws/service.ts";
import { syncEuLaw } from "../../app/.server/sources/eu-consolidated/sync.ts";
import { euRelationsOf } from "../../app/.server/sources/eurlex/relations.ts";
import { createSourceHttp } from "../../app/.server/sources/http.ts";
import { startReplayServer } from "../../app/.server/sources/replay.ts";
import { apiServicesFor, callApi, openApiChecker } from "../support/api-harness.ts";
import { ensureMember, issueToken } from "../support/api-tokens.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";
import { databaseTargets } from "../support/postgres.ts";

const MAR = "32014R0596";
const ACT = "32016R1011";

for (const target of databaseTargets()) {
  describe(`what an EU act changes (${target.name})`, () => {
    let database: Database;
    let api: Awaited<ReturnType<typeof apiServicesFor>>;
    let checker: ReturnType<typeof openApiChecker>;
    const tokens = { a: "", b: "" };
    let documentId = "";

    beforeAll(async () => {
      database = await openMigratedDatabase(await target.create());
      api = await apiServicesFor(database);
      tokens.a = (await issueToken(database, { organizationId: "org-a", scope: "read" })).token;
      tokens.b = (await issueToken(database, { organizationId: "org-b", scope: "read" })).token;
      const ana = await ensureMember(database, { organizationId: "org-a", userId: "ana", role: "member" });
      // Organisation A follows the market abuse regulation, read from its recorded consolidated versions.
      const followed = await createFollow(database, "org-a", {
        lawId: MAR,
        blockIds: [],
        userId: ana.id,
        emailMode: "off",
        language: "es",
      });
      expect("follow" in followed).toBe(true);
      const replay = await startReplayServer();
      try {
        const http = createSourceHttp({ userAgent: "test", source: "cellar", perSecond: 1000, retries: 1 });
        await syncEuLaw(database, http, { cellarSparqlUrl: replay.sparqlUrl, cellarUrl: replay.url }, MAR);
      } finally {
        await replay.close();
      }
      const stored = await storeDocument(database, {
        source: "eurlex",
        sourceId: ACT,
        language: "en",
        title: "Regulation (EU) 2016/1011 on indices used as benchmarks",
        titles: { en: "Regulation (EU) 2016/1011 on indices used as benchmarks" },
        publishedOn: "2016-06-29",
        effectiveDates: ["2016-06-30"],
        officialUrl: `https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=CELEX:${ACT}`,
        links: {},
        subjects: [],
        alerts: [],
        eurovoc: [],
        directoryCodes: [],
        notes: [],
        relations: euRelationsOf([
          { relation: "amends", target: MAR },
          { relation: "amends", target: "32014L0017" },
        ]),
        paragraphs: [{ kind: "paragraph", text: "Article 56. Amendments to Regulation (EU) No 596/2014" }],
        provenance: [],
      });
      documentId = stored.id;
      const response = await callApi(api, "/api/v1/openapi.json");
      checker = openApiChecker((await response.json()) as Record<string, unknown>);
    });
    afterAll(async () => {
      await database?.close();
      await target.cleanup();
    });

    it("gives the API's changes in both languages, placed against the laws the organisation follows", async () => {
      const response = await callApi(api, `/api/v1/documents/${documentId}`, { token: tokens.a });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { changes: unknown[] };
      expect(checker.check("/api/v1/documents/{id}", "get", 200, body)).toEqual([]);
      expect(body.changes).toEqual([
        {
          lawId: MAR,
          verb: "modifies",
          line: "Modifica el Reglamento (UE) n.º 596/2014",
          text: "el Reglamento (UE) n.º 596/2014",
          texts: { es: "Reglamento (UE) n.º 596/2014", en: "Regulation (EU) No 596/2014" },
          lawTitle: expect.stringContaining("596/2014"),
          blockIds: [],
          lawPath: `/app/laws/${MAR}`,
          // The recorded consolidated versions credit this act (marker M1) with articles 19, 35 and 38.
          consolidated: ["art_19", "art_35", "art_38"].map((block) => ({
            blockId: block,
            title: `Article ${block.slice(4)}`,
            comparePath: `/app/laws/${MAR}/compare?block=${block}&to=${ACT}`,
          })),
          followed: true,
        },
        {
          lawId: "32014L0017",
          verb: "modifies",
          line: "Modifica la Directiva 2014/17/UE",
          text: "la Directiva 2014/17/UE",
          texts: { es: "Directiva 2014/17/UE", en: "Directive 2014/17/EU" },
          lawTitle: null,
          blockIds: [],
          lawPath: null,
          consolidated: [],
          followed: false,
        },
      ]);
      // Organisation B follows nothing: the lines keep their words, no law page, the follow offered.
      const other = (await (await callApi(api, `/api/v1/documents/${documentId}`, { token: tokens.b })).json()) as {
        changes: Array<{ lawPath: string | null; lawTitle: string | null }>;
      };
      expect(other.changes.map((c) => [c.lawPath, c.lawTitle])).toEqual([
        [null, null],
        [null, null],
      ]);
    });

    it("warns the amended act's followers at once and lists the act on the EU law page", async () => {
      const warned = await lawDocumentStored(database, documentId, databaseDirectory(database));
      expect(warned.map((w) => w.lawId)).toEqual([MAR]);
      expect(warned[0]?.match).toMatchObject({ matched: 1 });
      const page = await lawPageView(database, "org-a", MAR, "2026-12-06");
      expect(page?.announcements).toEqual([
        expect.objectContaining({ actId: ACT, href: `/app/documents/${documentId}`, publishedOn: "2016-06-29" }),
      ]);
      // Once per act and law: storing it again (as a retried job does, decision 0156: the
      // announcement is matched again in case a crash came between) warns nobody twice.
      const again = await lawDocumentStored(database, documentId, databaseDirectory(database));
      expect(again.map((a) => [a.lawId, a.match.newMatches, a.match.deliveries])).toEqual([[MAR, 0, 0]]);
      const [alerts] = await database.rows<{ n: number }>(
        sql`select count(*)::int as n from alert_matches m join alert_profiles p on p.id = m.profile_id where p.law_id = ${MAR}`,
      );
      expect(alerts?.n).toBe(1);
    });
  });
}
