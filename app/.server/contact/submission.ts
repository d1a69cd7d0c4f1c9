/** POST /mail/send: parse, screen bots, validate, rate-limit, store; answer JSON or, for the no-JS form, a 303. */

import { randomUUID } from "node:crypto";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { isLocale, type Locale } from "../../i18n/locales.ts";
import {
  type ContactField,
  contactFieldNames,
  honeypotField,
  localeField,
  timeTrapField,
} from "../../lib/contact-fields.ts";
import { contactMessages, validateContact } from "../../lib/contact-schema.ts";
import { pagePath } from "../../lib/site.ts";
import type { AppServices, RequestInfo } from "../context.ts";
import { localeFromAcceptLanguage } from "../locale.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import { type ContactOutcome, flashIdPattern, outcomeParam } from "./outcome.ts";
import { checkFormToken } from "./time-trap.ts";

type StatusCode = keyof ReturnType<typeof contactMessages>["status"];

/** Where the request's language comes from when the body does not say: the page it was sent from, then Accept-Language. */
function fallbackLocale(request: Request): Locale {
  const referer = request.headers.get("referer");
  if (referer) {
    try {
      const { pathname } = new URL(referer);
      if (pathname === "/en" || pathname.startsWith("/en/")) return "en";
      if (pathname === "/" || pathname === "/privacidad" || pathname === "/aviso-legal") return "es";
    } catch {
      // not a URL: ignore
    }
  }
  return localeFromAcceptLanguage(request.headers.get("accept-language")) ?? "es";
}

function jsonError(status: StatusCode, locale: Locale, extra: Record<string, unknown> = {}, headers: HeadersInit = {}) {
  return Response.json(
    { statusCode: status, statusMessage: contactMessages(locale).status[status], ...extra },
    { status, headers: { "Cache-Control": "no-store", ...headers } },
  );
}

export function methodNotAllowed(request: Request): Response {
  return jsonError(405, fallbackLocale(request), {}, { Allow: "POST" });
}

/**
 * Back to the page with the outcome. A page reached with a fragment skips `autofocus` (HTML's
 * autofocus rules), so when fields have errors there is none: the first invalid field takes the
 * focus, which scrolls it into view (issue 37 item 9).
 */
function seeOther(locale: Locale, ref: string, { focusesField = false } = {}): Response {
  const location = `${pagePath("home", locale)}?${outcomeParam}=${encodeURIComponent(ref)}${focusesField ? "" : "#contact"}`;
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

function isBodyTooLarge(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    if ((current as { name?: unknown }).name === "BodyTooLargeError") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The fields a person typed, as strings, to show again after an error. */
function keptValues(body: Record<string, unknown>): Partial<Record<ContactField, string>> {
  const values: Partial<Record<ContactField, string>> = {};
  for (const name of contactFieldNames) {
    const value = body[name];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    if (typeof value === "string") values[name] = value.replace(/\u0000/g, "").slice(0, 5000);
  }
  return values;
}

export async function handleContactPost(request: Request, services: AppServices, info: RequestInfo): Promise<Response> {
  let locale = fallbackLocale(request);
  let isForm = false;
  let body: Record<string, unknown> = {};
  try {
    if (request.method !== "POST") return methodNotAllowed(request);
    const contentType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const isJson = contentType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(contentType);
    isForm = contentType === "application/x-www-form-urlencoded";
    if (!isJson && !isForm) return jsonError(415, locale);

    let raw: string;
    try {
      raw = await request.text();
    } catch (error) {
      if (isBodyTooLarge(error))
        return isForm ? seeOther(locale, "e413") : jsonError(413, locale, {}, { Connection: "close" });
      throw error;
    }

    if (isJson) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return jsonError(400, locale);
      }
      // Arrays, numbers, null: not a request; validated as an empty object (422 with every required field).
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } else {
      for (const [key, value] of new URLSearchParams(raw)) if (!(key in body)) body[key] = value;
    }
    const bodyLocale = body[localeField];
    if (isLocale(bodyLocale)) locale = bodyLocale;

    // Bots: a filled honeypot, or a time trap sent too soon or forged. Same answer as success, nothing stored.
    const honeypot = body[honeypotField];
    let bot = honeypot !== undefined && honeypot !== null && honeypot !== "";
    if (!bot && timeTrapField in body) {
      const token = body[timeTrapField];
      const verdict = typeof token === "string" ? checkFormToken(services.config.formSecret, token) : "forged";
      bot = verdict !== "ok";
      if (bot) info.log.info({ verdict }, "contact form time trap");
    } else if (bot) {
      info.log.info("contact form honeypot filled");
    }

    // Everyone is validated, bots included: a trap must not change the answer to invalid input,
    // or a bot could learn from the status whether it was caught.
    const validation = validateContact(body, locale);
    if (!validation.success) {
      info.log.info({ fields: Object.keys(validation.fieldErrors) }, "contact request invalid");
      if (isForm) {
        const ref = await flash(
          services,
          info.clientIp,
          { kind: "error", status: 422, fieldErrors: validation.fieldErrors, values: keptValues(body) },
          body,
        );
        // Without the flash (no database, over the cap) the page has no field to focus.
        return seeOther(locale, ref, { focusesField: flashIdPattern.test(ref) });
      }
      return jsonError(422, locale, { fieldErrors: validation.fieldErrors });
    }

    const limit = await services.contacts.rateLimit(info.clientIp);
    if (!limit.allowed) {
      info.log.warn({ retryAfter: limit.retryAfterSeconds }, "contact rate limit");
      if (isForm)
        return seeOther(
          locale,
          await flash(services, info.clientIp, { kind: "error", status: 429, values: keptValues(body) }, body),
        );
      return jsonError(429, locale, {}, { "Retry-After": String(limit.retryAfterSeconds) });
    }

    if (bot) {
      return isForm
        ? seeOther(locale, "sent")
        : Response.json({ id: randomUUID() }, { status: 201, headers: { "Cache-Control": "no-store" } });
    }

    const { id } = await services.contacts.accept({
      fields: validation.data,
      locale,
      userAgent: request.headers.get("user-agent") ?? "",
      clientIp: info.clientIp,
    });
    info.log.info({ contactRequestId: id }, "contact request accepted");
    return isForm
      ? seeOther(locale, "sent")
      : Response.json({ id }, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      info.log.error({ err: error }, "contact request refused: database unavailable");
      return isForm ? seeOther(locale, "e503") : jsonError(503, locale, {}, { "Retry-After": "30" });
    }
    info.log.error({ err: error }, "contact request failed");
    return isForm ? seeOther(locale, "e500") : jsonError(500, locale);
  }
}

/**
 * Outcomes stored for no-JavaScript visitors, per client and instance: generous for a person
 * correcting a form, a cap for a script that floods invalid posts to fill the database.
 */
const flashWrites = new RateLimiterMemory({ points: 30, duration: 60 });

/** Stores what the page must show after the redirect; without a database or over the cap, only the status travels. */
async function flash(
  services: AppServices,
  clientIp: string,
  outcome: ContactOutcome,
  body: Record<string, unknown>,
): Promise<string> {
  try {
    await flashWrites.consume(clientIp);
    const email = typeof body.email === "string" ? body.email.trim().slice(0, 254) : "";
    return await services.contacts.putFlash(outcome, email);
  } catch {
    return outcome.kind === "error" ? `e${outcome.status}` : "sent";
  }
}
