/**
 * Issue 22, finding 10: wrong passwords from one address refuse that address (429 with
 * Retry-After), not the account: its owner still signs in from elsewhere. Failures from several
 * addresses still lock the account for everyone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFailure } from "../../app/.server/auth/form-errors.ts";
import { AuthError, type RequestMeta } from "../../app/.server/auth/service.ts";
import { headers as loginHeaders } from "../../app/routes/app/login.tsx";
import { headers as resetHeaders } from "../../app/routes/app/reset.tsx";
import { startServices } from "../support/contact-services.ts";
import { httpClient } from "../support/http-session.ts";
import { inviteMember, memberPassword, type SignedIn, setupOwner } from "../support/platform-members.ts";
import { databaseTargets } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";

const from = (ip: string, agent = "throttle-test"): RequestMeta => ({
  headers: new Headers({ "user-agent": agent }),
  ip,
  userAgent: agent,
});

for (const target of databaseTargets()) {
  describe(`sign-in throttle (${target.name})`, () => {
    let app: Awaited<ReturnType<typeof startServices>>;
    let owner: SignedIn;

    beforeAll(async () => {
      const url = await target.create();
      app = await startServices({
        ...(url ? { DATABASE_URL: url } : {}),
        AUTH_SECRET: "auth-secret-auth-secret-auth-secret-0123",
      });
      owner = await setupOwner(app.services.auth, app.config.dataDir, { email: "owner@throttle.example" });
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await target.cleanup();
    });

    it("refuses the guessing address with Retry-After while the owner signs in from another", async () => {
      const auth = app.services.auth;
      const outcomes: unknown[] = [];
      for (let i = 0; i < 11; i++) {
        outcomes.push(
          await auth.signIn("owner@throttle.example", `wrong-${i}`, from("203.0.113.66")).catch((error) => error),
        );
      }
      expect(outcomes.slice(0, 5).map((error) => (error as AuthError).code)).toEqual(
        Array(5).fill("invalid_credentials"),
      );
      const refused = outcomes.at(-1) as AuthError;
      expect(refused.code).toBe("rate_limited");
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
      // Even the right password from that address waits.
      await expect(auth.signIn("owner@throttle.example", memberPassword, from("203.0.113.66"))).rejects.toMatchObject({
        code: "rate_limited",
      });
      // The owner, elsewhere, is not locked out.
      const signedIn = await auth.signIn("owner@throttle.example", memberPassword, from("198.51.100.7", "owner"));
      expect(signedIn.value.next).toBe("second_factor");
      expect(owner.member.email).toBe("owner@throttle.example");
    }, 120_000);

    it("locks the account for everyone when the failures come from several addresses", async () => {
      const auth = app.services.auth;
      await inviteMember(auth, owner, { email: "target@throttle.example" });
      let last: unknown;
      for (let i = 0; i < 11; i++) {
        last = await auth
          .signIn("target@throttle.example", `wrong-${i}`, from(`192.0.2.${i + 10}`))
          .catch((error) => error);
      }
      expect(last).toMatchObject({ code: "locked" });
      const locked = await auth
        .signIn("target@throttle.example", memberPassword, from("198.51.100.99"))
        .catch((error) => error);
      expect(locked).toMatchObject({ code: "locked" });
      expect((locked as AuthError).retryAfterSeconds).toBeGreaterThan(0);
    }, 120_000);

    it("sends Retry-After with the pages' 429 (login and password reset)", () => {
      const failure = authFailure(new AuthError("rate_limited", 42)) as unknown as {
        init: { status: number; headers: Record<string, string> };
      };
      expect(failure.init.status).toBe(429);
      const actionHeaders = new Headers(failure.init.headers);
      for (const headers of [loginHeaders, resetHeaders]) {
        const answer = new Headers(
          headers({
            actionHeaders,
            loaderHeaders: new Headers(),
            parentHeaders: new Headers(),
            errorHeaders: undefined,
          } as never),
        );
        expect(answer.get("retry-after")).toBe("42");
        expect(answer.get("cache-control")).toBe("no-store");
      }
    });
  });
}

describe("sign-in throttle over HTTP (built server)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers the login form's 429 with Retry-After", async () => {
    const client = httpClient(server.url);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 7 && !refused; i++) {
      const response = await client.request("/app/login", {
        form: { intent: "password", email: "ghost@throttle.example", password: `wrong-password-${i}` },
      });
      statuses.push(response.status);
      await response.text();
      if (response.status === 429) refused = response;
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused?.headers.get("cache-control")).toContain("no-store");
  }, 120_000);

  it("keeps Retry-After for a plain HTTP client, which gets no error page", async () => {
    // Node's fetch says "node": isbot takes it for a crawler, whose answer once lost the route's headers.
    let refused: Response | undefined;
    for (let i = 0; i < 7 && !refused; i++) {
      const response = await fetch(`${server.url}/app/login`, {
        method: "POST",
        body: new URLSearchParams({ intent: "password", email: "script@throttle.example", password: `wrong-${i}` }),
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      });
      await response.text();
      if (response.status === 429) refused = response;
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused?.headers.get("cache-control")).toContain("no-store");
  }, 120_000);
});
