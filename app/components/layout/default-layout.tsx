import type { ReactNode } from "react";
import { useMatches } from "react-router";
import { messagesFor } from "../../i18n";
import { langFromMatches, pageFromMatches } from "../../lib/route-handle";
import { LanguageSwitch } from "./language-switch";
import { PageHead } from "./page-head";

/** The default layout: skip link, header with menu, main landmark, footer. */
export function DefaultLayout({ children, error = false }: { children: ReactNode; error?: boolean }) {
  const matches = useMatches();
  const lang = langFromMatches(matches);
  const page = pageFromMatches(matches);
  const t = messagesFor(lang).common;
  return (
    <>
      {page && !error ? <PageHead page={page} lang={lang} /> : null}
      <a className="visually-hidden-focusable" href="#main">
        {t.nav.skipToContent}
      </a>
      <header className="container py-2 d-flex justify-content-between">
        <a href={lang === "es" ? "/" : "/en"}>{t.siteName}</a>
        <LanguageSwitch lang={lang} page={page ?? "home"} />
      </header>
      <main id="main">{children}</main>
      <footer className="container py-4">{t.siteName}</footer>
    </>
  );
}
