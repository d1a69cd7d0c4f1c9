/**
 * The signed-in home's loader (/app) in-process: the latest documents with filters chosen in the
 * URL and remembered in a cookie tied to the user, and the member's unread alerts only.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import { alerts } from "../../app/.server/db/schema/alerts.ts";
import * as homeRoute from "../../app/routes/app/home.tsx";
import { ingestRecorded } from "../support/documents-fixtures.ts";
import { memberInfo, pageContext } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

interface HomeData {
  filters: Record<string, string>;
  filtered: boolean;
  errors: Record<string, string[]>;
  documents: { sourceId: string; source: string; kind: string | null; publishedOn: string }[];
  alerts: { id: number; documentId: string; title: string }[];
  searchHref: string;
}

describe("home page loader", () => {
  let database: Database;
  let ids: Map<string, string>;
  const ana = memberInfo();
  const bob = memberInfo({ userId: "user-bob", email: "bob@org-a.example", name: "Bob" });

  const home = async (query: string, member = ana, cookie?: string) => {
    const request = new Request(`http://127.0.0.1:3000/app${query}`, { headers: cookie ? { cookie } : {} });
    const result = (await homeRoute.loader({
      request,
      params: {},
      context: pageContext(database, member),
    } as unknown as Parameters<typeof homeRoute.loader>[0])) as unknown;
    if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
      const wrapped = result as unknown as { data: HomeData; init: { headers: Record<string, string> } };
      return { data: wrapped.data, setCookie: wrapped.init.headers["set-cookie"] ?? null };
    }
    return { data: result as HomeData, setCookie: null };
  };
  const cookieOf = (setCookie: string | null) => setCookie?.split(";")[0] ?? "";

  beforeAll(async () => {
    database = await openMigratedDatabase();
    ids = await ingestRecorded(database, ["2018-12-06"]);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it("shows the ten newest documents without filters, and sets no cookie", async () => {
    const { data, setCookie } = await home("");
    expect(setCookie).toBeNull();
    expect(data.filtered).toBe(false);
    expect(data.documents).toHaveLength(10);
    expect(data.documents[0]?.sourceId).toBe("32022R1925");
    expect(data.searchHref).toBe("/app/search");
  });

  it("applies filters chosen in the URL, remembers them for that user only, and forgets them on reset", async () => {
    const chosen = await home("?source=boe&kind=organic-law");
    expect(chosen.data.documents.map((d) => d.sourceId).sort()).toEqual(["BOE-A-2018-16672", "BOE-A-2018-16673"]);
    expect(chosen.data.searchHref).toBe("/app/search?source=boe&kind=organic-law");
    expect(chosen.setCookie).toMatch(/^vn\.home_filters=[^;]+; Max-Age=31536000; Path=\/app; HttpOnly; SameSite=Lax$/);
    const cookie = cookieOf(chosen.setCookie);

    const remembered = await home("", ana, `other=1; ${cookie}`);
    expect(remembered.setCookie).toBeNull();
    expect(remembered.data.filters).toEqual({ source: "boe", kind: "organic-law" });
    expect(remembered.data.documents.map((d) => d.sourceId).sort()).toEqual(["BOE-A-2018-16672", "BOE-A-2018-16673"]);

    // Another user in the same browser does not inherit them.
    const other = await home("", bob, cookie);
    expect(other.data.filtered).toBe(false);
    expect(other.data.documents).toHaveLength(10);

    const reset = await home("?source=", ana, cookie);
    expect(reset.setCookie).toMatch(/^vn\.home_filters=; Max-Age=0;/);
    expect(reset.data.filtered).toBe(false);
  });

  it("keeps invalid filters out of the cookie and names them", async () => {
    const { data, setCookie } = await home("?relevance=urgent");
    expect(setCookie).toBeNull();
    expect(Object.keys(data.errors)).toEqual(["relevance"]);
    expect(data.documents).toEqual([]);
  });

  it("lists the member's unread alerts, newest first, and no one else's", async () => {
    const profileId = randomUUID();
    const lopd = ids.get("BOE-A-2018-16673") ?? "";
    const gdpr = ids.get("32016R0679") ?? "";
    await database.db.insert(alerts).values([
      { userId: ana.userId, documentId: lopd, profileId, title: "Ley Orgánica 3/2018" },
      { userId: ana.userId, documentId: gdpr, profileId, title: "GDPR", readAt: new Date() },
      { userId: bob.userId, documentId: gdpr, profileId, title: "GDPR para Bob" },
      { userId: ana.userId, documentId: gdpr, profileId: randomUUID(), title: "GDPR (perfil 2)" },
    ]);
    const { data } = await home("");
    expect(data.alerts.map((a) => [a.title, a.documentId])).toEqual([
      ["GDPR (perfil 2)", gdpr],
      ["Ley Orgánica 3/2018", lopd],
    ]);
  });
});
