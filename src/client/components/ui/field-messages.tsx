/**
 * How an admin form ties each field's message to its control: the message paragraph under the field, and the
 * control's aria-invalid and aria-describedby pointing at it while there is one.
 */
export function fieldMessages<F extends string>(prefix: string, errors: Partial<Record<F, string>>) {
  const errorId = (name: F) => `${prefix}-${name}-error`;
  return {
    describedBy: (name: F) => (errors[name] ? errorId(name) : undefined),
    invalid: (name: F) => (errors[name] ? true : undefined),
    message: (name: F) =>
      errors[name] ? (
        <p id={errorId(name)} className="text-sm text-blood-300">
          {errors[name]}
        </p>
      ) : null,
  };
}
