import type { HomeContent } from "../../.server/home-content";
import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";

export function ArchitectureSection({ lang }: { lang: Locale; content: HomeContent }) {
  const t = messagesFor(lang).home.architecture;
  return (
    <section id="architecture" className="container py-5" aria-labelledby="architecture-title">
      <h2 id="architecture-title">{t.title}</h2>
    </section>
  );
}
