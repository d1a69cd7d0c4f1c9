import { useEffect, useRef, useState } from "react";
import type { Locale } from "../../i18n/locales";
import { shellMessagesFor } from "../../i18n/shell";
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
 * Bootstrap's navbar markup; the small-screen menu opens and closes by toggling
 * Bootstrap's `show` class. react-bootstrap's Navbar would also pull in Offcanvas
 * and the modal machinery, and its Collapse 3 KB of transition code, for a menu
 * that needs neither (docs/decisions/0010).
 */
export function SiteHeader({ lang, page, active }: { lang: Locale; page: PageId; active?: string }) {
  const t = shellMessagesFor(lang).common;
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
    <header className="site-header">
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
          <div className={`navbar-collapse collapse${open ? " show" : ""}`} id="site-menu">
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
        </div>
      </nav>
    </header>
  );
}
