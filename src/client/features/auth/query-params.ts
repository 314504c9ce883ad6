/** docs/PRODUCT.md, Sign in: the query values returnTo, token and email are HTML-escaped before use. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function readParam(params: URLSearchParams, name: 'returnTo' | 'token' | 'email'): string {
  return escapeHtml(params.get(name) ?? '');
}

export type ReturnTo = 'admin' | 'purchase' | 'gift' | 'basket' | null;

/** Only the two meaningful values are kept; anything else is treated as no returnTo at all. */
export function readReturnTo(params: URLSearchParams): ReturnTo {
  const value = readParam(params, 'returnTo');
  return value === 'admin' || value === 'purchase' || value === 'gift' || value === 'basket' ? value : null;
}
