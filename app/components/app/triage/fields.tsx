/** Small labelled fields of the triage forms (no-JS forms: plain selects and inputs with their errors). */
import type { ReactNode } from "react";
import { triage as triageEn } from "../../../i18n/en/triage";
import { type TriageMessages, triage as triageEs } from "../../../i18n/es/triage";
import type { Locale } from "../../../i18n/locales";

export function triageMessages(locale: Locale): TriageMessages {
  return locale === "en" ? triageEn : triageEs;
}

export interface People {
  members: { id: string; name: string }[];
  groups: { id: string; name: string }[];
}

export function errorIdOf(id: string) {
  return `${id}-error`;
}

export function FieldError({ id, errors }: { id: string; errors: readonly string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <div id={errorIdOf(id)} className="invalid-feedback d-block">
      {errors.join(" ")}
    </div>
  );
}

export function SelectField({
  id,
  name,
  label,
  value,
  errors,
  children,
  className = "mb-2",
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  errors?: readonly string[] | undefined;
  children: ReactNode;
  className?: string;
}) {
  const invalid = (errors?.length ?? 0) > 0;
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label small mb-1">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={`form-select form-select-sm${invalid ? " is-invalid" : ""}`}
        defaultValue={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorIdOf(id) : undefined}
      >
        {children}
      </select>
      <FieldError id={id} errors={errors} />
    </div>
  );
}

export function InputField({
  id,
  name,
  label,
  value,
  errors,
  type = "text",
  hint,
  className = "mb-2",
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  errors?: readonly string[] | undefined;
  type?: string;
  hint?: string;
  className?: string;
}) {
  const invalid = (errors?.length ?? 0) > 0;
  const described = [invalid ? errorIdOf(id) : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label small mb-1">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        className={`form-control form-control-sm${invalid ? " is-invalid" : ""}`}
        defaultValue={value}
        aria-invalid={invalid || undefined}
        aria-describedby={described || undefined}
      />
      {hint ? (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      ) : null}
      <FieldError id={id} errors={errors} />
    </div>
  );
}

/** The options of an assignee select: unassigned, then people, then groups (values user:id / group:id). */
export function AssigneeOptions({ people, locale, none }: { people: People; locale: Locale; none?: string }) {
  const t = triageMessages(locale);
  return (
    <>
      <option value="">{none ?? t.fields.noAssignee}</option>
      <optgroup label={t.fields.members}>
        {people.members.map((m) => (
          <option key={m.id} value={`user:${m.id}`}>
            {m.name}
          </option>
        ))}
      </optgroup>
      {people.groups.length > 0 ? (
        <optgroup label={t.fields.groups}>
          {people.groups.map((g) => (
            <option key={g.id} value={`group:${g.id}`}>
              {`${g.name} (${t.fields.group})`}
            </option>
          ))}
        </optgroup>
      ) : null}
    </>
  );
}

export function formatDueDay(day: string | null, locale: Locale): string {
  if (!day) return "—";
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

export function OverdueBadge({ locale }: { locale: Locale }) {
  return <span className="badge text-bg-danger ms-1">{triageMessages(locale).panel.overdue}</span>;
}

/**
 * An obligation's own fields (title, description, owner, due date, reference, the save button):
 * the same in the document's triage panel and on a law article's obligation page; each form adds
 * its anchor before them.
 */
export function ObligationFields({
  idPrefix,
  people,
  locale,
  values,
  errors,
  fieldClassName,
  buttonClassName,
}: {
  /** Prefix of the fields' ids ("ob" in the triage panel, "lo" on the law page's form). */
  idPrefix: string;
  people: People;
  locale: Locale;
  values: Partial<Record<"title" | "description" | "owner" | "dueOn" | "reference", string>> | undefined;
  errors: Partial<Record<string, readonly string[]>>;
  /** Extra class of the owner and due-date columns. */
  fieldClassName?: string;
  buttonClassName: string;
}) {
  const o = triageMessages(locale).obligations;
  const column = fieldClassName ? `col-sm-6 ${fieldClassName}` : "col-sm-6";
  return (
    <>
      <InputField
        id={`${idPrefix}-title`}
        name="title"
        label={o.title}
        value={values?.title ?? ""}
        errors={errors.title}
      />
      <InputField
        id={`${idPrefix}-description`}
        name="description"
        label={o.description}
        value={values?.description ?? ""}
        errors={errors.description}
      />
      <div className="row g-2">
        <SelectField
          id={`${idPrefix}-owner`}
          name="owner"
          label={o.owner}
          value={values?.owner ?? ""}
          errors={errors.owner}
          className={column}
        >
          <AssigneeOptions people={people} locale={locale} />
        </SelectField>
        <InputField
          id={`${idPrefix}-due`}
          name="dueOn"
          type="date"
          label={o.dueOn}
          value={values?.dueOn ?? ""}
          errors={errors.dueOn}
          className={column}
        />
      </div>
      <InputField
        id={`${idPrefix}-reference`}
        name="reference"
        label={o.reference}
        hint={o.referenceHint}
        value={values?.reference ?? ""}
        errors={errors.reference}
      />
      <button type="submit" className={buttonClassName}>
        {o.save}
      </button>
    </>
  );
}
