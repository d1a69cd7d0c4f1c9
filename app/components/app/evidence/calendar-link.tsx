import type { Locale } from "../../../i18n/locales";
import { evidenceMessages } from "./messages";

/** The account page's entry to the member's calendar feed (managed on /app/account/calendar). */
export function CalendarLink({ locale }: { locale: Locale }) {
  const t = evidenceMessages(locale).calendar;
  return (
    <section className="mb-5" aria-labelledby="account-calendar">
      <h2 id="account-calendar" className="h5">
        {t.userTitle}
      </h2>
      <p className="text-body-secondary small">{t.accountLead}</p>
      <a href="/app/account/calendar">{t.accountLink}</a>
    </section>
  );
}
