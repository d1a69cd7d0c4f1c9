import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";

export function ArchitectureSection({ lang }: { lang: Locale }) {
  const t = messagesFor(lang).home.architecture;
  return (
    <section id="architecture" className="container py-5" aria-labelledby="architecture-title">
      <h2 id="architecture-title">{t.title}</h2>
    </section>
  );
}
