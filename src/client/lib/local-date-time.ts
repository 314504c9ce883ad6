/**
 * A `datetime-local` box has no time zone: its value ("2026-12-01T09:30") is the admin's own local time.
 * These turn an ISO instant into that value and back.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** ISO instant -> the box's value in the browser's zone ('' for none). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The box's value -> an ISO instant; '' when the box is empty or holds no date, so a schema names it. */
export function fromLocalInput(value: string): string {
  const d = new Date(value);
  return value.trim() === '' || Number.isNaN(d.getTime()) ? '' : d.toISOString();
}
