/** The evidence pack's PDF, read back with a PDF parser (unpdf, pdf.js): what an auditor reads in it, in Spanish and English. */
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import type { EvidencePack } from "./pack.ts";
import { evidencePdf } from "./pdf.ts";

async function textOf(pdf: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

const hash = (n: number) => n.toString(16).padStart(64, "0");

function pack(valid = true): EvidencePack {
  return {
    organizationId: "org-a",
    generatedAt: "2026-11-23T10:00:00.000Z",
    generatedBy: { id: "u-ana", email: "ana@org-a.example" },
    scope: { document: "00000000-0000-4000-8000-000000000001", from: null, to: null },
    truncated: false,
    documents: [
      {
        id: "00000000-0000-4000-8000-000000000001",
        source: "boe",
        sourceId: "BOE-A-2026-1001",
        title: "Circular 3/2026 sobre solvencia y préstamos: año, señal, Öffnung, Łódź",
        publishedOn: "2026-11-20",
        officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2026-1001",
        alerts: [
          {
            channel: "email",
            recipient: { id: "u-bea", name: "Bea Legal", email: "bea@org-a.example" },
            via: "Legal: banca",
            status: "sent",
            queuedAt: "2026-11-20T08:00:00.000Z",
            sentAt: "2026-11-20T08:00:05.000Z",
            readAt: null,
          },
        ],
        reads: [],
        triage: {
          status: "applies",
          assigneeUserId: null,
          assigneeTeamId: "team-legal",
          dueOn: "2026-12-01",
          impact: "high",
          rationale: "Nos afecta",
          updatedAt: "2026-11-21T09:00:00.000Z",
        },
        decisions: [
          {
            at: "2026-11-21T09:00:00.000Z",
            actor: { id: "u-bea", name: "Bea Legal" },
            changes: {
              status: { from: "under_review", to: "applies" },
              assigneeTeamId: { from: null, to: "team-legal" },
            },
            note: "Revisado con el área de riesgos",
          },
        ],
        obligations: [
          {
            id: "00000000-0000-4000-8000-0000000000a1",
            title: "Notificar la exposición",
            description: "",
            anchor: "p1",
            excerpt: "Las entidades deberán notificar",
            ownerUserId: "u-bea",
            ownerTeamId: null,
            dueOn: "2026-12-15",
            status: "in_progress",
            reference: "POL-1",
            createdBy: "u-ana",
            createdAt: "2026-11-21T10:00:00.000Z",
            // A field the pack model gains later (obligation reviews): it appears without a change to the PDF.
            reviewHistory: [{ decision: "still_applies", reviewer: "u-ana", at: "2026-11-22T10:00:00.000Z" }],
          } as EvidencePack["documents"][number]["obligations"][number],
        ],
        notes: [],
      },
    ],
    lawObligations: [
      {
        obligation: {
          id: "00000000-0000-4000-8000-0000000000b1",
          title: "Justificar las subvenciones recibidas",
          description: "Cuenta justificativa anual",
          status: "open",
          ownerUserId: null,
          ownerTeamId: "team-legal",
          createdBy: "u-ana",
          createdAt: "2026-11-01T10:00:00.000Z",
        },
        anchor: {
          lawId: "BOE-A-2003-20977",
          lawTitle: "Ley 38/2003, de 17 de noviembre, General de Subvenciones",
          blockId: "a30",
          blockTitle: "Artículo 30",
          version: { normId: "BOE-A-2026-1001", publishedOn: "2026-11-20" },
        },
        reviews: [
          {
            id: "00000000-0000-4000-8000-0000000000c1",
            openedAt: "2026-11-20T09:00:00.000Z",
            from: { normId: "BOE-A-2003-20977", publishedOn: "2003-11-18", text: "Texto anterior del artículo." },
            to: { normId: "BOE-A-2026-1001", publishedOn: "2026-11-20", text: "Texto nuevo del artículo." },
            decision: "still_applies",
            note: "Sin cambios para nosotros",
            newText: null,
            decidedBy: { id: "u-ana", name: "Ana Admin" },
            decidedAt: "2026-11-22T10:00:00.000Z",
          },
        ],
      },
    ],
    audit: {
      events: [
        {
          id: "00000000-0000-4000-8000-0000000000e1",
          seq: 41,
          at: "2026-11-21T09:00:00.000Z",
          actor: { id: "u-bea", email: "bea@org-a.example" },
          action: "triage.updated",
          object: { type: "document", id: "00000000-0000-4000-8000-000000000001" },
          hash: hash(41),
          prevHash: hash(40),
        },
      ],
      verification: valid
        ? { valid: true, events: 42, firstBroken: null, reason: null }
        : {
            valid: false,
            events: 42,
            firstBroken: "00000000-0000-4000-8000-0000000000e1",
            reason: "hash mismatch",
          },
    },
  };
}

const names = { "team-legal": "Legal", "u-bea": "Bea Legal", "u-ana": "Ana Admin" };

describe("the evidence pack as a PDF", () => {
  it("holds the document, its decisions, its obligations (every field), the audit in words and «cadena válida», in Spanish", async () => {
    const pdf = await evidencePdf(pack(), { locale: "es", names });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = await textOf(pdf);
    // Accents and other Latin letters come back as written (the embedded font has them all).
    expect(text).toContain("Circular 3/2026 sobre solvencia y préstamos: año, señal, Öffnung, Łódź");
    expect(text).toContain("Decisiones de triaje");
    expect(text).toContain("Bea Legal");
    expect(text).toContain("Estado: En revisión → Aplica");
    expect(text).toContain("Grupo asignado: — → Legal");
    expect(text).toContain("Revisado con el área de riesgos");
    expect(text).toContain("Obligaciones");
    expect(text).toContain("Notificar la exposición");
    expect(text).toContain("Referencia: POL-1");
    expect(text).toContain("Responsable: Bea Legal");
    expect(text).toContain("Estado: En curso");
    expect(text).toContain("Review history");
    expect(text).toContain("Reviewer: Ana Admin");
    expect(text).not.toContain("still_applies");
    expect(text).toContain("Obligaciones ancladas a artículos de normas seguidas");
    expect(text).toContain("Justificar las subvenciones recibidas");
    expect(text).toContain("Ley 38/2003, de 17 de noviembre, General de Subvenciones · Artículo 30");
    expect(text).toContain("Revisiones");
    expect(text).toContain("Decisión: Sigue aplicando");
    expect(text).toContain("Decidida por: Ana Admin");
    expect(text).toContain("Texto nuevo del artículo.");
    expect(text).toContain("Triaje actualizado");
    expect(text).not.toContain("triage.updated");
    expect(text).toContain("Cadena válida");
    expect(text).toContain("Cadena de auditoría verificada: válida (42 eventos).");
  });

  it("says it in English, and says a broken chain", async () => {
    const text = await textOf(await evidencePdf(pack(), { locale: "en", names }));
    expect(text).toContain("Triage decisions");
    expect(text).toContain("Status: Under review → Applies");
    expect(text).toContain("Obligations");
    expect(text).toContain("Triage updated");
    expect(text).toContain("Decision: Still applies");
    expect(text).toContain("Chain valid");
    const broken = await textOf(await evidencePdf(pack(false), { locale: "en", names }));
    expect(broken).toContain("Chain NOT valid");
    expect(broken).not.toContain("Chain valid");
  });
});
