/**
 * The data a server-rendered page was drawn from, embedded in the page (a JSON script with this id) so
 * the browser's first render reads the same answers the server used, without asking again. Each entry is
 * a TanStack Query key with the API answer at that key (`data`) or the refusal it got (`error`, in the
 * client's "404: {body}" form, e.g. for a missing post).
 */
export const INITIAL_DATA_ID = 'initial-data';

export type InitialEntry = { key: readonly unknown[]; data: unknown } | { key: readonly unknown[]; error: string };
