/** The triage and obligation services' validation messages, in the user's language (tú in Spanish). */
export type Lang = "es" | "en";

export const triageText = {
  es: {
    status: "Elige un estado de la lista.",
    assignee: "Elige una persona o un grupo de tu organización.",
    dueOn: "Escribe la fecha como AAAA-MM-DD.",
    impact: "Elige un impacto: alto, medio o bajo.",
    rationale: "Escribe la justificación en 2000 caracteres como mucho.",
    note: "Escribe la nota en 500 caracteres como mucho.",
    nothing: "No has cambiado nada.",
    rows: "Marca al menos un documento de la lista.",
    bulkField: "Elige qué quieres cambiar en los documentos marcados.",
    notApplies: "Solo puedes registrar obligaciones en un documento marcado como «aplica».",
    anchor: "Elige el párrafo del texto donde está la obligación.",
    title: "Escribe un título de 3 a 200 caracteres.",
    description: "Escribe la descripción en 2000 caracteres como mucho.",
    reference: "Escribe la referencia en 200 caracteres como mucho.",
    obligationStatus: "Elige un estado de la obligación.",
    hour: "Elige una hora entre 0 y 23.",
    daysBefore: "Elige entre 0 y 60 días.",
  },
  en: {
    status: "Choose a status from the list.",
    assignee: "Choose a person or a group of your organisation.",
    dueOn: "Write the date as YYYY-MM-DD.",
    impact: "Choose an impact: high, medium or low.",
    rationale: "Keep the rationale to 2000 characters at most.",
    note: "Keep the note to 500 characters at most.",
    nothing: "You have not changed anything.",
    rows: "Tick at least one document in the list.",
    bulkField: "Choose what to change on the ticked documents.",
    notApplies: "Obligations can only be recorded on a document marked “applies”.",
    anchor: "Choose the paragraph of the text where the obligation is.",
    title: "Write a title of 3 to 200 characters.",
    description: "Keep the description to 2000 characters at most.",
    reference: "Keep the reference to 200 characters at most.",
    obligationStatus: "Choose a status for the obligation.",
    hour: "Choose an hour between 0 and 23.",
    daysBefore: "Choose between 0 and 60 days.",
  },
} as const satisfies Record<Lang, Record<string, string>>;

export type FieldErrors = Record<string, string[]>;

/** Zod issues as `{ field: [message] }` (the API's fieldErrors and the forms' errors). */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}
