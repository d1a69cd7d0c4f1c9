/** EU acts by CELEX number: what a member types to follow one. */

/** The act's CELEX number as typed (32014R0596, CELEX:32014R0596, an EUR-Lex URL naming it), or null. */
export function actCelexOf(input: string): string | null {
  const m = /\b(3\d{4}[A-Z]{1,2}\d{4})\b/.exec(input.trim().toUpperCase());
  return m?.[1] ?? null;
}
