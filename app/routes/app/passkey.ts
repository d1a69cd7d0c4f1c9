/**
 * The passkey ceremonies' JSON steps (the browser's WebAuthn calls sit between them):
 * `challenge` and `verify` use a passkey as the second factor after the password step;
 * `register-options` and `register` add one to the signed-in member's account.
 * better-auth does the WebAuthn work (../../.server/auth/service.ts); its own HTTP handler is not exposed.
 */
import { data } from "react-router";
import { authFailure } from "../../.server/auth/form-errors";
import { appSessionContext, requestMeta, requireMember, safeNext, withCookies } from "../../.server/auth/guard";
import { AuthError } from "../../.server/auth/service";
import { requestContext, servicesContext } from "../../.server/context";
import type { Route } from "./+types/passkey";

export function loader() {
  throw data({ statusCode: 405, statusMessage: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > 64 * 1024) throw new AuthError("passkey_failed");
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    throw new AuthError("passkey_failed");
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auth } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const log = context.get(requestContext).log;
  try {
    switch (params.step) {
      case "challenge": {
        const challenge = await auth.passkeyChallenge(meta);
        if (!challenge) throw new AuthError("invalid_code");
        return data({ options: challenge.value }, { headers: withCookies(challenge.setCookies) });
      }
      case "verify": {
        const body = await jsonBody(request);
        const cookies = await auth.verifyPasskey(body.response, meta);
        const next = safeNext(typeof body.next === "string" ? body.next : null);
        return data({ next }, { headers: withCookies(cookies) });
      }
      case "register-options": {
        requireMember(context, "account.manage");
        const options = await auth.passkeyRegistrationOptions(meta);
        return data({ options: options.value }, { headers: withCookies(options.setCookies) });
      }
      case "register": {
        requireMember(context, "account.manage");
        const body = await jsonBody(request);
        const name = typeof body.name === "string" ? body.name.trim().slice(0, 80) : "";
        await auth.registerPasskey(context.get(appSessionContext)!, body.response, name, meta);
        return data({ ok: true });
      }
      default:
        return data({ statusCode: 404, statusMessage: "Not Found" }, { status: 404 });
    }
  } catch (error) {
    return authFailure(error, log);
  }
}
