/**
 * The platform's forms validate in the browser with the very schema the action validates with
 * (app/lib/app-auth-schema.ts): an invalid submit is stopped before any request, its messages
 * shown by the fields (aria-invalid, aria-describedby) and the first invalid field focused. The
 * server's answer (actionData) replaces them; without JavaScript the server answers alone.
 * docs/decisions/0042-platform-form-validation.md says why this and not Conform.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type FormErrors, parseForm } from "../../lib/app-auth-schema";

type Schema = Parameters<typeof parseForm>[0];

export function useSchemaValidation(
  schema: Schema,
  serverErrors: FormErrors | undefined,
  arrays: readonly string[] = [],
): { errors: FormErrors | undefined; onSubmit(event: FormEvent<HTMLFormElement>): void } {
  const [clientErrors, setClientErrors] = useState<FormErrors | undefined>(undefined);
  const [answered, setAnswered] = useState(serverErrors);
  const form = useRef<HTMLFormElement | null>(null);
  // A new answer from the server is the truth again (state adjusted while rendering, as React advises).
  if (answered !== serverErrors) {
    setAnswered(serverErrors);
    setClientErrors(undefined);
  }
  useEffect(() => {
    if (clientErrors) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [clientErrors]);
  return {
    errors: clientErrors ?? serverErrors,
    onSubmit(event) {
      const result = parseForm(schema, new FormData(event.currentTarget), arrays);
      if (result.ok) {
        setClientErrors(undefined);
        return;
      }
      event.preventDefault();
      form.current = event.currentTarget;
      setClientErrors(result.errors);
    },
  };
}
