/**
 * OIDC with openid-client (certified relying party): issuer discovery, authorization code with
 * PKCE, state and nonce, the ID token checked (issuer, audience, signature, expiry, nonce).
 * Every request to the IdP goes through the outbound guard; plain http only where the operator
 * allows private IdP addresses (SSO_ALLOW_PRIVATE_IDP_URLS=1, an IdP on the premises or a test).
 */
import * as client from "openid-client";
import { type OutboundFetch, outboundFetch } from "../net/outbound.ts";
import { groupsOf, type IdpIdentity, localeOfTag, oidcSaysMfa, SsoRefused } from "./identity.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export interface OidcBegun {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** openid-client's fetch hook on the guard (its form bodies made strings: the guard sends strings). */
function guardedClientFetch(guarded: OutboundFetch): client.CustomFetch {
  return (url, options) =>
    guarded(url, {
      method: options.method,
      headers: options.headers,
      body: options.body === undefined || options.body === null ? null : String(options.body),
      redirect: options.redirect,
      signal: options.signal,
    });
}

export function oidcClient(allowPrivate: boolean) {
  const fetcher = guardedClientFetch(outboundFetch({ allowPrivate }, { timeoutMs: 10_000, maxBytes: 1024 * 1024 }));
  const cache = new Map<string, { config: client.Configuration; at: number }>();

  async function configuration(settings: OidcSettings): Promise<client.Configuration> {
    const key = `${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`;
    const cached = cache.get(key);
    if (cached && Date.now() - cached.at < 10 * 60_000) return cached.config;
    const config = await client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret,
      client.ClientSecretPost(settings.clientSecret),
      {
        [client.customFetch]: fetcher,
        ...(allowPrivate ? { execute: [client.allowInsecureRequests] } : {}),
      },
    );
    config[client.customFetch] = fetcher;
    cache.set(key, { config, at: Date.now() });
    return config;
  }

  return {
    /** Checks the issuer (discovery answers): for the admin's form. */
    async discover(settings: OidcSettings): Promise<void> {
      await configuration(settings);
    },

    async begin(settings: OidcSettings, redirectUri: string): Promise<OidcBegun> {
      const config = await configuration(settings);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        state,
        nonce,
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    /** The callback: code exchanged, ID token checked, the person described. */
    async finish(
      settings: OidcSettings,
      callbackUrl: URL,
      expected: { state: string; nonce: string; codeVerifier: string },
    ): Promise<IdpIdentity> {
      const config = await configuration(settings);
      let claims: client.IDToken | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        throw new SsoRefused(`oidc: ${(error as Error).message}`.slice(0, 200));
      }
      if (!claims) throw new SsoRefused("oidc: no ID token");
      const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
      if (!email || claims.email_verified === false) throw new SsoRefused("oidc: no verified email");
      const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : email.split("@")[0]!;
      // The standard `locale` claim (OpenID Connect Core 5.1), with the `profile` scope.
      const locale = localeOfTag(claims.locale);
      return {
        ...(locale ? { locale } : {}),
        subject: claims.sub,
        email,
        name,
        groups: groupsOf(claims.groups),
        mfa: oidcSaysMfa(claims.amr, claims.acr),
        mfaEvidence: { amr: claims.amr ?? null, acr: claims.acr ?? null },
      };
    },
  };
}

export type OidcClient = ReturnType<typeof oidcClient>;
