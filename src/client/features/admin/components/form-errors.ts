/**
 * The messages an admin form shows: per field from the shared schema's issues before sending, or from the
 * server's refusal after; whatever names no field of the form goes to the form as a whole.
 */
import { errorText, fieldErrors } from '@client/lib/api-errors';

export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>;

const fieldOf = <F extends string>(fields: readonly F[], key: string): F | 'form' => ((fields as readonly string[]).includes(key) ? (key as F) : 'form');

/** The first message for each field among a failed check's issues. */
export function errorsOfIssues<F extends string>(fields: readonly F[], issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FormErrors<F> {
  const next: FormErrors<F> = {};
  for (const issue of issues) next[fieldOf(fields, String(issue.path[0] ?? 'form'))] ??= issue.message;
  return next;
}

/** A refusal's messages for this form's fields, or its one message for the whole form. */
export function errorsOfRefusal<F extends string>(fields: readonly F[], error: unknown): FormErrors<F> {
  const given = fieldErrors(error);
  const named = Object.keys(given).filter((k) => fieldOf(fields, k) !== 'form');
  return named.length > 0 ? (Object.fromEntries(named.map((k) => [k, given[k]])) as FormErrors<F>) : { form: errorText(error) } as FormErrors<F>;
}
