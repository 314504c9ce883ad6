/** "1 point", "60 points", "1,234 sales": a count with its noun in the right number (English). */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en-GB')} ${n === 1 ? singular : plural}`;
}
