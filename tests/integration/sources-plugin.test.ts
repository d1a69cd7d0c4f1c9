/**
 * "Add a source" (docs/sources.md): a small plug-in registered here, with one call, appears
 * everywhere the platform derives from the registry: config (INGEST_SOURCES accepts it, its
 * own variable is validated and read), jobs (its queue worked, its schedule in place, its
 * first run done, "run now"), the Sources page, GET /api/v1/sources, the OpenAPI document's
 * enums of source ids, and classify (its hints). Nothing else is edited for it.
 *
 * The modules that read the registry when they load (the API operations) are imported after
 * the registration, as a source's line in registry.ts is read before anything else.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../app/.server/config.ts";
import type { AppServices } from "../../app/.server/context.ts";
import type { Database } from "../../app/.server/db/client.ts";
import type { SourceDocument } from "../../app/.server/documents/types.ts";
import { recordStatus } from "../../app/.server/sources/ingest.ts";
import { defineSource } from "../../app/.server/sources/plugin.ts";
import { registerSource } from "../../app/.server/sources/registry.ts";
import { httpUrlSetting } from "../../app/.server/sources/settings.ts";
import { openMigratedDatabase } from "../support/platform-db.ts";

const ID = "test-gazette";
const QUEUE = `ingest-${ID}`;
const worked: Array<Record<string, unknown>> = [];

const testGazette = defineSource({
  id: ID,
  labels: { es: "Gaceta de pruebas", en: "Test gazette" },
  selectable: true,
  defaultOn: false,
  parsers: ["test-gazette@1"],
  config: {
    env: { TEST_GAZETTE_URL: httpUrlSetting().default("https://gazette.example") },
    read: (values) => ({ testGazetteUrl: values.TEST_GAZETTE_URL }),
  },
  plan: (context) => ({
    queues: [
      {
        name: QUEUE,
        async work(data) {
          worked.push(data);
          await recordStatus(context.database, ID, { ok: true, added: 2 });
        },
      },
    ],
    schedules: [{ queue: QUEUE, cron: "15 8 * * 1-5", key: "morning" }],
    async start() {
      await context.send(QUEUE, { first: true });
    },
    runNow: () => context.send(QUEUE, { now: true }, { singletonKey: `${ID}:now`, singletonSeconds: 30 }),
  }),
  classification: {
    jurisdiction: () => ({ id: "ES-CT", reason: { es: "Gaceta de pruebas", en: "Test gazette" } }),
  },
});

const unregister = registerSource(testGazette);
// Loaded after the registration (they read the registry when they load).
const { createJobs } = await import("../../app/.server/sources/jobs.ts");
const { apiServicesFor, callApi, openApiChecker } = await import("../support/api-harness.ts");
const { issueToken } = await import("../support/api-tokens.ts");
const sourcesPage = await import("../../app/routes/app/admin-sources.tsx");
const { memberInfo, pageContext, pageRequest } = await import("../support/page-harness.ts");
const { classify } = await import("../../app/.server/classify/classify.ts");

const silent = { info() {}, warn() {}, error() {} };

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every `enum` array in the document that lists "boe" (the source-id enums). */
function sourceEnums(node: unknown, found: string[][] = []): string[][] {
  if (Array.isArray(node)) for (const item of node) sourceEnums(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      // Source-id enums name both built-in document sources (a law's origin, "boe" or "eu", is not one).
      if (key === "enum" && Array.isArray(value) && value.includes("boe") && value.includes("eurlex"))
        found.push(value as string[]);
      else sourceEnums(value, found);
    }
  }
  return found;
}

describe("a source registered with one line", () => {
  let database: Database;
  let dataDir: string;

  beforeAll(async () => {
    database = await openMigratedDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), "sources-plugin-"));
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
    unregister();
  });

  const env = (more: Record<string, string>) => ({
    DATA_DIR: dataDir,
    FORM_SECRET: "f".repeat(32),
    AUTH_SECRET: "a".repeat(32),
    ...more,
  });

  it("is accepted by INGEST_SOURCES, with its own variable validated and read", () => {
    const config = loadConfig(env({ INGEST_SOURCES: `boe,${ID}`, TEST_GAZETTE_URL: "https://gaceta.example/api/" }));
    expect(config.sources.ingest).toEqual(["boe", ID]);
    expect((config.sources as unknown as Record<string, unknown>).testGazetteUrl).toBe("https://gaceta.example/api");
    // Not on by default (defaultOn: false): the default list is still BOE and EUR-Lex.
    expect(loadConfig(env({})).sources.ingest).toEqual(["boe", "eurlex"]);
    expect(() => loadConfig(env({ INGEST_SOURCES: "boe,nope" }))).toThrow(
      new ConfigError(
        `Invalid configuration: INGEST_SOURCES must be "none" or a comma-separated list of boe, eurlex, ${ID}`,
      ),
    );
    expect(() => loadConfig(env({ TEST_GAZETTE_URL: "ftp://gaceta.example" }))).toThrow(
      /^Invalid configuration: TEST_GAZETTE_URL must be an http:\/\/ or https:\/\/ URL$/,
    );
  });

  it("gets its queue worked, its schedule in Madrid time, its first run and a run now", async () => {
    const jobs = createJobs({
      database,
      config: { siteUrl: "http://localhost", sources: { ingest: [ID], since: undefined, intervalSeconds: 300 } },
      log: silent,
    });
    await jobs.start();
    try {
      const schedules = await database.rows<{ name: string; key: string; cron: string; timezone: string }>(
        sql`select name, key, cron, timezone from pgboss.schedule where name = ${QUEUE}`,
      );
      expect(schedules).toEqual([{ name: QUEUE, key: "morning", cron: "15 8 * * 1-5", timezone: "Europe/Madrid" }]);
      // BOE and EUR-Lex are not named by INGEST_SOURCES: no schedule of theirs.
      const others = await database.rows<{ name: string }>(
        sql`select name from pgboss.schedule where name in ('ingest-boe', 'ingest-eurlex')`,
      );
      expect(others).toEqual([]);
      await until("the first run", async () => worked.some((data) => data.first === true));
      expect(await jobs.runSourceNow(ID)).toEqual(expect.any(String));
      await until("the run now", async () => worked.some((data) => data.now === true));
    } finally {
      await jobs.stop();
    }
  }, 120_000);

  it("has its line on the Sources page, with its labels, and can be run from it", async () => {
    await recordStatus(database, ID, { ok: true, added: 2 });
    const admin = memberInfo({ role: "admin", locale: "en" });
    const queued: string[] = [];
    const services = {
      ingestJobs: {
        runSourceNow: async (id: string) => {
          queued.push(id);
          return "job-1";
        },
      },
      config: { sources: { ingest: ["boe", ID] } },
    } as unknown as Partial<AppServices>;
    const data = await sourcesPage.loader(
      pageRequest("/app/admin/sources", pageContext(database, admin)) as unknown as Parameters<
        typeof sourcesPage.loader
      >[0],
    );
    expect(data.sources.map((s) => s.id)).toEqual(["boe", "eurlex", ID]);
    expect(data.sources[2]).toMatchObject({
      id: ID,
      type: ID,
      labels: { es: "Gaceta de pruebas", en: "Test gazette" },
      documentsToday: expect.any(Number),
      lastError: null,
    });
    const ran = (await sourcesPage.action(
      pageRequest(
        "/app/admin/sources",
        pageContext(database, admin, services),
        {},
        {
          intent: "run",
          id: ID,
        },
      ) as unknown as Parameters<typeof sourcesPage.action>[0],
    )) as unknown as { data: { notice: string; name: string }; init: { status: number } };
    expect(ran.init.status).toBe(202);
    expect(ran.data).toEqual({ notice: "queued", name: "Test gazette" });
    expect(queued).toEqual([ID]);
  });

  it("is listed by GET /api/v1/sources and named in the OpenAPI document's source enums", async () => {
    const api = await apiServicesFor(database);
    const token = (await issueToken(database, { organizationId: "org-a", name: "admin", scope: "admin" })).token;
    const document = (await (await callApi(api, "/api/v1/openapi.json")).json()) as Record<string, unknown>;
    const enums = sourceEnums(document);
    // The documents' source (answer and filter) and the sources' ids.
    expect(enums.length).toBeGreaterThanOrEqual(3);
    for (const values of enums) expect(values).toContain(ID);
    const response = await callApi(api, "/api/v1/sources", { token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Array<{ id: string; documentsToday: number }>;
    expect(openApiChecker(document).check("/api/v1/sources", "get", 200, body)).toEqual([]);
    expect(body.map((s) => s.id)).toEqual(["boe", "eurlex", ID]);
  });

  it("gives classify its hints for its documents", () => {
    const doc: SourceDocument = {
      source: ID as SourceDocument["source"],
      sourceId: "TG-2026-1",
      language: "es",
      title: "Resolución de pruebas",
      titles: { es: "Resolución de pruebas" },
      publishedOn: "2026-11-25",
      effectiveDates: [],
      officialUrl: "https://gazette.example/TG-2026-1",
      links: {},
      subjects: [],
      alerts: [],
      eurovoc: [],
      directoryCodes: [],
      notes: [],
      relations: [],
      paragraphs: [{ kind: "paragraph", text: "Texto de pruebas." }],
      provenance: [],
    };
    expect(classify(doc).jurisdiction).toBe("ES-CT");
  });
});
