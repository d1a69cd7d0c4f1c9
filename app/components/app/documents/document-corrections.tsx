/** The document page's corrections of the areas: who changed what and why, and the form (a plain POST: works without JavaScript). */
import { Form } from "react-router";
import { corrections as correctionsEn } from "../../../i18n/en/corrections";
import { type CorrectionMessages, corrections as correctionsEs } from "../../../i18n/es/corrections";
import type { Locale } from "../../../i18n/locales";
import { areas as taxonomyAreas } from "../../../lib/taxonomy";
import { FormAlert } from "../form-field";
import { fill, formatDateTime } from "../messages";
import { areaLabel } from "./labels";

export function correctionMessages(locale: Locale): CorrectionMessages {
  return locale === "en" ? correctionsEn : correctionsEs;
}

export interface CorrectionItem {
  id: string;
  area: string;
  action: "add" | "remove";
  reason: string;
  by: { name: string; email: string };
  at: string;
}

export type CorrectionResult =
  | { ok: "corrected" | "undone" }
  | { form: "correction"; errors: Record<string, string[]>; values: Record<string, string> };

/** "Added by Ana on 3 Oct 2026: reason" under an area the organisation added. */
export function AddedBy({ correction, locale }: { correction: CorrectionItem; locale: Locale }) {
  const t = correctionMessages(locale);
  return (
    <li data-testid="corrected-by">
      {fill(t.addedBy, {
        name: correction.by.name,
        date: formatDateTime(correction.at, locale),
        reason: correction.reason,
      })}
    </li>
  );
}

/** The areas the organisation removed, each with who and why. */
export function RemovedAreas({ corrections, locale }: { corrections: CorrectionItem[]; locale: Locale }) {
  const t = correctionMessages(locale);
  const removed = corrections.filter((c) => c.action === "remove");
  if (removed.length === 0) return null;
  return (
    <>
      <h3 className="h6">{t.removedHeading}</h3>
      <ul className="list-unstyled small" data-testid="removed-areas">
        {removed.map((c) => (
          <li key={c.id} className="mb-2">
            <span className="fw-semibold text-decoration-line-through">{areaLabel(c.area, locale)}</span>
            <span className="d-block" data-testid="corrected-by">
              {fill(t.removedBy, { name: c.by.name, date: formatDateTime(c.at, locale), reason: c.reason })}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function CorrectionForm({ locale, result }: { locale: Locale; result: CorrectionResult | undefined }) {
  const t = correctionMessages(locale);
  const failed = result && "form" in result && result.form === "correction" ? result : undefined;
  const errors = failed?.errors ?? {};
  const values = failed?.values ?? {};
  const invalid = (name: string) => (errors[name]?.length ?? 0) > 0;
  const described = (name: string, extra?: string) =>
    [invalid(name) ? `correction-${name}-error` : null, extra].filter(Boolean).join(" ") || undefined;
  const error = (name: string) =>
    invalid(name) ? (
      <div id={`correction-${name}-error`} className="invalid-feedback d-block">
        {errors[name]?.join(" ")}
      </div>
    ) : null;
  const saved = result && "ok" in result ? (result.ok === "undone" ? t.undone : t.saved) : undefined;
  const sortedAreas = [...taxonomyAreas].sort((a, b) => a.name[locale].localeCompare(b.name[locale], locale));
  return (
    <section aria-labelledby="doc-correct" className="card mb-3" data-testid="correction-form">
      <div className="card-body">
        <h2 id="doc-correct" className="h5">
          {t.heading}
        </h2>
        <p className="small text-body-secondary">{t.lead}</p>
        <FormAlert kind="success">{saved}</FormAlert>
        <FormAlert kind="danger">{failed ? t.formError : undefined}</FormAlert>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="area.correct" />
          <div className="mb-2">
            <label htmlFor="correction-area" className="form-label">
              {t.area}
            </label>
            <select
              id="correction-area"
              name="area"
              className={`form-select${invalid("area") ? " is-invalid" : ""}`}
              defaultValue={values.area ?? ""}
              aria-invalid={invalid("area") || undefined}
              aria-describedby={described("area")}
              required
            >
              <option value="">{t.chooseArea}</option>
              {sortedAreas.map((area) => (
                <option key={area.id} value={area.id}>
                  {area.name[locale]}
                </option>
              ))}
            </select>
            {error("area")}
          </div>
          <fieldset className="mb-2" aria-describedby={described("action")}>
            <legend className="form-label fs-6 mb-1">{t.action}</legend>
            {(["remove", "add"] as const).map((action) => (
              <div className="form-check" key={action}>
                <input
                  className={`form-check-input${invalid("action") ? " is-invalid" : ""}`}
                  type="radio"
                  name="action"
                  id={`correction-action-${action}`}
                  value={action}
                  defaultChecked={values.action === action}
                  required
                />
                <label className="form-check-label" htmlFor={`correction-action-${action}`}>
                  {t[action]}
                </label>
              </div>
            ))}
            {error("action")}
          </fieldset>
          <div className="mb-2">
            <label htmlFor="correction-reason" className="form-label">
              {t.reason}
            </label>
            <textarea
              id="correction-reason"
              name="reason"
              rows={2}
              maxLength={500}
              required
              className={`form-control${invalid("reason") ? " is-invalid" : ""}`}
              defaultValue={values.reason ?? ""}
              aria-invalid={invalid("reason") || undefined}
              aria-describedby={described("reason", "correction-reason-hint")}
            />
            <div id="correction-reason-hint" className="form-text">
              {t.reasonHint}
            </div>
            {error("reason")}
          </div>
          <button type="submit" className="btn btn-primary btn-sm">
            {t.submit}
          </button>
        </Form>
      </div>
    </section>
  );
}
