/** Shared look of text-like form controls, so input, textarea and select match exactly. */
export const fieldClasses =
  'w-full rounded-md border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-bone-50 placeholder:text-bone-400 ' +
  'transition-colors focus-visible:outline-none focus-visible:border-blood-400 focus-visible:ring-2 focus-visible:ring-blood-400/60 ' +
  'disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-blood-400';
