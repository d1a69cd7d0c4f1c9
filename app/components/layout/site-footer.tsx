import { company, companyAddress } from "../../content/company";
import type { Locale } from "../../i18n/locales";
import { shellMessagesFor } from "../../i18n/shell";
import { type PageId, pagePath } from "../../lib/site";
import { LogoMark } from "../ui/icons";
import { LanguageSwitch } from "./language-switch";

export function SiteFooter({ lang, page, active }: { lang: Locale; page: PageId; active?: string }) {
  const t = shellMessagesFor(lang).common;
  return (
    <footer className="site-footer">
      <div className="container py-5">
        <div className="row g-4">
          <div className="col-12 col-lg-5">
            <p className="d-flex align-items-center gap-2 fw-semibold fs-5 mb-2">
              <LogoMark size={28} />
              {t.siteName}
            </p>
            <p className="text-body-secondary mb-0">{t.footer.about}</p>
          </div>
          <div className="col-12 col-sm-6 col-lg-3">
            <h2 className="footer-heading">{t.footer.companyHeading}</h2>
            <address className="small mb-0">
              {company.legalName}
              <br />
              {t.footer.taxId}: {company.taxId}
              <br />
              {companyAddress(lang)}
              <br />
              <a href={`mailto:${company.email}`}>{company.email}</a>
            </address>
          </div>
          <nav className="col-6 col-sm-3 col-lg-2" aria-labelledby="footer-legal">
            <h2 className="footer-heading" id="footer-legal">
              {t.footer.legalHeading}
            </h2>
            <ul className="list-unstyled small mb-0">
              <li className="mb-2">
                <a href={pagePath("legalNotice", lang)}>{t.footer.legalNotice}</a>
              </li>
              <li>
                <a href={pagePath("privacy", lang)}>{t.footer.privacy}</a>
              </li>
            </ul>
          </nav>
          <div className="col-6 col-sm-3 col-lg-2">
            <h2 className="footer-heading">{t.footer.languageHeading}</h2>
            <LanguageSwitch
              lang={lang}
              page={page}
              hash={page === "home" && active !== "intro" ? active : undefined}
              className="small"
            />
          </div>
        </div>
        <p className="small text-body-secondary border-top pt-4 mt-4 mb-0">
          © {company.since} {company.legalName} · {t.footer.rights}
        </p>
      </div>
    </footer>
  );
}
