import type { HomeContent } from "../../.server/home-content";
import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";

export function CollaborationSection({ lang }: { lang: Locale; content: HomeContent }) {
  const t = messagesFor(lang).home.collaboration;
  return (
    <section id="collaboration" className="container py-5" aria-labelledby="collaboration-title">
      <h2 id="collaboration-title">{t.title}</h2>
    </section>
  );
}
