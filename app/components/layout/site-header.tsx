import { useEffect, useRef, useState } from "react";
// The package entry, not "react-bootstrap/Collapse": Node's ESM loader cannot import react-bootstrap's
// per-component folders on the server (docs/decisions/0011). The client bundle is tree-shaken all the same.
import { Collapse } from "react-bootstrap";
import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";
import { type PageId, pagePath } from "../../lib/site";
import { useRootData } from "../../root";
import { LogoMark, SvgIcon } from "../ui/icons";
import { ColorModeToggle } from "./color-mode-toggle";
import { LanguageSwitch } from "./language-switch";

/** The menu's section entries, in order. */
export const menuSections = [
  ["collaboration", "collaboration"],
  ["architecture", "architecture"],
  ["use-cases", "useCases"],
  ["contact", "contact"],
] as const;

/**
 * Bootstrap's navbar markup with react-bootstrap's Collapse for the small-screen menu.
 * react-bootstrap's Navbar component would also pull in Offcanvas and the modal
 * machinery (about 15 KB compressed) that this menu does not use (docs/decisions/0012).
 */
export function SiteHeader({ lang, page, active }: { lang: Locale; page: PageId; active?: string }) {
  const t = messagesFor(lang).common;
  const root = useRootData();
  const loginHref = root?.platformUrl ?? pagePath("login", lang);
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const close = () => setOpen(false);
  return (
    <header className="site-header sticky-top">
      <nav className="navbar navbar-expand-xl py-2" aria-label={t.nav.mainLabel}>
        <div className="container">
          <a href={pagePath("home", lang)} aria-label={t.nav.homeLabel} className="navbar-brand brand">
            <LogoMark size={32} />
            <span className="brand-name">{t.siteName}</span>
          </a>
          <button
            ref={toggleRef}
            type="button"
            className={`navbar-toggler${open ? "" : " collapsed"}`}
            aria-controls="site-menu"
            aria-expanded={open}
            aria-label={t.nav.toggleMenu}
            onClick={() => setOpen((value) => !value)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <Collapse in={open}>
            <div className="navbar-collapse" id="site-menu">
              <ul className="navbar-nav ms-auto me-xl-3">
                {menuSections.map(([id, key]) => {
                  const current = page === "home" && active === id;
                  return (
                    <li className="nav-item" key={id}>
                      <a
                        className={`nav-link${current ? " active" : ""}`}
                        href={pagePath("home", lang, id)}
                        aria-current={current ? "true" : undefined}
                        onClick={close}
                      >
                        {t.nav[key]}
                      </a>
                    </li>
                  );
                })}
              </ul>
              <div className="navbar-actions d-flex align-items-center gap-2 pb-3 pb-xl-0">
                <a className="btn btn-primary btn-sm px-3" href={loginHref}>
                  <SvgIcon name="login" size={16} className="me-1" />
                  {t.nav.login}
                </a>
                <LanguageSwitch
                  lang={lang}
                  page={page}
                  hash={page === "home" && active !== "intro" ? active : undefined}
                  className="btn btn-sm btn-link nav-lang"
                />
                <ColorModeToggle lang={lang} />
              </div>
            </div>
          </Collapse>
        </div>
      </nav>
    </header>
  );
}
