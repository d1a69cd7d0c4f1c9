import type { ReactNode } from "react";
import { useMatches } from "react-router";
import { shellMessagesFor } from "../../i18n/shell";
import { langFromMatches, pageFromMatches } from "../../lib/route-handle";
import { sectionIds } from "../../lib/site";
import { useReveal } from "../../lib/use-reveal";
import { useScrollspy } from "../../lib/use-scrollspy";
import { PageHead } from "./page-head";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

const noSections: readonly string[] = [];

/** The default layout: skip link, header with menu, main landmark, footer. */
export function DefaultLayout({ children, error = false }: { children: ReactNode; error?: boolean }) {
  const matches = useMatches();
  const lang = langFromMatches(matches);
  const page = pageFromMatches(matches);
  const t = shellMessagesFor(lang).common;
  const active = useScrollspy(page === "home" ? sectionIds : noSections);
  useReveal(matches.at(-1)?.pathname ?? "");
  return (
    <>
      {page && !error ? <PageHead page={page} lang={lang} /> : null}
      <a className="visually-hidden-focusable skip-link" href="#main">
        {t.nav.skipToContent}
      </a>
      <SiteHeader lang={lang} page={page ?? "home"} active={active} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter lang={lang} page={page ?? "home"} active={active} />
    </>
  );
}
