import type { ContactFormState } from "../../.server/contact/form-state";
import { company } from "../../content/company";
import type { Locale } from "../../i18n/locales";
import { usePageMessages } from "../../i18n/use-page-messages";
import { pagePath } from "../../lib/site";
import { ContactForm } from "../contact-form/contact-form";

export function ContactSection({ lang, form }: { lang: Locale; form: ContactFormState }) {
  const t = usePageMessages().contact;
  const p = t.privacy;
  const privacyHref = pagePath("privacy", lang);
  const rows: [string, string][] = [
    // The controller is the company in app/content/company.ts, the same one the privacy policy names.
    [
      p.controllerLabel,
      `${company.legalName} (${company.privacyEmail})${company.dpoEmail ? ` · ${p.dpoLabel}: ${company.dpoEmail}` : ""}`,
    ],
    [p.purposeLabel, p.purpose],
    [p.legalBasisLabel, p.legalBasis],
    [p.recipientsLabel, p.recipients],
    [p.rightsLabel, p.rights],
  ];
  return (
    <section id="contact" className="container py-5" aria-labelledby="contact-title">
      <h2 id="contact-title">{t.title}</h2>
      <p className="lead">{t.intro}</p>
      <ContactForm
        lang={lang}
        state={form}
        beforeSubmit={
          <>
            <table className="table table-sm small mb-2">
              <caption className="caption-top">{p.tableCaption}</caption>
              <tbody>
                {rows.map(([label, text]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td>{text}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">{p.moreLabel}</th>
                  <td>
                    {p.more}
                    <a href={privacyHref}>{p.link}</a>.
                  </td>
                </tr>
              </tbody>
            </table>
            <p className="small mb-0">
              {p.before}
              <a href={privacyHref}>{p.link}</a>
              {p.after}
            </p>
          </>
        }
      />
    </section>
  );
}
