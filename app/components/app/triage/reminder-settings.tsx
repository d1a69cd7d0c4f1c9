/** The account page's reminder settings: the hour (Madrid time), the days ahead and mail on or off. A plain POST form. */
import { Form } from "react-router";
import type { Locale } from "../../../i18n/locales";
import { FormAlert } from "../form-field";
import { InputField, SelectField, triageMessages } from "./fields";

export interface ReminderSettingsResult {
  ok?: string;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
}

export function ReminderSettingsForm({
  locale,
  settings,
  result,
}: {
  locale: Locale;
  settings: { hour: number; daysBefore: number; mail: boolean };
  result: ReminderSettingsResult | undefined;
}) {
  const t = triageMessages(locale).reminders;
  const errors = result?.errors ?? {};
  const hours = Array.from({ length: 24 }, (_, hour) => hour);
  return (
    <section className="mb-5" aria-labelledby="account-reminders" data-testid="reminder-settings">
      <h2 id="account-reminders" className="h5">
        {t.heading}
      </h2>
      <p className="text-body-secondary small">{t.lead}</p>
      <FormAlert kind="success">{result?.ok ? t.saved : undefined}</FormAlert>
      <Form method="post" noValidate className="row g-2 align-items-end">
        <input type="hidden" name="intent" value="reminders.save" />
        <SelectField
          id="reminder-hour"
          name="hour"
          label={t.hour}
          value={result?.values?.hour ?? String(settings.hour)}
          errors={errors.hour}
          className="col-sm-4"
        >
          {hours.map((hour) => (
            <option key={hour} value={hour}>
              {`${String(hour).padStart(2, "0")}:00`}
            </option>
          ))}
        </SelectField>
        <InputField
          id="reminder-days"
          name="daysBefore"
          type="number"
          label={t.daysBefore}
          value={result?.values?.daysBefore ?? String(settings.daysBefore)}
          errors={errors.daysBefore}
          className="col-sm-4"
        />
        <div className="col-sm-4 mb-2">
          <div className="form-check">
            <input
              className="form-check-input"
              type="checkbox"
              id="reminder-mail"
              name="mail"
              defaultChecked={settings.mail}
            />
            <label className="form-check-label small" htmlFor="reminder-mail">
              {t.mail}
            </label>
          </div>
        </div>
        <div className="col-12">
          <button type="submit" className="btn btn-primary btn-sm">
            {t.save}
          </button>
        </div>
      </Form>
    </section>
  );
}
