import { company, companyAddress } from "../../content/company";
import { legalTexts as en } from "../../content/legal/en";
import { legalTexts as es, type LegalTexts } from "../../content/legal/es";
import type { Locale } from "../../i18n/locales";
import { fillTemplate } from "../../lib/fill-template";

const texts: Record<Locale, LegalTexts> = { es, en };

export type LegalPageId = "legalNotice" | "privacy";

function slug(index: number): string {
  return `section-${index + 1}`;
}

interface Section {
  heading: string;
  paragraphs: readonly string[];
}

/** The privacy policy's sections with the DPO's address after the controller's, when one is appointed. */
export function withDpo(sections: readonly Section[], dpoText: string, dpoEmail: string | null): readonly Section[] {
  if (!dpoEmail) return sections;
  return sections.map((section, index) =>
    index === 0 ? { ...section, paragraphs: [...section.paragraphs, dpoText] } : section,
  );
}

/** The legal notice or the privacy policy, with the company's identity from app/content/company.ts. */
export function LegalDocument({ page, lang }: { page: LegalPageId; lang: Locale }) {
  const t = texts[lang];
  const doc = t[page];
  const values = {
    legalName: company.legalName,
    tradeName: company.tradeName,
    taxId: company.taxId,
    address: companyAddress(lang),
    city: company.address.city,
    email: company.email,
    privacyEmail: company.privacyEmail,
    dpoEmail: company.dpoEmail ?? "",
  };
  const sections = page === "privacy" ? withDpo(doc.sections, t.dpo, company.dpoEmail) : doc.sections;
  return (
    <article className="container py-5 legal-page" aria-labelledby="legal-title">
      <div className="row justify-content-center">
        <div className="col-lg-8">
          <h1 id="legal-title" className="mb-3">
            {doc.title}
          </h1>
          <p className="small text-body-secondary">
            {t.lastUpdatedLabel}: {t.lastUpdated}
          </p>
          <p className="lead">{doc.lead}</p>
          {page === "legalNotice" ? (
            <section aria-labelledby="identity" className="identity-card my-4">
              <h2 id="identity" className="h5">
                {t.identity.heading}
              </h2>
              <dl className="row mb-0">
                <dt className="col-sm-4">{t.identity.legalName}</dt>
                <dd className="col-sm-8">{company.legalName}</dd>
                <dt className="col-sm-4">{t.identity.taxId}</dt>
                <dd className="col-sm-8">{company.taxId}</dd>
                <dt className="col-sm-4">{t.identity.address}</dt>
                <dd className="col-sm-8">{companyAddress(lang)}</dd>
                <dt className="col-sm-4">{t.identity.registry}</dt>
                <dd className="col-sm-8">{company.registry}</dd>
                <dt className="col-sm-4">{t.identity.email}</dt>
                <dd className="col-sm-8 mb-0">
                  <a href={`mailto:${company.email}`}>{company.email}</a>
                </dd>
              </dl>
            </section>
          ) : null}
          <nav aria-labelledby="toc-title" className="toc my-4">
            <h2 id="toc-title" className="h6 text-body-secondary">
              {t.onThisPage}
            </h2>
            <ol className="small mb-0">
              {sections.map((section, index) => (
                <li key={section.heading}>
                  <a href={`#${slug(index)}`}>{section.heading}</a>
                </li>
              ))}
            </ol>
          </nav>
          {sections.map((section, index) => (
            <section key={section.heading} aria-labelledby={slug(index)} className="mt-4">
              <h2 id={slug(index)} className="h4">
                {section.heading}
              </h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph}>{fillTemplate(paragraph, values)}</p>
              ))}
            </section>
          ))}
        </div>
      </div>
    </article>
  );
}
