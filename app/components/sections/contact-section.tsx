import type { ContactFormState } from "../../.server/contact/form-state";
import { messagesFor } from "../../i18n";
import type { Locale } from "../../i18n/locales";

export function ContactSection({ lang }: { lang: Locale; form: ContactFormState }) {
  const t = messagesFor(lang).home.contact;
  return (
    <section id="contact" className="container py-5" aria-labelledby="contact-title">
      <h2 id="contact-title">{t.title}</h2>
    </section>
  );
}
