/**
 * The demo request form. Without JavaScript it posts form-encoded to /mail/send and the page
 * shows the outcome after a 303, with each field's error next to it and the focus on the first;
 * so it does before the home page has hydrated (on the visitor's first interaction, decision
 * 0116), and what is typed before then is kept (uncontrolled fields).
 * With it, the shared schema (app/lib/contact-schema.ts, loaded on first interaction with the
 * form) validates in the browser and the request goes as JSON through the site's HTTP client.
 * Why not Conform's useForm here: docs/decisions/0020-client-validation.md.
 */

import { type FocusEvent, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import type { ContactFormState } from "../../.server/contact/form-state";
import type { Locale } from "../../i18n/locales";
import { usePageMessages } from "../../i18n/use-page-messages";
import {
  type ContactField,
  contactFieldLimits,
  contactFieldNames,
  honeypotField,
  localeField,
  requiredContactFields,
  timeTrapField,
} from "../../lib/contact-fields";
import type { ContactValidation, FieldErrors } from "../../lib/contact-schema";
import { HttpError, http } from "../../lib/http-client";
import type { ContactToastProps } from "./contact-toast";
import "./contact-form.scss";

/** If the toast's code cannot be fetched (a flaky network, a new deployment), the outcome still shows. */
function PlainOutcome({ kind, title, detail }: ContactToastProps) {
  return (
    <div className={`alert ${kind === "error" ? "alert-danger" : "alert-success"} mt-3`} role="status">
      <strong>{title}</strong>. {detail}
    </div>
  );
}
const ContactToast = lazy(() => import("./contact-toast").catch(() => ({ default: PlainOutcome })));

type Validate = (value: unknown, locale: Locale) => ContactValidation;

interface FieldSpec {
  name: ContactField;
  type: "text" | "email" | "tel";
  autoComplete: string;
  col: string;
}

const fieldSpecs: FieldSpec[] = [
  { name: "name", type: "text", autoComplete: "given-name", col: "col-md-6" },
  { name: "firstName", type: "text", autoComplete: "family-name", col: "col-md-6" },
  { name: "email", type: "email", autoComplete: "email", col: "col-md-6" },
  { name: "phone", type: "tel", autoComplete: "tel", col: "col-md-6" },
  { name: "company", type: "text", autoComplete: "organization", col: "col-md-6" },
  { name: "position", type: "text", autoComplete: "organization-title", col: "col-md-6" },
  { name: "location", type: "text", autoComplete: "address-level2", col: "col-12" },
];

type ToastState = { kind: "success" } | { kind: "error"; detail: string | undefined } | undefined;

let validatorPromise: Promise<Validate> | undefined;
/** The schema (zod/mini) is fetched when the visitor first touches the form, not with the page. */
function loadValidator(): Promise<Validate> {
  validatorPromise ??= import("../../lib/contact-schema").then(
    (module) => module.validateContact,
    (error: unknown) => {
      // Not cached: the next attempt fetches again.
      validatorPromise = undefined;
      throw error;
    },
  );
  return validatorPromise;
}

function isContactField(name: string): name is ContactField {
  return (contactFieldNames as readonly string[]).includes(name);
}

function fieldErrorsOf(data: unknown): FieldErrors | undefined {
  if (data && typeof data === "object" && "fieldErrors" in data) {
    const errors = (data as { fieldErrors: unknown }).fieldErrors;
    if (errors && typeof errors === "object") return errors as FieldErrors;
  }
  return undefined;
}

const fieldId = (name: ContactField) => `contact-${name}`;
const errorId = (name: ContactField) => `contact-${name}-error`;

export function ContactForm({
  lang,
  state,
  beforeSubmit,
}: {
  lang: Locale;
  state: ContactFormState;
  /** Shown right above the submit button: the data-protection first layer (AEPD). */
  beforeSubmit?: ReactNode;
}) {
  const t = usePageMessages().contact;
  const outcome = state.outcome;
  const values = outcome?.kind === "error" ? (outcome.values ?? {}) : {};
  const formRef = useRef<HTMLFormElement>(null);
  const sending = useRef(false);
  const touched = useRef(new Set<ContactField>());
  const attempted = useRef(false);
  const [errors, setErrors] = useState<FieldErrors>(outcome?.kind === "error" ? (outcome.fieldErrors ?? {}) : {});
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastState>(undefined);
  useEffect(() => {
    // The home page hydrates on a first interaction: a visitor who started typing before that
    // is already in the form, and its focus event came before React listened.
    if (formRef.current?.contains(document.activeElement)) void loadValidator().catch(() => {});
  }, []);

  function currentValues(): Record<string, string> {
    const body: Record<string, string> = {};
    if (!formRef.current) return body;
    for (const [key, value] of new FormData(formRef.current)) if (typeof value === "string") body[key] = value;
    return body;
  }

  /** Re-checks the fields the visitor has left (blur) or already sees an error on. */
  async function revalidate(name: ContactField) {
    const validate = await loadValidator().catch(() => undefined);
    if (!validate) return;
    const result = validate(currentValues(), lang);
    const next = result.success ? {} : result.fieldErrors;
    setErrors((previous) => {
      const merged: FieldErrors = { ...previous };
      for (const field of contactFieldNames) {
        if (field === name || touched.current.has(field)) merged[field] = next[field];
      }
      return merged;
    });
  }

  function onBlur(event: FocusEvent<HTMLFormElement>) {
    // Errors appear on leaving a field only after a first submit: an error shown
    // on blur moves the button between mouse down and mouse up, and the click is lost.
    if (!attempted.current) return;
    const name = (event.target as { name?: unknown }).name;
    if (typeof name !== "string") return;
    if (!isContactField(name)) return;
    touched.current.add(name);
    void revalidate(name);
  }

  function onInput(event: React.FormEvent<HTMLFormElement>) {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name !== "string") return;
    if (isContactField(name) && errors[name]) void revalidate(name);
  }

  function showErrors(fieldErrors: FieldErrors) {
    setErrors(fieldErrors);
    const first = contactFieldNames.find((name) => fieldErrors[name]?.length);
    if (first) document.getElementById(fieldId(first))?.focus();
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    attempted.current = true;
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    void import("./contact-toast").catch(() => {});
    try {
      const body = currentValues();
      const validate = await loadValidator().catch(() => undefined);
      if (!validate) {
        // The checking code could not be fetched: post the form as a browser without
        // JavaScript would; the server validates and answers with the page.
        formRef.current?.submit();
        return;
      }
      const result = validate(body, lang);
      if (!result.success) {
        for (const name of contactFieldNames) touched.current.add(name);
        showErrors(result.fieldErrors);
        return;
      }
      setErrors({});
      try {
        await http("/mail/send", { method: "POST", body });
        setToast({ kind: "success" });
        formRef.current?.reset();
        touched.current.clear();
      } catch (error) {
        const httpError = error instanceof HttpError ? error : undefined;
        setToast({ kind: "error", detail: httpError?.statusMessage });
        const fieldErrors = fieldErrorsOf(httpError?.data);
        if (fieldErrors) showErrors(fieldErrors);
      }
    } finally {
      sending.current = false;
      setBusy(false);
    }
  }

  const label = (name: ContactField) => (
    <label htmlFor={fieldId(name)} className="form-label">
      {t.fields[name]}
      {requiredContactFields.includes(name) ? <span aria-hidden="true"> *</span> : null}
    </label>
  );
  const controlProps = (name: ContactField) => {
    const invalid = Boolean(errors[name]?.length);
    return {
      id: fieldId(name),
      name,
      required: requiredContactFields.includes(name),
      maxLength: contactFieldLimits[name],
      defaultValue: values[name] ?? "",
      "aria-invalid": invalid || undefined,
      "aria-describedby": invalid ? errorId(name) : undefined,
      className: `form-control${invalid ? " is-invalid" : ""}`,
    };
  };
  const errorText = (name: ContactField) =>
    errors[name]?.length ? (
      <div id={errorId(name)} className="invalid-feedback d-block">
        {errors[name].join(" ")}
      </div>
    ) : null;

  const firstServerError = contactFieldNames.find((name) => outcome?.kind === "error" && outcome.fieldErrors?.[name]);

  return (
    <>
      {outcome?.kind === "sent" ? (
        <div className="alert alert-success" role="status">
          <strong>{t.success}</strong>. {t.successDetail}
        </div>
      ) : outcome?.kind === "error" ? (
        <div className="alert alert-danger" role="alert">
          <strong>{t.failure}</strong>. {t.status[outcome.status as keyof typeof t.status] ?? t.failureDetail}
        </div>
      ) : null}
      <form
        ref={formRef}
        id="contact-form"
        method="post"
        action="/mail/send"
        aria-labelledby="contact-title"
        // Never the browser's bubbles (one, on the first field only): before hydration the first
        // submit is also the first interaction and posts, and the server's answer writes every
        // field's error next to it (decision 0126); after it, the page's own messages do.
        noValidate
        onSubmit={onSubmit}
        onBlur={onBlur}
        onInput={onInput}
        onFocus={() => void loadValidator().catch(() => {})}
      >
        <p className="small text-body-secondary">{t.requiredNote}</p>
        <input type="hidden" name={localeField} value={lang} />
        <input type="hidden" name={timeTrapField} value={state.token} />
        <div className="contact-hp" aria-hidden="true">
          <label htmlFor="contact-website">{t.honeypot}</label>
          <input id="contact-website" type="text" name={honeypotField} tabIndex={-1} autoComplete="off" />
        </div>
        <div className="row g-3">
          {fieldSpecs.map((spec) => (
            <div key={spec.name} className={spec.col}>
              {label(spec.name)}
              <input
                type={spec.type}
                autoComplete={spec.autoComplete}
                // biome-ignore lint/a11y/noAutofocus: after a no-JavaScript submission, focus goes to the first invalid field
                autoFocus={spec.name === firstServerError}
                {...controlProps(spec.name)}
              />
              {errorText(spec.name)}
            </div>
          ))}
          <div className="col-12">
            {label("comments")}
            {/* biome-ignore lint/a11y/noAutofocus: after a no-JavaScript submission, focus goes to the first invalid field */}
            <textarea rows={5} autoFocus={firstServerError === "comments"} {...controlProps("comments")} />
            {errorText("comments")}
          </div>
          {beforeSubmit ? <div className="col-12">{beforeSubmit}</div> : null}
          <div className="col-12">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? (
                <>
                  <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
                  {t.sending}
                </>
              ) : (
                t.submit
              )}
            </button>
          </div>
        </div>
      </form>
      {toast ? (
        <Suspense fallback={null}>
          <ContactToast
            kind={toast.kind}
            title={toast.kind === "error" ? t.failure : t.success}
            detail={toast.kind === "error" ? (toast.detail ?? t.failureDetail) : t.successDetail}
            closeLabel={t.close}
            onClose={() => setToast(undefined)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
