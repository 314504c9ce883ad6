import { sqlState } from '../platform/storage/db-errors';

/** Awaits a statement that must be refused, and returns its SQLSTATE and constraint (throws if it was accepted). */
export async function refusal(statement: Promise<unknown>): Promise<{ code: string; constraint?: string }> {
  try {
    await statement;
  } catch (error) {
    const state = sqlState(error);
    if (state) return state;
    throw error;
  }
  throw new Error('the statement was accepted');
}

export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  invalidTextRepresentation: '22P02',
} as const;
