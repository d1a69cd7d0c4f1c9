import type { InputHTMLAttributes } from "react";

/** A labelled input with its errors (aria-describedby), Bootstrap styled. */
export function FormField({
  name,
  label,
  errors,
  id,
  ...input
}: { name: string; label: string; errors?: readonly string[] | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const fieldId = id ?? `field-${name}`;
  const errorId = `${fieldId}-error`;
  const invalid = errors !== undefined && errors.length > 0;
  return (
    <div className="mb-3">
      <label htmlFor={fieldId} className="form-label">
        {label}
      </label>
      <input
        id={fieldId}
        name={name}
        className={`form-control${invalid ? " is-invalid" : ""}`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        {...input}
      />
      {invalid ? (
        <div id={errorId} className="invalid-feedback">
          {errors.join(" ")}
        </div>
      ) : null}
    </div>
  );
}

/** A form-level message (error or success) announced to assistive technology. */
export function FormAlert({ kind, children }: { kind: "danger" | "success" | "info"; children: string | undefined }) {
  if (!children) return null;
  return (
    <div className={`alert alert-${kind}`} role={kind === "danger" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/** The six-digit code of an authenticator app, as every second-factor form asks for it. */
export function TotpCodeField(
  props: { label: string; errors?: readonly string[] | undefined } & InputHTMLAttributes<HTMLInputElement>,
) {
  return (
    <FormField
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      required
      {...props}
    />
  );
}
