/**
 * A real OpenID Provider (panva's oidc-provider, OpenID Certified) on loopback for the SSO tests.
 * The person "at the keyboard" is `idp.user`: the interaction page signs them in (with the amr
 * and acr the test sets) and grants what the client asked, as a person would by clicking.
 * `browse` follows the redirects a browser would, keeping the IdP's cookies, until the answer
 * goes to the relying party's callback.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface IdpUser {
  sub: string;
  email: string;
  name: string;
  groups: string[];
  amr?: string[];
  acr?: string;
  /** The OIDC `locale` claim (with the profile scope), when the IdP knows the person's language. */
  locale?: string;
}

export async function startOidcIdp(clients: { clientId: string; clientSecret: string; redirectUri: string }[]) {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: { user: IdpUser } = {
    user: { sub: "nobody", email: "nobody@example.invalid", name: "Nobody", groups: [] },
  };
  const accounts = new Map<string, IdpUser>();
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [client.redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    })),
    // Like Entra ID and Okta, the ID token carries amr and acr whenever the sign-in had them.
    claims: {
      amr: null,
      acr: null,
      openid: ["sub", "amr", "acr"],
      email: ["email", "email_verified"],
      profile: ["name", "locale"],
      groups: ["groups"],
    },
    scopes: ["openid", "email", "profile", "groups"],
    conformIdTokenClaims: false,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-key-for-the-loopback-idp"] },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
          ...(account.locale ? { locale: account.locale } : {}),
        }),
      };
    },
  });
  const callback = provider.callback();
  handler = async (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      const person = state.user;
      accounts.set(person.sub, person);
      if (details.prompt.name === "login") {
        await provider.interactionFinished(req, res, {
          login: {
            accountId: person.sub,
            ...(person.amr ? { amr: person.amr } : {}),
            ...(person.acr ? { acr: person.acr } : {}),
          },
        });
        return;
      }
      const grant = new provider.Grant({
        accountId: details.session!.accountId,
        clientId: details.params.client_id as string,
      });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  };
  return {
    issuer,
    state,
    /** Sets who signs in at the IdP next (a fresh IdP session each time: `browse` keeps no cookies across calls). */
    set user(person: IdpUser) {
      state.user = person;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Follows a browser's redirects from `url` until one leaves for `stopAt` (returned), with a cookie jar per origin. */
export async function browse(url: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, Map<string, string>>();
  let next = new URL(url);
  for (let hop = 0; hop < 20; hop++) {
    if (next.href.startsWith(stopAt)) return next;
    const cookies = jar.get(next.origin) ?? new Map<string, string>();
    const response = await fetch(next, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const index = pair.indexOf("=");
      if (index > 0) cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    jar.set(next.origin, cookies);
    const location = response.headers.get("location");
    if (!location)
      throw new Error(`no redirect from ${next.pathname}: HTTP ${response.status} ${await response.text()}`);
    await response.body?.cancel();
    next = new URL(location, next);
  }
  throw new Error("too many redirects");
}
