import type { Locale } from "../../i18n/locales";
import { shellMessagesFor } from "../../i18n/shell";
import { pagePath } from "../../lib/site";

export interface ErrorPageProps {
  lang: Locale;
  /** HTTP status; 500 when unknown. */
  status?: number;
  /** Overrides the standard status message of non-404 errors. */
  message?: string;
  /** The technical reason, e.g. "Page not found: /fr". */
  detail?: string;
}

/** The error page: one view for 404, another for every other status. */
export function ErrorPage({ lang, status = 500, message, detail }: ErrorPageProps) {
  return status === 404 ? (
    <NotFoundView lang={lang} detail={detail} />
  ) : (
    <ServerErrorView lang={lang} status={status} message={message} />
  );
}

/**
 * The status titles are fixed in English by the website spec ("Page Not Found"); on a
 * Spanish page they are marked as English so screen readers pronounce them right.
 */
const titleLang = (lang: Locale) => (lang === "en" ? undefined : "en");

function NotFoundView({ lang, detail }: { lang: Locale; detail?: string }) {
  const t = shellMessagesFor(lang).common.error;
  return (
    <section className="container py-5 error-page" aria-labelledby="error-title" data-status="404">
      <ErrorHead title={t.notFoundMetaTitle} />
      <p className="display-1 fw-bold text-body-secondary mb-0">404</p>
      <h1 id="error-title" lang={titleLang(lang)}>
        {t.notFoundTitle}
      </h1>
      <p className="lead">{t.notFoundDescription}</p>
      {detail ? (
        <p className="text-body-secondary small" lang={titleLang(lang)}>
          {detail}
        </p>
      ) : null}
      <a className="btn btn-primary" href={pagePath("home", lang)}>
        {t.backHome}
      </a>
    </section>
  );
}

function ServerErrorView({ lang, status, message }: { lang: Locale; status: number; message?: string }) {
  const t = shellMessagesFor(lang).common.error;
  const heading = message ?? t.serverErrorTitle;
  return (
    <section className="container py-5 error-page" aria-labelledby="error-title" data-status={status}>
      <ErrorHead title={t.serverErrorMetaTitle.replace("{status}", String(status))} />
      <p className="display-1 fw-bold text-body-secondary mb-0">{status}</p>
      <h1 id="error-title" lang={message ? undefined : titleLang(lang)}>
        {heading}
      </h1>
      <p className="lead">{t.serverErrorDescription}</p>
      <a className="btn btn-primary" href={pagePath("home", lang)}>
        {t.backHome}
      </a>
    </section>
  );
}

/** React hoists these into <head>: a title in the page's language, and no search index for error pages. */
function ErrorHead({ title }: { title: string }) {
  return (
    <>
      <title>{title}</title>
      <meta name="robots" content="noindex" />
    </>
  );
}
