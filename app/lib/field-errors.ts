/**
 * The one formatter of zod issues into field errors (`{ field: [message] }`), for forms (browser
 * and server) and the API's 422 answers. Each field keeps its messages in order, without repeats.
 */
export type FieldErrors = Record<string, string[]>;

/** What the formatter reads of an issue (zod's `$ZodIssue` has these). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export interface FieldErrorOptions {
  /** The key of an issue about the whole input (an empty path). */
  fallback: string;
  /** `first`: the top-level field (forms); `joined`: the whole path, dot-separated (the API). */
  path?: "first" | "joined";
  /** Only these keys are kept (issues about other keys are dropped). */
  only?: readonly string[];
  /** Errors found before validation, merged in front. */
  into?: FieldErrors;
}

export function fieldErrorsOf(issues: readonly IssueLike[], options: FieldErrorOptions): FieldErrors {
  const errors: FieldErrors = options.into ?? {};
  for (const issue of issues) {
    const key =
      issue.path.length === 0
        ? options.fallback
        : options.path === "joined"
          ? issue.path.map(String).join(".")
          : String(issue.path[0]);
    if (options.only && !options.only.includes(key)) continue;
    const list = errors[key] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    errors[key] = list;
  }
  return errors;
}
