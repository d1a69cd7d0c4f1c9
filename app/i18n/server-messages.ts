/** The server's own messages (es/server.ts, en/server.ts) by locale: API errors, form validation, mails. */
import { serverMessages as en } from "./en/server.ts";
import { serverMessages as es, type ServerMessages } from "./es/server.ts";
import type { Locale } from "./locales.ts";

export type { ServerMessages };

export function serverMessagesFor(locale: Locale): ServerMessages {
  return locale === "en" ? en : es;
}
