import type { HomeContent } from "../../.server/home-content";
import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";

export function UseCasesSection({ lang }: { lang: Locale; content: HomeContent }) {
  const t = messagesFor(lang).home.useCases;
  return (
    <section id="use-cases" className="container py-5" aria-labelledby="use-cases-title">
      <h2 id="use-cases-title">{t.title}</h2>
    </section>
  );
}
