import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { Form, NavLink, useLocation } from "react-router";
import { webhooks as webhooksEn } from "../../i18n/en/webhooks";
import { webhooks as webhooksEs } from "../../i18n/es/webhooks";
import type { Locale } from "../../i18n/locales";
import { ColorModeToggle } from "../layout/color-mode-toggle";
import { evidenceMessages } from "./evidence/messages";
import { lawsMessages } from "./laws/messages";
import { alertMessages, appMessages } from "./messages";
import { type AlertSummary, NotificationCentre } from "./notification-centre";
import { triageMessages } from "./triage/fields";

export interface ShellUser {
  name: string;
  email: string;
  role: "owner" | "admin" | "member";
  organizationName: string;
}

/** The platform's own chrome: brand, navigation (admin entries for admins), the user's menu, language and theme. */
export function AppShell({
  locale,
  user,
  alerts,
  children,
}: {
  locale: Locale;
  user: ShellUser | null;
  /** The notification centre's data (signed-in members). */
  alerts?: AlertSummary | null | undefined;
  children: ReactNode;
}) {
  const t = appMessages(locale);
  const a = alertMessages(locale);
  const e = evidenceMessages(locale).nav;
  const admin = user?.role === "owner" || user?.role === "admin";
  const links = user
    ? [
        { to: "/app", label: t.nav.home, end: true },
        { to: "/app/search", label: t.nav.search, end: false },
        { to: "/app/alerts", label: a.nav.alerts, end: false },
        { to: "/app/profiles", label: a.nav.profiles, end: false },
        { to: "/app/triage", label: triageMessages(locale).nav.triage, end: false },
        { to: "/app/obligations", label: triageMessages(locale).nav.obligations, end: false },
        { to: "/app/overview", label: e.overview, end: false },
        { to: "/app/laws", label: lawsMessages(locale).nav, end: false },
      ]
    : [];
  // Admin pages in one disclosure: eleven entries on one line wrapped the header on a laptop.
  const adminLinks = admin
    ? [
        { to: "/app/admin/members", label: t.nav.members },
        { to: "/app/admin/groups", label: t.nav.groups },
        { to: "/app/admin/topics", label: t.nav.topics },
        { to: "/app/admin/corrections", label: t.nav.corrections },
        { to: "/app/admin/sources", label: t.nav.sources },
        { to: "/app/admin/deliveries", label: a.nav.deliveries },
        { to: "/app/admin/webhooks", label: (locale === "en" ? webhooksEn : webhooksEs).nav },
        { to: "/app/admin/tokens", label: t.nav.tokens },
        { to: "/app/admin/sso", label: t.ssoAdmin.nav },
        { to: "/app/admin/audit", label: t.nav.audit },
        { to: "/app/evidence", label: e.evidence },
        { to: "/app/admin/calendar", label: e.calendar },
      ]
    : [];
  const header = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // A new page closes the folded menu and every disclosure in the header: one left open
  // (Administración after choosing Tokens) lay over the next page's buttons (issue 37).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger.
  useEffect(() => {
    setOpen(false);
    closeDisclosures(header.current);
  }, [location.key]);
  useHeaderDismissal(header, open, (refocus) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  });
  return (
    <div className="app-surface d-flex flex-column min-vh-100">
      {/* React hoists these into <head> (the root renders no <Meta />). */}
      <title>{t.brand}</title>
      <meta name="robots" content="noindex, nofollow" />
      <a className="visually-hidden-focusable position-absolute p-2" href="#app-main">
        {t.skip}
      </a>
      <header className="border-bottom bg-body-tertiary app-header" ref={header}>
        <nav className="navbar navbar-expand-lg py-2" aria-label={t.nav.label}>
          <div className="container-xl position-relative">
            <a className="navbar-brand fw-semibold me-3" href="/app">
              {t.brand}
            </a>
            {user && alerts ? (
              <div className="ms-auto me-2 ms-lg-2 me-lg-0 order-lg-last">
                <NotificationCentre locale={locale} summary={alerts} />
              </div>
            ) : null}
            {user ? (
              <button
                ref={toggle}
                type="button"
                className={`navbar-toggler btn btn-outline-secondary btn-sm${open ? "" : " collapsed"}`}
                aria-controls="app-menu"
                aria-expanded={open}
                onClick={() => setOpen((value) => !value)}
              >
                {t.nav.menu}
              </button>
            ) : null}
            <div className={`navbar-collapse${user ? " collapse" : ""}${open ? " show" : ""}`} id="app-menu">
              <ul className="navbar-nav flex-wrap me-auto">
                {links.map((link) => (
                  <li className="nav-item" key={link.to}>
                    <NavLink to={link.to} end={link.end} className="nav-link px-2 px-xl-1">
                      {link.label}
                    </NavLink>
                  </li>
                ))}
                {adminLinks.length > 0 ? (
                  <li className="nav-item">
                    <details className="app-admin-menu position-relative">
                      <summary className="nav-link px-2 px-xl-1">{t.nav.admin}</summary>
                      <ul className="card list-unstyled mt-1 py-2 shadow-sm app-admin-menu-panel">
                        {adminLinks.map((link) => (
                          <li key={link.to}>
                            <NavLink to={link.to} className="dropdown-item d-block px-3 py-1">
                              {link.label}
                            </NavLink>
                          </li>
                        ))}
                      </ul>
                    </details>
                  </li>
                ) : null}
              </ul>
              <div className="d-flex flex-wrap align-items-center gap-2 py-2 py-lg-0">
                <Form method="post" action="/app/locale" className="d-inline">
                  <input type="hidden" name="locale" value={t.nav.languageCode} />
                  <button type="submit" className="btn btn-link btn-sm" lang={t.nav.languageCode}>
                    {t.nav.language}
                  </button>
                </Form>
                <ColorModeToggle lang={locale} />
                {user ? (
                  <details className="app-user-menu position-relative">
                    <summary className="btn btn-outline-secondary btn-sm">
                      <span className="visually-hidden">{`${t.nav.userMenu}: `}</span>
                      {user.name}
                    </summary>
                    <div className="card mt-1 shadow-sm app-user-menu-panel">
                      <div className="card-body py-2">
                        <p className="small mb-1 text-body-secondary">{user.email}</p>
                        <p className="small mb-2 text-body-secondary">
                          {user.organizationName} · {t.roles[user.role]}
                        </p>
                        <a className="d-block mb-2" href="/app/account">
                          {t.nav.account}
                        </a>
                        <Form method="post" action="/app/logout">
                          <button type="submit" className="btn btn-sm btn-outline-danger w-100">
                            {t.nav.signOut}
                          </button>
                        </Form>
                      </div>
                    </div>
                  </details>
                ) : null}
              </div>
            </div>
          </div>
        </nav>
      </header>
      <main id="app-main" className="container-xl py-4 flex-grow-1">
        {children}
      </main>
    </div>
  );
}

/** Closes every open disclosure (<details>) in the header. */
function closeDisclosures(root: HTMLElement | null) {
  for (const details of root?.querySelectorAll("details[open]") ?? []) details.removeAttribute("open");
}

/**
 * How the header's menus get out of the way: choosing an entry closes its menu (and the folded
 * menu), Escape closes the innermost open one and gives the focus back to its button, and a
 * click elsewhere on the page closes the disclosures. The <details> keep working without
 * JavaScript; this only adds the closing a person expects.
 */
function useHeaderDismissal(
  header: RefObject<HTMLElement | null>,
  open: boolean,
  closeMenu: (refocus: boolean) => void,
) {
  const closeRef = useRef(closeMenu);
  closeRef.current = closeMenu;
  useEffect(() => {
    const root = header.current;
    if (!root) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const details = [...root.querySelectorAll<HTMLDetailsElement>("details[open]")].pop();
      if (details) {
        details.open = false;
        details.querySelector("summary")?.focus();
      } else if (open) {
        closeRef.current(true);
      }
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (target?.closest("a[href]") && root.contains(target)) {
        closeDisclosures(root);
        closeRef.current(false);
        return;
      }
      for (const details of root.querySelectorAll("details[open]")) {
        if (!details.contains(target)) details.removeAttribute("open");
      }
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [header, open]);
}
