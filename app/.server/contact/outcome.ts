/** What a no-JavaScript submission's page shows after the 303: carried as ?contact=… */
import type { ContactField } from "../../lib/contact-fields.ts";
import type { FieldErrors } from "../../lib/contact-schema.ts";

export type ContactOutcome =
  | { kind: "sent" }
  | {
      kind: "error";
      status: number;
      fieldErrors?: FieldErrors;
      values?: Partial<Record<ContactField, string>>;
    };

/** Query parameter of the redirect: "sent", "e<status>" (nothing stored), or a flash id. */
export const outcomeParam = "contact";
export const flashIdPattern = /^[A-Za-z0-9_-]{24}$/;

export function isContactOutcome(value: unknown): value is ContactOutcome {
  if (!value || typeof value !== "object") return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === "sent" || (kind === "error" && typeof (value as { status?: unknown }).status === "number");
}
