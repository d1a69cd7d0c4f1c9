/**
 * `npm run screenshots:app`: every platform page in Spanish and English, at 390 and 1440 px,
 * light and dark, as the owner, as a member and signed out, into screenshots/app/{locale}/
 * (`{page}-{width}-{scheme}.png` for the owner, `member-…` and `out-…` for the others). The
 * recorded BOE day 2018-12-06 and the EUR-Lex feed are ingested first (replay server, in
 * process), then the production server starts on that data; the owner is set up over HTTP with
 * TOTP, and a topic, a profile, a note, an obligation under review and a member are added so that
 * the pages are not empty. Builds if needed.
 *
 * Options: `--only law,law-compare` (those pages), `--role owner|member|out`, `--width 390`,
 * `--scheme dark`, `--locale en`, `--mix` (one colour mode per language and role).
 */
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setAuditSecret } from "../app/.server/audit/ip-hash.ts";
import { openDatabase } from "../app/.server/db/client.ts";
import { defaultMigrationsDir, migrate } from "../app/.server/db/migrate.ts";
import { storeDocument } from "../app/.server/documents/store.ts";
import { registerLaw } from "../app/.server/law-texts/store.ts";
import { syncCatalogue } from "../app/.server/sources/catalogue/sync.ts";
import { pollConsolidated } from "../app/.server/sources/consolidated/poll.ts";
import { createSourceHttp } from "../app/.server/sources/http.ts";
import { startReplayServer } from "../app/.server/sources/replay.ts";
import { openAnchoredReviews } from "../app/.server/triage/law-anchors.ts";
import { launchBrowser, visitorUserAgent } from "../tests/support/browser.ts";
import { ingestRecorded } from "../tests/support/documents-fixtures.ts";
import { inviteOverHttp, setupOwnerOverHttp } from "../tests/support/http-session.ts";
import { startServer } from "../tests/support/server.ts";

if (!existsSync("build/server/index.js") || !existsSync("build/client")) {
  execSync("npm run build", { stdio: "inherit" });
}

const dataDir = mkdtempSync(path.join(tmpdir(), "app-screens-"));
const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
await migrate(database, defaultMigrationsDir);
const ids = await ingestRecorded(database, ["2018-12-06"]);
// A followed law with its versions (Ley 39/2015), read through the replay.
await registerLaw(database, "BOE-A-2015-10565", "boe");
const lawReplay = await startReplayServer();
await pollConsolidated(
  {
    database,
    http: createSourceHttp({ userAgent: "screenshots", source: "boe", perSecond: 10_000, retries: 0 }),
    baseUrl: lawReplay.url,
    log: { info() {}, warn() {} },
  },
  { only: ["BOE-A-2015-10565"] },
);
// The catalogue of laws to follow, from the replay's lists (as the daily job reads them).
await syncCatalogue({
  database,
  boeHttp: createSourceHttp({ userAgent: "screenshots", source: "boe", perSecond: 10_000, retries: 0 }),
  cellarHttp: createSourceHttp({ userAgent: "screenshots", source: "cellar", perSecond: 10_000, retries: 0 }),
  boeApiUrl: lawReplay.url,
  cellarSparqlUrl: lawReplay.sparqlUrl,
  log: { info() {}, warn() {} },
});
await lawReplay.close();
// An act that amends Ley 39/2015 (Ley 11/2022, whose wording of article 9 the consolidated text
// holds), its analysis' lines as the BOE writes them (no recorded gazette act amends a recorded law).
const amendingAct = await storeDocument(database, {
  source: "boe",
  sourceId: "BOE-A-2022-10757",
  title: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones.",
  language: "es",
  titles: { es: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones." },
  publishedOn: "2022-06-29",
  effectiveDates: ["2022-06-30"],
  officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2022-10757",
  links: {},
  subjects: [],
  alerts: [],
  eurovoc: [],
  directoryCodes: [],
  notes: [],
  relations: [
    {
      type: "repeals",
      code: "210",
      direction: "earlier",
      targetSourceId: "BOE-A-2014-4950",
      label: "DEROGA la Ley 9/2014, de 9 de mayo",
    },
    {
      type: "modifies",
      code: "270",
      direction: "earlier",
      targetSourceId: "BOE-A-2015-10565",
      label: "MODIFICA el art. 9.2.c) de la Ley 39/2015, de 1 de octubre",
    },
    {
      type: "modifies",
      code: "270",
      direction: "earlier",
      targetSourceId: "BOE-A-2002-13758",
      label: "MODIFICA los arts. 9, 10 y 38 de la Ley 34/2002, de 11 de julio",
    },
    { type: "cites", code: "330", direction: "earlier", targetSourceId: "BOE-A-2014-6726", label: "CITA Ley 9/2014" },
  ],
  paragraphs: [{ kind: "paragraph", text: "Ley 11/2022, de 28 de junio, General de Telecomunicaciones." }],
  provenance: [],
});
await database.close();
const documentId = ids.get("BOE-A-2018-16673") ?? "";

let server = await startServer({ dataDir, env: { LOG_LEVEL: "warn" } });
const owner = await setupOwnerOverHttp(server.url, dataDir);
const ok = async (response: Response, what: string) => {
  if (response.status >= 400) {
    const text = await response.text();
    throw new Error(
      `${what} answered ${response.status}: ${text.match(/invalid-feedback[^>]*>([^<]*)/g)?.join(" ") ?? ""}`,
    );
  }
};
// Ley 39/2015 followed by the organisation: its pages are the followers' (decision 0124).
await ok(await owner.request("/app/laws", { form: { intent: "follow", law: "BOE-A-2015-10565" } }), "follow");
await ok(
  await owner.request("/app/admin/topics", {
    form: {
      intent: "create",
      name: "Protección de datos interna",
      keywords: "datos personales\nRGPD",
      area: "data-protection",
    },
  }),
  "topic",
);
await ok(
  await owner.request("/app/profiles/new", {
    form: {
      intent: "save",
      name: "Protección de datos",
      owner: "me",
      areas: "data-protection",
      minRelevance: "",
      keywords: "",
      query: "",
      email: "digest",
      digestHour: "8",
      language: "es",
    },
  }),
  "profile",
);
await ok(
  await owner.request(`/app/documents/${documentId}`, {
    form: {
      intent: "note.create",
      body: "Revisar el **artículo 37** con el DPD.",
      visibility: "organization",
      paragraph: "",
    },
  }),
  "note",
);
// A correction of areas (the corrections page lists it).
await ok(
  await owner.request(`/app/documents/${documentId}`, {
    form: {
      intent: "area.correct",
      area: "digital",
      action: "remove",
      reason: "Trata de protección de datos, no de ciberseguridad.",
    },
  }),
  "correction",
);
// Enterprise identity (issue 41): a SAML provider, a claimed domain, a group mapping to show.
await ok(
  await owner.request("/app/admin/sso", {
    form: {
      intent: "create-saml",
      name: "Keycloak",
      entryPoint: "https://sso.banco.example/realms/banco/protocol/saml",
      idpEntityId: "https://sso.banco.example/realms/banco",
      // A real certificate (the test IdP's): the page checks it is X.509 and not expired.
      certificate: readFileSync("tests/support/saml/idp-cert.pem", "utf8"),
    },
  }),
  "SSO provider",
);
await ok(
  await owner.request("/app/admin/sso", { form: { intent: "claim-domain", domain: "banco.example" } }),
  "domain",
);
const profileId = (await (await owner.request("/app/profiles")).text()).match(/\/app\/profiles\/([0-9a-f-]{36})/)?.[1];
if (!profileId) throw new Error("no profile on /app/profiles");
// An obligation anchored to article 9 as first worded: the newer wording sends it to review.
const recorded = await owner.request(`/app/laws/BOE-A-2015-10565/obligations/new`, {
  form: {
    block: "a9",
    version: "BOE-A-2015-10565",
    title: "Identificar a los interesados por medios electrónicos",
    description: "Sistemas de identificación admitidos en la sede.",
    owner: "",
    dueOn: "",
    reference: "PROC-09",
  },
});
await ok(recorded, "obligation");
const obligationId = new URL(recorded.headers.get("location") ?? "/", server.url).searchParams.get("recorded") ?? "";
// A member of the organisation (invited by mail, accepted, TOTP).
const member = await inviteOverHttp(owner, server.url, dataDir, "eva@example.com", "Eva Gil");
// The review opens when the law's text is written again (the poll): here directly, server stopped.
const port = server.port;
await server.stop();
{
  const reopened = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
  // Its audit event is chained under the server's secret, so that the chain verifies.
  setAuditSecret(readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim());
  await reopened.db.transaction((tx) => openAnchoredReviews(tx, "BOE-A-2015-10565", ["a9"]));
  await reopened.close();
}
server = await startServer({ dataDir, port, env: { LOG_LEVEL: "warn" } });

const pages: [string, string][] = [
  ["home", "/app"],
  ["admin-menu", "/app"],
  ["search", "/app/search?q=proteccion+de+datos"],
  ["document", `/app/documents/${documentId}`],
  ["alerts", "/app/alerts"],
  ["profiles", "/app/profiles"],
  ["profile-new", "/app/profiles/new"],
  ["account", "/app/account"],
  ["members", "/app/admin/members"],
  ["groups", "/app/admin/groups"],
  ["tokens", "/app/admin/tokens"],
  ["sso", "/app/admin/sso"],
  ["sso-sign-in", "/app/sso"],
  ["topics", "/app/admin/topics"],
  ["sources", "/app/admin/sources"],
  ["deliveries", "/app/admin/deliveries"],
  ["audit", "/app/admin/audit?verify=1"],
  ["laws", "/app/laws"],
  ["law-catalogue", "/app/laws/catalogue?q=proteccion+de+datos"],
  ["document-changes", `/app/documents/${amendingAct.id}`],
  ["law", "/app/laws/BOE-A-2015-10565?block=a9#b-a9"],
  ["law-part", "/app/laws/BOE-A-2015-10565?part=2"],
  ["law-compare", "/app/laws/BOE-A-2015-10565/compare?block=a9&from=BOE-A-2015-10565&to=BOE-A-2019-15790"],
  [
    "law-compare-side",
    "/app/laws/BOE-A-2015-10565/compare?block=a9&from=BOE-A-2015-10565&to=BOE-A-2019-15790&view=side",
  ],
  ["triage", "/app/triage"],
  ["obligations", "/app/obligations"],
  ["overview", "/app/overview"],
  ["evidence", `/app/evidence?document=${documentId}`],
  ["calendar-account", "/app/account/calendar"],
  ["calendar-admin", "/app/admin/calendar"],
  ["webhooks", "/app/admin/webhooks"],
  ["searches", "/app/searches"],
  ["obligation-new", "/app/laws/BOE-A-2015-10565/obligations/new?block=a9&version=BOE-A-2019-15790"],
  ["obligation-review", `/app/obligations/${obligationId}/review`],
  ["obligations-review", "/app/obligations?review=1"],
  ["profile-edit", `/app/profiles/${profileId}`],
  ["profile-feed", `/app/profiles/${profileId}/feed`],
  ["corrections", "/app/admin/corrections"],
  ["not-found", "/app/no-such-page"],
];
/** A member sees every page but the administration's, the evidence pack and the owner's own profile. */
const memberPages = pages.filter(
  ([name, pathname]) =>
    !["admin-menu", "profile-edit", "profile-feed", "evidence"].includes(name) && !pathname.startsWith("/app/admin"),
);
/** Signed out: sign-in, reset, an invitation and a reset link that do not exist, SSO sign-in. */
const outPages: [string, string][] = [
  ["login", "/app/login"],
  ["reset", "/app/reset"],
  ["reset-token", "/app/reset/not-a-token"],
  ["invite", "/app/invite/not-a-token"],
  ["sso", "/app/sso"],
];
/** Pages that answer 404 by design. */
const notFound = new Set(["not-found", "invite"]);
const option = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? "").split(",") : undefined;
};
const only = option("only");
const keep = (list: [string, string][]) => (only ? list.filter(([name]) => only.includes(name)) : list);
const origin = new URL(server.url);
const cookiesOf = (client: { cookie: string } | null, locale: string) =>
  client
    ? client.cookie
        .split(/;\s*/)
        .filter(Boolean)
        .map((pair) => {
          const index = pair.indexOf("=");
          return { name: pair.slice(0, index), value: pair.slice(index + 1), domain: origin.hostname, path: "/" };
        })
    : [{ name: "locale", value: locale, domain: origin.hostname, path: "/" }];
const roles = [
  { role: "owner", client: owner, prefix: "", list: keep(pages) },
  { role: "member", client: member, prefix: "member-", list: keep(memberPages) },
  { role: "out", client: null, prefix: "out-", list: keep(outPages) },
].filter(({ role }) => option("role")?.includes(role) ?? true);
const widths = (option("width") ?? ["390", "1440"]).map(Number);
const schemes = (option("scheme") ?? ["light", "dark"]) as ("light" | "dark")[];
/**
 * `--mix`: one colour mode per language and role, both modes seen for every page (the owner and
 * the signed-out pages light in Spanish and dark in English, the member the other way round).
 */
const mix = process.argv.includes("--mix");
const schemesFor = (locale: "es" | "en", role: string): ("light" | "dark")[] =>
  mix ? [(locale === "es") === (role !== "member") ? "light" : "dark"] : schemes;
const browser = await launchBrowser();
try {
  for (const locale of (option("locale") ?? ["es", "en"]) as ("es" | "en")[]) {
    const dir = path.join("screenshots", "app", locale);
    mkdirSync(dir, { recursive: true });
    for (const { role, client, prefix, list } of roles) {
      // The user's language is a preference of the account: the switch stores it.
      if (client) await ok(await client.request("/app/locale", { form: { locale } }), "locale");
      const cookies = cookiesOf(client, locale);
      for (const [name, pathname] of list) {
        for (const width of widths) {
          for (const colorScheme of schemesFor(locale, role)) {
            const context = await browser.newContext({
              viewport: { width, height: 900 },
              userAgent: visitorUserAgent(browser),
              colorScheme,
              reducedMotion: "reduce",
              locale: locale === "en" ? "en-GB" : "es-ES",
            });
            await context.addCookies(cookies);
            const page = await context.newPage();
            const response = await page.goto(`${server.url}${pathname}`, { waitUntil: "networkidle" });
            const status = response?.status() ?? 0;
            if (notFound.has(name) ? status !== 404 : !response?.ok())
              throw new Error(`${pathname} answered ${status}`);
            const file = path.join(dir, `${prefix}${name}-${width}-${colorScheme}.png`);
            // The Administration disclosure, opened from the keyboard as a person would.
            if (name === "admin-menu") {
              // Below 992 px the entries are behind the header's Menu button.
              const toggle = page.locator("header .navbar-toggler");
              if (await toggle.isVisible()) await toggle.click();
              await page.locator(".app-admin-menu summary").focus();
              await page.keyboard.press("Enter");
            }
            // A whole law is metres long: its pages are shot at the viewport (at article 9, at the top of a part).
            await page.screenshot({
              path: file,
              fullPage: name !== "admin-menu" && name !== "law" && name !== "law-part",
            });
            console.log(file);
            await context.close();
          }
        }
      }
    }
  }
} catch (error) {
  // The server's own account of a failed page.
  console.error(server.output.slice(-20).join("\n"));
  throw error;
} finally {
  await browser.close();
  await server.stop();
}
