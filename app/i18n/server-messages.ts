/** The server's own messages (es/tidy.ts, en/tidy.ts) by locale: API errors, form validation, mails. */
import { serverMessages as en } from "./en/tidy";
import { serverMessages as es, type ServerMessages } from "./es/tidy";
import type { Locale } from "./locales";

export type { ServerMessages };

export function serverMessagesFor(locale: Locale): ServerMessages {
  return locale === "en" ? en : es;
}
