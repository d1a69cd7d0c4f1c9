/**
 * The outbound guard as a form field: the URL fields of the forms whose URLs the server will
 * fetch or call (admins' feeds, webhooks). The guard's check, and by default the DNS answer of
 * a name too (async: parse with safeParseAsync). allowPrivate skips both DNS and the address
 * check (WEBHOOKS_ALLOW_PRIVATE_URLS=1; tests), and then parses synchronously.
 */
import { z } from "zod";
import { checkOutboundUrl, type Resolver, validateOutboundUrl } from "./outbound.ts";

export interface OutboundUrlOptions {
  allowPrivate?: boolean;
  /** Tests: a DNS stand-in. */
  resolve?: Resolver | undefined;
}

export function outboundUrlField(message: string, options: OutboundUrlOptions = {}) {
  const field = z.string({ error: message }).trim().max(2000, message);
  if (options.allowPrivate) return field.refine((v) => checkOutboundUrl(v, { allowPrivate: true }).ok, message);
  const policy = { allowPrivate: false, resolve: options.resolve };
  return field.refine(async (v) => (await validateOutboundUrl(v, policy)).ok, message);
}
