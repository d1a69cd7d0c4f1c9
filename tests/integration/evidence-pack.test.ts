/**
 * The evidence pack (issue 26): through the page's loader, its JSON download and GET
 * /api/v1/evidence (answers validated against the served OpenAPI document): alert recipients per
 * channel, reads, triage decisions with their authors, obligations, notes by visibility, the audit
 * excerpt and its chain verification, in that order; exporting is audited; admins only; the
 * reach rule (another organisation's feed entry: 404) and nothing of organisation A in B's pack.
 */

import { RouterContextProvider } from "react-router";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiRateLimiter } from "../../app/.server/api/rate-limit.ts";
import type { ApiServices } from "../../app/.server/api/service.ts";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import type { AppServices } from "../../app/.server/context.ts";
import { requestContext, servicesContext } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import type { EvidencePack } from "../../app/.server/evidence/pack.ts";
import { createLogger } from "../../app/.server/logger.ts";
import * as evidenceApi from "../../app/routes/api/evidence.ts";
import * as evidencePage from "../../app/routes/app/evidence.tsx";
import * as evidenceExport from "../../app/routes/app/evidence-export.ts";
import { callApi, openApiChecker } from "../support/api-harness.ts";
import { issueToken } from "../support/api-tokens.ts";
import { type EvidenceStory, setUpEvidenceStory } from "../support/evidence-fixtures.ts";
import { pageContext, pageRequest, settle } from "../support/page-harness.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

type Member = EvidenceStory["ana"];

/** A loader's answer: its data, unwrapped from `data(…, { status })` when it set one. */
function payload(data: unknown): { pack?: unknown; error?: string | null } | undefined {
  if (data && typeof data === "object" && "init" in data && "data" in data)
    return (data as { data: { pack?: unknown; error?: string | null } }).data;
  return data as { pack?: unknown; error?: string | null } | undefined;
}

function packOf(data: unknown): EvidencePack {
  const pack = payload(data)?.pack;
  if (!pack) throw new Error("no pack");
  return pack as EvidencePack;
}

async function pdfText(response: Response): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
  const { text } = await extractText(document, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

describe("the evidence pack", () => {
  let database: Database;
  let story: EvidenceStory;
  let api: ApiServices;

  const view = async (who: Member, query: string) => {
    const args = pageRequest(`/app/evidence?${query}`, pageContext(database, who));
    return settle(() => evidencePage.loader(args as unknown as Parameters<typeof evidencePage.loader>[0]));
  };
  const statusOf = (thrown: unknown) =>
    (thrown as { init?: { status?: number }; status?: number })?.init?.status ?? (thrown as Response)?.status;
  /** The status a loader answered with, thrown or returned (200 for plain data). */
  const answered = (result: { data?: unknown; thrown?: unknown }) =>
    result.thrown !== undefined ? statusOf(result.thrown) : (statusOf(result.data) ?? 200);

  /** GET /api/v1/evidence through its route module, with the router context the server builds. */
  const callEvidence = async (query: string, token: string) => {
    const context = new RouterContextProvider();
    context.set(servicesContext, { api, log: createLogger("silent") } as unknown as AppServices);
    context.set(requestContext, {
      requestId: "t",
      nonce: "n",
      clientIp: "198.51.100.9",
      secure: false,
      log: createLogger("silent"),
    });
    const request = new Request(`http://127.0.0.1:3000/api/v1/evidence?${query}`, {
      headers: { authorization: `Bearer ${token}`, "accept-language": "en" },
    });
    return evidenceApi.loader({ request, context, params: {} } as never);
  };

  beforeAll(async () => {
    database = await openMigratedDatabase();
    story = await setUpEvidenceStory(database);
    api = {
      database,
      limiter: await createApiRateLimiter(600),
      siteUrl: "http://127.0.0.1:3000",
      outbound: { allowPrivateUrls: false, maxWebhooksPerOrganization: 25 },
      maxFollowsPerOrganization: 200,
      ingesting: true,
    };
  }, 300_000);
  afterAll(async () => {
    await database?.close();
  });

  it("lists recipients, reads, decisions, obligations and notes in order, and the chain verified valid", async () => {
    const { data, thrown } = await view(story.ana, `document=${story.boeDocumentId}`);
    expect(thrown).toBeUndefined();
    const pack = packOf(data);
    expect(pack.documents).toHaveLength(1);
    const doc = pack.documents[0];
    if (!doc) throw new Error("no document");
    expect(doc.alerts.map((a) => [a.channel, a.recipient?.email, a.via, a.status])).toEqual([
      ["email", "bea@org-a.example", "Legal: banca", "sent"],
      ["inapp", "bea@org-a.example", "Legal: banca", "sent"],
    ]);
    expect(doc.alerts.every((a) => a.sentAt !== null)).toBe(true);
    expect(doc.reads.map((r) => r.reader.name)).toEqual(["Bea Legal"]);
    expect(doc.decisions.map((d) => [d.actor.name, Object.keys(d.changes).sort().join(",")])).toEqual([
      ["Ana Admin", "status"],
      ["Ana Admin", "assigneeTeamId,dueOn,impact,rationale"],
      ["Bea Legal", "status"],
    ]);
    expect(doc.decisions[2]?.changes.status).toEqual({ from: "under_review", to: "applies" });
    expect(doc.triage).toMatchObject({ status: "applies", assigneeTeamId: story.team, dueOn: story.dates.triageDue });
    expect(doc.obligations.map((o) => [o.title, o.reference, o.dueOn])).toEqual([
      ["Obligación 1", "POL-1", story.dates.obligationDue[0]],
      ["Obligación 2", "POL-2", story.dates.obligationDue[1]],
    ]);
    // Ana (admin, in no group) sees the organisation's note only: not Bea's private or group notes.
    expect(doc.notes.map((n) => n.body)).toEqual(["Nota para toda la organización"]);
    expect(pack.audit.verification).toMatchObject({ valid: true, firstBroken: null });
    const actions = pack.audit.events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["document.read", "triage.updated", "obligation.created", "note.created"]),
    );
    // The excerpt is in chain order, each event linked to the one before in the chain.
    const seqs = pack.audit.events.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it("shows a group's notes to that group's members only", async () => {
    const legalAdmin = { ...story.ana, userId: story.bea.userId, email: story.bea.email, role: "admin" as const };
    const { data } = await view(legalAdmin, `document=${story.boeDocumentId}`);
    const notes = packOf(data).documents[0]?.notes.map((n) => n.body);
    expect(notes).toEqual(["Nota del grupo Legal", "Nota privada de Bea", "Nota para toda la organización"]);
  });

  it("audits every export with its actor and scope", async () => {
    const before = (await listAuditEvents(database.db, "org-a", { action: "evidence.exported", limit: 100 })).items
      .length;
    await view(story.ana, `from=${story.dates.published}&to=${new Date().toISOString().slice(0, 10)}`);
    const events = (await listAuditEvents(database.db, "org-a", { action: "evidence.exported", limit: 100 })).items;
    expect(events.length).toBe(before + 1);
    expect(events[0]?.actor?.id).toBe(story.ana.userId);
    expect(events[0]?.object?.type).toBe("evidence_period");
  });

  it("covers a period: the documents the organisation dealt with then, nothing else", async () => {
    const { data } = await view(story.ana, `from=${story.dates.published}&to=${new Date().toISOString().slice(0, 10)}`);
    const pack = packOf(data);
    expect(pack.documents.map((d) => d.id)).toEqual([story.boeDocumentId]);
    const empty = await view(story.ana, "from=2001-01-01&to=2001-02-01");
    expect(packOf(empty.data).documents).toEqual([]);
  });

  it("refuses members (403) and bad input with field errors in the user's language", async () => {
    expect(statusOf((await view(story.bea, `document=${story.boeDocumentId}`)).thrown)).toBe(403);
    const bad = await view(story.ana, "from=2026-05-01&to=2026-01-01");
    expect(answered(bad)).toBe(422);
    expect(payload(bad.data)?.error).toContain("La fecha «desde» debe ser anterior o igual a «hasta».");
    const badEn = await view({ ...story.ana, locale: "en" }, "document=nope");
    expect(answered(badEn)).toBe(422);
    expect(payload(badEn.data)?.error).toContain(
      "That id is not valid: write the BOE id (BOE-A-2024-1234), the CELEX number (32016R0679) or the platform's id.",
    );
    expect(payload(badEn.data)?.pack).toBeNull();
  });

  it("applies the reach rule: another organisation's feed entry is 404 on the page, the download and the API", async () => {
    const hidden = await view(story.olga, `document=${story.feedDocumentId}`);
    expect(answered(hidden)).toBe(404);
    expect(payload(hidden.data)?.error).toBe("We could not find that document among those your organisation can see.");
    const hiddenEs = await view({ ...story.olga, locale: "es" }, `document=${story.feedDocumentId}`);
    expect(payload(hiddenEs.data)?.error).toBe("No encontramos ese documento entre los que puede ver tu organización.");
    const download = await settle(() =>
      evidenceExport.loader(
        pageRequest(
          `/app/evidence/export?document=${story.feedDocumentId}`,
          pageContext(database, story.olga),
        ) as never,
      ),
    );
    expect(answered(download)).toBe(404);
    const tokenB = await issueToken(database, { organizationId: "org-b", scope: "admin", userId: story.olga.userId });
    expect((await callEvidence(`document=${story.feedDocumentId}`, tokenB.token)).status).toBe(404);
    // A public document reaches B, but none of A's evidence comes with it.
    const { data } = await view(story.olga, `document=${story.boeDocumentId}`);
    const doc = packOf(data).documents[0];
    expect([doc?.alerts, doc?.reads, doc?.decisions, doc?.obligations, doc?.notes]).toEqual([[], [], [], [], []]);
    expect(doc?.triage).toBeNull();
    expect(
      packOf(data).audit.events.every((e) => e.action === "evidence.exported" || e.action === "document.read"),
    ).toBe(true);
    // A's own admin reaches its feed entry.
    expect(answered(await view(story.ana, `document=${story.feedDocumentId}`))).toBe(200);
  });

  it("opens a document's pack by its BOE id or CELEX number, on the page and over the API; unknown ones are 404 in the user's language", async () => {
    for (const reference of ["BOE-A-2026-1001", " boe-a-2026-1001 "]) {
      const { data } = await view(story.ana, `document=${encodeURIComponent(reference)}`);
      const pack = packOf(data);
      expect(pack.documents.map((d) => d.id)).toEqual([story.boeDocumentId]);
      expect(pack.scope.document).toBe(story.boeDocumentId);
    }
    // The export is audited against the document itself, with what was asked for.
    const [exported] = (await listAuditEvents(database.db, "org-a", { action: "evidence.exported", limit: 1 })).items;
    expect(exported?.object).toEqual({ type: "document", id: story.boeDocumentId });
    expect(exported?.detail).toMatchObject({ requested: "BOE-A-2026-1001" });
    const celex = packOf((await view(story.ana, "document=32016R0679")).data);
    expect(celex.documents.map((d) => [d.id, d.sourceId])).toEqual([[story.eurlexDocumentId, "32016R0679"]]);

    const unknown = await view({ ...story.ana, locale: "en" }, "document=BOE-A-1999-1");
    expect(answered(unknown)).toBe(404);
    expect(payload(unknown.data)?.error).toBe("We could not find that document among those your organisation can see.");
    expect(payload(unknown.data)?.pack).toBeNull();

    const admin = await issueToken(database, { organizationId: "org-a", scope: "admin", userId: story.ana.userId });
    const byBoe = await callEvidence("document=BOE-A-2026-1001", admin.token);
    expect(byBoe.status).toBe(200);
    expect(((await byBoe.json()) as EvidencePack).documents[0]?.id).toBe(story.boeDocumentId);
    const missing = await callEvidence("document=32099R9999", admin.token);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      statusCode: 404,
      statusMessage: "We could not find that document among those your organisation can see.",
    });
    const invalid = await callEvidence("document=BOE-2026", admin.token);
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.document?.[0]).toContain(
      "write the BOE id (BOE-A-2024-1234)",
    );
  });

  it("exports the pack as a PDF, from the page and over the API, audited: its text holds the decisions, the obligations and the chain's verification", async () => {
    const response = (await evidenceExport.loader(
      pageRequest(
        "/app/evidence/export?document=BOE-A-2026-1001&format=pdf",
        pageContext(database, story.ana),
      ) as never,
    )) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(`evidence-${story.boeDocumentId}.pdf`);
    const text = await pdfText(response);
    expect(text).toContain("Decisiones de triaje");
    expect(text).toContain("Estado: En revisión → Aplica");
    expect(text).toContain("Obligación 1");
    expect(text).toContain("Referencia: POL-2");
    expect(text).toContain("Triaje actualizado");
    expect(text).toContain("Cadena válida");
    const [exported] = (await listAuditEvents(database.db, "org-a", { action: "evidence.exported", limit: 1 })).items;
    expect(exported?.actor?.id).toBe(story.ana.userId);
    expect(exported?.detail).toMatchObject({ via: "pdf", format: "pdf" });

    const admin = await issueToken(database, { organizationId: "org-a", scope: "admin", userId: story.ana.userId });
    const api = await callEvidence(`document=${story.boeDocumentId}&format=pdf`, admin.token);
    expect(api.status).toBe(200);
    expect(api.headers.get("content-type")).toBe("application/pdf");
    const english = await pdfText(api);
    expect(english).toContain("Triage decisions");
    expect(english).toContain("Obligación 2");
    expect(english).toContain("Reference: POL-2");
    expect(english).toContain("Chain valid");
    const [byApi] = (await listAuditEvents(database.db, "org-a", { action: "evidence.exported", limit: 1 })).items;
    expect(byApi?.detail).toMatchObject({ via: "api", format: "pdf", tokenId: admin.id });

    // Another organisation's feed entry is as unknown in PDF as in JSON.
    const hidden = await settle(() =>
      evidenceExport.loader(
        pageRequest(
          `/app/evidence/export?document=${story.feedDocumentId}&format=pdf`,
          pageContext(database, story.olga),
        ) as never,
      ),
    );
    expect(answered(hidden)).toBe(404);
  });

  it("answers the API as the OpenAPI document declares: 200, 403 for a read token, 422, 401", async () => {
    const openapi = (await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>;
    const checker = openApiChecker(openapi);
    const admin = await issueToken(database, { organizationId: "org-a", scope: "admin", userId: story.ana.userId });
    const ok = await callEvidence(`document=${story.boeDocumentId}`, admin.token);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as EvidencePack;
    expect(checker.check("/api/v1/evidence", "get", 200, body)).toEqual([]);
    expect(body.documents[0]?.alerts.length).toBe(2);
    expect(body.audit.verification.valid).toBe(true);
    const events = (await listAuditEvents(database.db, "org-a", { action: "evidence.exported", limit: 1 })).items;
    expect(events[0]?.detail).toMatchObject({ via: "api", tokenId: admin.id });

    const read = await issueToken(database, { organizationId: "org-a", scope: "read", userId: story.ana.userId });
    const forbidden = await callEvidence(`document=${story.boeDocumentId}`, read.token);
    expect(forbidden.status).toBe(403);
    expect(checker.check("/api/v1/evidence", "get", 403, await forbidden.json())).toEqual([]);
    const invalid = await callEvidence("from=2026-01-01", admin.token);
    expect(invalid.status).toBe(422);
    const invalidBody = (await invalid.json()) as { fieldErrors: Record<string, string[]> };
    expect(checker.check("/api/v1/evidence", "get", 422, invalidBody)).toEqual([]);
    expect(invalidBody.fieldErrors.document).toEqual(["Give a document or a period (from and to)."]);
    const anonymous = await callEvidence(`document=${story.boeDocumentId}`, "vn_nope");
    expect(anonymous.status).toBe(401);
  });

  it("downloads the same pack as JSON from the page", async () => {
    const response = (await evidenceExport.loader(
      pageRequest(`/app/evidence/export?document=${story.boeDocumentId}`, pageContext(database, story.ana)) as never,
    )) as Response;
    expect(response.headers.get("content-disposition")).toContain(`evidence-${story.boeDocumentId}.json`);
    const pack = (await response.json()) as EvidencePack;
    expect(pack.documents[0]?.obligations).toHaveLength(2);
    expect(pack.audit.verification.valid).toBe(true);
  });
});
