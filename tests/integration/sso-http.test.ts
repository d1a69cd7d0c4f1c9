/**
 * Enterprise sign-in through the real HTTP server (issue 41), as browsers and identity providers
 * meet it: a domain proved by a TXT record that a real DNS server on loopback answers (dns2, the
 * server's resolver pointed at it by SSO_DNS_SERVERS); the sign-in page routing a work email to
 * its organisation's provider; the OIDC callback and the SAML ACS (a cross-site POST from the
 * IdP's origin, which the origin check lets through for that path only) with their cookies, the
 * redirect back into /app, the product's own second factor unless the IdP's MFA is trusted; and
 * "SSO required" ending the members' password sessions at once, the break-glass owner's and the
 * IdP sessions excepted.
 */

import dns2 from "dns2";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../../app/.server/audit/query.ts";
import { member, session, user } from "../../app/.server/db/schema/auth.ts";
import { ssoDomain, ssoProvider } from "../../app/.server/db/schema/sso.ts";
import { httpClient, inviteOverHttp, setupOwnerOverHttp } from "../support/http-session.ts";
import { startInProcessServer } from "../support/in-process-server.ts";
import { browse, startOidcIdp } from "../support/oidc-idp.ts";
import { samlIdp } from "../support/saml-idp.ts";
import { totpFromUri } from "../support/totp.ts";

type Client = ReturnType<typeof httpClient>;

/** A DNS server on loopback: TXT answers from `records`, SERVFAIL for names under `broken`. */
async function startDns() {
  const records = new Map<string, string[][]>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = String(question?.name ?? "").toLowerCase();
      asked.push(`${name} ${question?.type}`);
      if (name.endsWith("roto.example")) {
        response.header.rcode = 2; // SERVFAIL
      } else if (question?.type === dns2.Packet.TYPE.TXT) {
        for (const data of records.get(name) ?? []) {
          response.answers.push(dns2.Packet.createResourceFromQuestion(question, { ttl: 0, data }));
        }
        if (!records.has(name)) response.header.rcode = 3; // NXDOMAIN
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return { records, asked, port: addresses.udp!.port, close: () => server.close() };
}

const samlEntity = "https://idp.banco.example/realms/banco";

describe("SSO through the HTTP server", () => {
  let server: Awaited<ReturnType<typeof startInProcessServer>>;
  let dns: Awaited<ReturnType<typeof startDns>>;
  let idp: Awaited<ReturnType<typeof startOidcIdp>>;
  const keycloak = samlIdp(samlEntity);
  let owner: Awaited<ReturnType<typeof setupOwnerOverHttp>>;
  let ownerId = "";
  let organizationId = "";
  let oidcId = "";
  let samlId = "";
  const db = () => server.app.database.db;
  const callbackPrefix = () => `${server.url}/app/sso/oidc/callback`;

  beforeAll(async () => {
    dns = await startDns();
    server = await startInProcessServer({
      SSO_ALLOW_PRIVATE_IDP_URLS: "1",
      SSO_DNS_SERVERS: `127.0.0.1:${dns.port}`,
    });
    idp = await startOidcIdp([{ clientId: "vigia", clientSecret: "secret-0123456789", redirectUri: callbackPrefix() }]);
    owner = await setupOwnerOverHttp(server.url, server.dataDir, "ana@banco.example");
    const [row] = await db()
      .select({ userId: user.id, organizationId: member.organizationId })
      .from(user)
      .innerJoin(member, eq(member.userId, user.id))
      .where(eq(user.email, "ana@banco.example"));
    ownerId = row!.userId;
    organizationId = row!.organizationId;
  }, 120_000);

  afterAll(async () => {
    await idp?.close();
    await server?.stop();
    dns?.close();
  });

  const admin = (form: Record<string, string>) => owner.request("/app/admin/sso", { form });
  const domainRow = async (domain: string) =>
    (await db().select().from(ssoDomain).where(eq(ssoDomain.domain, domain)))[0];

  it("proves a domain by a TXT record a real DNS server answers; a missing, wrong or misplaced record, or a failing server, leaves it pending", async () => {
    const claimed = await admin({ intent: "claim-domain", domain: "banco.example" });
    expect(claimed.status).toBe(200);
    const challenge = (await claimed.text()).match(/vigia-domain=[0-9a-f]{32}/)?.[0] ?? "";
    expect(challenge).not.toBe("");
    const host = "_vigia-challenge.banco.example";
    const check = async (domain = "banco.example") => {
      const answer = await admin({ intent: "verify-domain", domain });
      expect(answer.status).toBe(200);
      return answer.text();
    };
    // Nothing published yet (NXDOMAIN).
    expect(await check()).toContain("Todavía no vemos el registro TXT");
    // Another value at the right name, then the right value at the domain itself.
    dns.records.set(host, [["vigia-domain=0000"]]);
    expect(await check()).toContain("Todavía no vemos el registro TXT");
    dns.records.delete(host);
    dns.records.set("banco.example", [[challenge]]);
    expect(await check()).toContain("Todavía no vemos el registro TXT");
    expect((await domainRow("banco.example"))?.verifiedAt).toBeNull();
    // A DNS server that fails (SERVFAIL) is "not yet", never a crash.
    await admin({ intent: "claim-domain", domain: "roto.example" });
    expect(await check("roto.example")).toContain("Todavía no vemos el registro TXT");
    // Published as DNS providers often do: one string split in two (joined again), beside an SPF record.
    dns.records.set(host, [["v=spf1 -all"], [challenge.slice(0, 20), challenge.slice(20)]]);
    expect(await check()).toContain("Cambios guardados");
    expect(await domainRow("banco.example")).toMatchObject({ verifiedBy: "dns" });
    expect(dns.asked).toContain(`${host} ${dns2.Packet.TYPE.TXT}`);
    const [event] = (await listAuditEvents(db(), organizationId, { action: "sso.domain_verified" })).items;
    expect(event).toMatchObject({ actor: { id: ownerId }, detail: { by: "dns" } });
  });

  it("OIDC: set up, tested and switched on over HTTP; the sign-in page routes a work email to it; the callback signs in and asks the product's second factor", async () => {
    const created = await admin({
      intent: "create-oidc",
      name: "Entra ID",
      issuer: idp.issuer,
      clientId: "vigia",
      clientSecret: "secret-0123456789",
      scopes: "openid email profile groups",
    });
    expect(created.status).toBe(200);
    const [row] = await db().select().from(ssoProvider).where(eq(ssoProvider.name, "Entra ID"));
    oidcId = row!.id;
    // The admin's test sign-in: to the IdP and back to the settings page.
    idp.state.user = { sub: "it-1", email: "it@banco.example", name: "IT", groups: [] };
    const test = await admin({ intent: "test", providerId: oidcId });
    const atIdp = await goesTo(test);
    expect(atIdp.startsWith(idp.issuer)).toBe(true);
    const tested = await owner.request(pathOf(await browse(atIdp, callbackPrefix())));
    expect(tested.headers.get("location")).toBe(`/app/admin/sso?tested=${oidcId}`);
    expect((await admin({ intent: "enable", providerId: oidcId })).status).toBe(200);

    // Someone at the sign-in page, with a work email.
    const luis = httpClient(server.url);
    expect((await luis.request("/app/sso")).status).toBe(200);
    const unknown = await luis.request("/app/sso", { form: { email: "luis@otro.example" } });
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain("No hay ningún proveedor de identidad configurado para ese correo");
    idp.state.user = { sub: "luis-1", email: "luis@banco.example", name: "Luis", groups: [] };
    const routed = await luis.request("/app/sso", { form: { email: "Luis@Banco.example" } });
    const bound = routed.headers.getSetCookie().find((line) => line.startsWith("vn.sso_request="));
    const authorize = await goesTo(routed);
    expect(authorize.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    // The request's cookie, bound to this browser (http here: SameSite=Lax, see decision 0136).
    expect(bound).toMatch(/HttpOnly/);
    expect(bound).toMatch(/SameSite=Lax/);

    const answer = await browse(authorize, callbackPrefix());
    // The answer in another browser (no request cookie) is refused, and the request is spent.
    const stranger = httpClient(server.url);
    const stolen = await stranger.request(pathOf(answer));
    expect(stolen.headers.get("location")).toBe("/app/sso?error=sso_refused");
    expect((await stranger.request("/app")).headers.get("location")).toMatch(/^\/app\/login/);

    const again = await luis.request("/app/sso", { form: { email: "luis@banco.example" } });
    const callback = await luis.request(pathOf(await browse(await goesTo(again), callbackPrefix())));
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/app/mfa");
    expect(callback.headers.getSetCookie().join("\n")).toMatch(/session_token=/);
    // Signed in, but /app waits for the product's own second factor (the IdP's MFA is not trusted).
    expect((await luis.request("/app")).headers.get("location")).toBe("/app/mfa");
    // An IdP account has no password: enrolment starts without one.
    const start = await luis.request("/app/mfa", { form: { intent: "start" } });
    expect([302, 303]).toContain(start.status);
    const mfaPage = await (await luis.request("/app/mfa")).text();
    const uri = mfaPage.match(/otpauth:\/\/totp\/[^<"\s]+/)?.[0]?.replaceAll("&amp;", "&") ?? "";
    expect(uri).toMatch(/^otpauth:/);
    const verified = await luis.request("/app/mfa", { form: { intent: "verify", code: totpFromUri(uri) } });
    expect([302, 303]).toContain(verified.status);
    expect((await luis.request("/app")).status).toBe(200);

    // Trusted MFA: an IdP sign-in with a second factor goes straight into /app.
    expect((await admin({ intent: "settings", providerId: oidcId, jit: "on", trustIdpMfa: "on" })).status).toBe(200);
    idp.state.user = { sub: "luis-1", email: "luis@banco.example", name: "Luis", groups: [], amr: ["pwd", "mfa"] };
    const trusted = httpClient(server.url);
    const begun = await trusted.request("/app/sso?next=%2Fapp%2Falerts", { form: { email: "luis@banco.example" } });
    const landed = await trusted.request(pathOf(await browse(await goesTo(begun), callbackPrefix())));
    expect(landed.headers.get("location")).toBe("/app/alerts");
    expect((await trusted.request("/app")).status).toBe(200);
    const signIns = (await listAuditEvents(db(), organizationId, { action: "sso.sign_in", limit: 10 })).items;
    expect(signIns[0]?.detail).toMatchObject({ idp: "Entra ID", subject: "luis-1", mfaTrusted: true });
    expect((await admin({ intent: "disable", providerId: oidcId })).status).toBe(200);
  });

  it("a first sign-in makes the member in their language: the IdP's locale claim, else the browser's, else the organisation's", async () => {
    expect((await admin({ intent: "enable", providerId: oidcId })).status).toBe(200);
    const firstSignIn = async (
      person: { sub: string; email: string; locale?: string },
      headers: Record<string, string>,
    ) => {
      idp.state.user = { ...person, name: person.sub, groups: [] };
      const browser = httpClient(server.url);
      // A fresh browser: its own cookies (a locale cookie given here) only on the first request.
      const begun = await browser.request("/app/sso", { form: { email: person.email }, headers });
      const { cookie: _cookie, ...later } = headers;
      const callback = await browser.request(pathOf(await browse(await goesTo(begun), callbackPrefix())), {
        headers: later,
      });
      expect(callback.headers.get("location")).toBe("/app/mfa");
      const [row] = await db().select({ locale: user.locale }).from(user).where(eq(user.email, person.email));
      // The first page the new member sees (the product's second factor) is in that language.
      const page = await (await browser.request("/app/mfa", { headers: later })).text();
      return { locale: row?.locale, page };
    };
    try {
      // An English browser (Accept-Language), the IdP naming no language: an English member.
      const english = await firstSignIn(
        { sub: "emma-1", email: "emma@banco.example" },
        { "accept-language": "en-GB,en;q=0.9,es;q=0.5" },
      );
      expect(english.locale).toBe("en");
      expect(english.page).toContain('lang="en"');
      // The locale cookie counts before Accept-Language.
      const cookie = await firstSignIn(
        { sub: "olga-1", email: "olga@banco.example" },
        { "accept-language": "es-ES", cookie: "locale=en" },
      );
      expect(cookie.locale).toBe("en");
      // The IdP's locale claim counts before the browser's language.
      const claimed = await firstSignIn(
        { sub: "john-1", email: "john@banco.example", locale: "en-US" },
        { "accept-language": "es-ES,es;q=0.9" },
      );
      expect(claimed.locale).toBe("en");
      // A Spanish browser: a Spanish member.
      const spanish = await firstSignIn({ sub: "pilar-1", email: "pilar@banco.example" }, { "accept-language": "es" });
      expect(spanish.locale).toBe("es");
      expect(spanish.page).toContain('lang="es"');
      // Nothing said (no Accept-Language, no cookie, no claim): the organisation's language, its owner's.
      await db().update(user).set({ locale: "en" }).where(eq(user.id, ownerId));
      const unsaid = await firstSignIn({ sub: "quim-1", email: "quim@banco.example" }, { "accept-language": "" });
      expect(unsaid.locale).toBe("en");
      await db().update(user).set({ locale: "es" }).where(eq(user.id, ownerId));
      const provisioned = (await listAuditEvents(db(), organizationId, { action: "sso.provisioned", limit: 10 })).items;
      expect(provisioned.find((event) => event.detail?.subject === "emma-1")?.detail).toMatchObject({ locale: "en" });
    } finally {
      await db().update(user).set({ locale: "es" }).where(eq(user.id, ownerId));
      expect((await admin({ intent: "disable", providerId: oidcId })).status).toBe(200);
    }
  });

  it("SAML: the ACS takes the IdP's cross-site POST (only that path), with the request cookie, into /app", async () => {
    const created = await admin({ intent: "create-saml", name: "Keycloak SAML", metadataXml: keycloak.metadata });
    expect(created.status).toBe(200);
    const [row] = await db().select().from(ssoProvider).where(eq(ssoProvider.name, "Keycloak SAML"));
    samlId = row!.id;
    const spMetadata = await (await fetch(`${server.url}/app/sso/saml/${samlId}`)).text();
    expect(spMetadata).toContain(`${server.url}/app/sso/saml/${samlId}/acs`);
    const person = { nameId: "luisa@banco.example", email: "luisa@banco.example", name: "Luisa", groups: [] };

    /** The IdP's page posting the answer to our ACS, from its own origin, as a browser sends it. */
    const postFromIdp = (client: Client, path: string, samlResponse: string) =>
      client.request(path, {
        method: "POST",
        headers: {
          origin: "https://idp.banco.example",
          "sec-fetch-site": "cross-site",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
        fresh: true,
      });

    const test = await admin({ intent: "test", providerId: samlId });
    const tested = await postFromIdp(
      owner,
      `/app/sso/saml/${samlId}/acs`,
      (await keycloak.answer(await goesTo(test), spMetadata, person)).samlResponse,
    );
    expect(tested.status).toBe(302);
    expect(tested.headers.get("location")).toBe(`/app/admin/sso?tested=${samlId}`);
    expect((await admin({ intent: "enable", providerId: samlId })).status).toBe(200);

    const luisa = httpClient(server.url);
    const routed = await luisa.request("/app/sso", { form: { email: "luisa@banco.example" } });
    const redirectUrl = await goesTo(routed);
    expect(redirectUrl.startsWith(`${keycloak.ssoUrl}?SAMLRequest=`)).toBe(true);
    const { samlResponse } = await keycloak.answer(redirectUrl, spMetadata, person);
    // The same cross-site POST to any other path is refused by the origin check.
    // (No body: the server answers 403 before reading one, and could reset a connection still sending it.)
    const elsewhere = await luisa.request("/app/sso", {
      method: "POST",
      headers: { origin: "https://idp.banco.example", "sec-fetch-site": "cross-site" },
    });
    expect(elsewhere.status).toBe(403);
    const acs = await postFromIdp(luisa, `/app/sso/saml/${samlId}/acs`, samlResponse);
    expect(acs.status).toBe(303);
    expect(acs.headers.get("location")).toBe("/app/mfa");
    expect(acs.headers.getSetCookie().join("\n")).toMatch(/session_token=/);
    expect((await luisa.request("/app")).headers.get("location")).toBe("/app/mfa");
    // Replayed by the same browser: refused (one-time use), audited.
    const replay = await postFromIdp(luisa, `/app/sso/saml/${samlId}/acs`, samlResponse);
    expect(replay.headers.get("location")).toBe("/app/sso?error=sso_refused");
    const [refused] = (await listAuditEvents(db(), organizationId, { action: "sso.sign_in_refused", limit: 1 })).items;
    expect(refused?.detail).toMatchObject({ idp: "Keycloak SAML" });
  });

  it("'SSO required' ends the members' password sessions at once (their next request fails); the break-glass owner's and IdP sessions stay; audited", async () => {
    const eva = await inviteOverHttp(owner, server.url, server.dataDir, "eva@banco.example", "Eva");
    expect((await eva.request("/app")).status).toBe(200);
    // Luisa signs in through SAML (her session came from the IdP).
    const luisa = httpClient(server.url);
    const routed = await luisa.request("/app/sso", { form: { email: "luisa@banco.example" } });
    const spMetadata = await (await fetch(`${server.url}/app/sso/saml/${samlId}`)).text();
    const { samlResponse } = await keycloak.answer(await goesTo(routed), spMetadata, {
      nameId: "luisa@banco.example",
      email: "luisa@banco.example",
      name: "Luisa",
      groups: [],
    });
    await luisa.request(`/app/sso/saml/${samlId}/acs`, {
      method: "POST",
      headers: { origin: "https://idp.banco.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
      fresh: true,
    });
    const [luisaRow] = await db().select().from(user).where(eq(user.email, "luisa@banco.example"));
    const luisaSessions = () => db().select().from(session).where(eq(session.userId, luisaRow!.id));
    expect((await luisaSessions()).map((s) => s.ssoProviderId)).toContain(samlId);

    const policy = await admin({ intent: "policy", ssoRequired: "on", breakGlassUserId: ownerId });
    expect(policy.status).toBe(200);
    // Eva's next request: signed out.
    expect((await eva.request("/app")).headers.get("location")).toMatch(/^\/app\/login/);
    const [evaRow] = await db().select().from(user).where(eq(user.email, "eva@banco.example"));
    expect(await db().select().from(session).where(eq(session.userId, evaRow!.id))).toEqual([]);
    // Nor can she sign in again with her password.
    const retry = await httpClient(server.url).request("/app/login", {
      form: { email: "eva@banco.example", password: "tortuga-verde-lunes-27" },
    });
    expect(await retry.text()).toContain("Tu organización exige entrar con su proveedor de identidad");
    // The break-glass owner and the IdP session carry on.
    expect((await owner.request("/app")).status).toBe(200);
    expect((await luisaSessions()).length).toBeGreaterThan(0);
    // Luis's session came from the IdP too, though he then enrolled the product's TOTP (a new session).
    const [luisRow] = await db().select().from(user).where(eq(user.email, "luis@banco.example"));
    const luisSessions = await db().select().from(session).where(eq(session.userId, luisRow!.id));
    expect(luisSessions.length).toBeGreaterThan(0);
    expect(luisSessions.every((row) => row.ssoProviderId === oidcId)).toBe(true);
    const [event] = (await listAuditEvents(db(), organizationId, { action: "sso.policy_changed" })).items;
    expect(event).toMatchObject({
      actor: { id: ownerId },
      detail: { ssoRequired: true, breakGlassUserId: ownerId, passwordSessionsEnded: 1, membersSignedOut: 1 },
    });
    const ownerSessions = await db()
      .select()
      .from(session)
      .where(and(eq(session.userId, ownerId)));
    expect(ownerSessions.length).toBeGreaterThan(0);
  });
});

/**
 * Where a page sends the browser on to the IdP: a 200 page with a meta refresh (and a link), not a
 * 302, because the CSP's form-action 'self' covers a form post's redirects (app/components/app/sso-redirect.tsx).
 */
async function goesTo(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  const html = await response.text();
  const refresh = html.match(/<meta http-equiv="refresh" content="0;url=([^"]+)"/)?.[1] ?? "";
  const link = html.match(/<a class="btn btn-primary" href="([^"]+)"/)?.[1] ?? "";
  expect(refresh).not.toBe("");
  expect(link).toBe(refresh);
  return refresh.replaceAll("&amp;", "&");
}

function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}
