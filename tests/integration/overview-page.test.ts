/**
 * The overview (issue 26) through its loader and the server-rendered markup: new relevant documents
 * per effective area and week (the organisation's corrections and the reach rule applied), triage
 * status and overdue items per group, days from publication to decision; GET filters validated in
 * the user's language; each chart an SVG image with a text alternative and a data table.
 */
import { sql } from "drizzle-orm";
import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/.server/db/client.ts";
import type { OverviewData } from "../../app/.server/evidence/overview.ts";
import { weekStart } from "../../app/.server/evidence/overview.ts";
import { AreaWeekChart, DecisionChart, TriageChart } from "../../app/components/app/evidence/overview-charts.tsx";
import * as overviewPage from "../../app/routes/app/overview.tsx";
import { type EvidenceStory, setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { pageContext, pageRequest } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

type Member = EvidenceStory["ana"];

describe("the overview", () => {
  let database: Database;
  let story: EvidenceStory;
  const load = async (who: Member, query = "") =>
    overviewPage.loader(
      pageRequest(`/app/overview${query}`, pageContext(database, who)) as unknown as Parameters<
        typeof overviewPage.loader
      >[0],
    );

  beforeAll(async () => {
    database = await openMigratedDatabase();
    story = await setUpEvidenceStory(database);
    // The organisation says the BOE document is not about data protection: one area less, for A only.
    await database.rows(sql`insert into area_corrections (organization_id, document_id, area, action, reason, user_id, user_name, user_email)
      values ('org-a', ${story.boeDocumentId}::uuid, 'data-protection', 'remove', 'no', ${story.ana.userId}, 'Ana', ${story.ana.email})`);
  }, 300_000);
  afterAll(async () => {
    await database?.close();
  });

  it("counts relevant documents per effective area and week, within the organisation's reach", async () => {
    const a = (await load(story.bea)).data;
    const week = weekStart(story.dates.published);
    const column = a.perArea.weeks.indexOf(week);
    expect(column).toBeGreaterThanOrEqual(0);
    const count = (data: OverviewData, area: string) =>
      data.perArea.areas.find((r) => r.area === area)?.counts[column] ?? 0;
    // Banking: the BOE document and A's own feed entry; tax: the medium-relevance order.
    expect(count(a, "banking")).toBe(2);
    expect(count(a, "tax")).toBe(1);
    expect(count(a, "data-protection")).toBe(0);
    const b = (await load(story.olga)).data;
    // B reaches the public documents only, and keeps the stored areas (A's correction is A's).
    expect(count(b, "banking")).toBe(1);
    expect(count(b, "data-protection")).toBe(1);
  });

  it("counts triage status and overdue items per group, and the time to decision", async () => {
    const a = (await load(story.ana)).data;
    expect(a.triage.groups).toEqual([
      {
        group: story.team,
        counts: { new: 0, under_review: 0, applies: 1, does_not_apply: 0, in_progress: 0, done: 0 },
        overdue: 0,
        total: 1,
      },
    ]);
    // Published 20 days ago, decided ("applies") 15 days ago: 5 days, the first band.
    expect(a.decision).toEqual({ bands: [1, 0, 0, 0, 0, 0], count: 1, medianDays: 5 });
    await database.rows(
      sql`update triage_items set due_on = current_date - 1 where document_id = ${story.boeDocumentId}::uuid`,
    );
    expect((await load(story.ana)).data.triage.groups[0]?.overdue).toBe(1);
    await database.rows(
      sql`update triage_items set due_on = ${story.dates.triageDue}::date where document_id = ${story.boeDocumentId}::uuid`,
    );
    expect((await load(story.olga)).data.triage.groups).toEqual([]);
  });

  it("filters by area and group through the GET form, and explains bad filters in the user's language", async () => {
    const taxOnly = (await load(story.ana, "?area=tax")).data;
    expect(taxOnly.perArea.areas.map((r) => r.area)).toEqual(["tax"]);
    expect(taxOnly.triage.groups).toEqual([]);
    const legal = (await load(story.ana, `?group=${story.team}`)).data;
    expect(legal.perArea.areas.map((r) => r.area).sort()).toEqual(["banking"]);
    const bad = await load(story.ana, "?from=2026-05-01&to=2026-01-01&group=team-of-b");
    expect(bad.error).toContain("La fecha «desde» debe ser anterior o igual a «hasta».");
    expect(bad.error).toContain("Ese grupo no es de tu organización.");
    const badEn = await load({ ...story.ana, locale: "en" }, "?area=astrology");
    expect(badEn.error).toContain("That area does not exist.");
  });

  it("renders each chart as an SVG image with its text alternative and a data table", async () => {
    const { data } = await load(story.ana);
    const html = renderToStaticMarkup(
      createElement(
        Fragment,
        null,
        createElement(AreaWeekChart, { locale: "en", data: data.perArea }),
        createElement(TriageChart, { locale: "en", data: data.triage, groupNames: { [story.team]: "Legal" } }),
        createElement(DecisionChart, { locale: "en", data: data.decision }),
      ),
    );
    expect(html.match(/<svg[^>]*role="img"/g)).toHaveLength(3);
    expect(html.match(/<title>/g)).toHaveLength(3);
    expect(html.match(/<details/g)).toHaveLength(3);
    expect(html).toContain(
      "<title>Triage status and overdue items per group. Documents in triage: 1. Overdue: 0.</title>",
    );
    expect(html).toContain('<th scope="row">Legal</th>');
    expect(html).toContain('fill="url(#triage-pattern-applies)"');
    expect(html).not.toContain("<script");
  });

  it("a chart with no data says so and draws no empty axes or table (issue 40, seen at 390 and 1440 px)", async () => {
    // The story's data with nothing in it: no area's documents, no group's triage, no decision.
    const { data } = await load(story.ana);
    const html = renderToStaticMarkup(
      createElement(
        Fragment,
        null,
        createElement(AreaWeekChart, { locale: "es", data: { ...data.perArea, areas: [] } }),
        createElement(TriageChart, { locale: "es", data: { ...data.triage, groups: [] }, groupNames: {} }),
        createElement(DecisionChart, { locale: "es", data: { ...data.decision, count: 0, medianDays: null } }),
      ),
    );
    expect(html.match(/No hay datos para estos filtros\./g)).toHaveLength(3);
    expect(html).not.toContain("<svg");
    expect(html).not.toContain("<details");
  });
});
