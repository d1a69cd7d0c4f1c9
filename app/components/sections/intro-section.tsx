import type { HomeContent } from "../../.server/home-content";
import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";

export function IntroSection({ lang }: { lang: Locale; content: HomeContent }) {
  const t = messagesFor(lang).home.intro;
  return (
    <section id="intro" className="container py-5" aria-labelledby="intro-title">
      <h1 id="intro-title">{t.title}</h1>
    </section>
  );
}
