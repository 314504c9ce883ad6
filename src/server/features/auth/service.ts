/** Registration and sign-in: account rules, duplicate checks and constant-time failure answers. */
import { eq, or, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import type { RegisterInput } from '@shared/schemas/auth';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../platform/errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../platform/passwords';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords';
import { uniqueViolation } from '../../platform/db-errors';

export const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
export const EMAIL_TAKEN = 'An account with that email address already exists. Try signing in instead.';
export const INVALID_CREDENTIALS = 'Invalid username or password';

/** Refuses a password from the most-common list; `field` names the form field for the answer. */
export function assertNotCommon(password: string, field: string): void {
  if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE, { [field]: COMMON_PASSWORD_MESSAGE });
}

function duplicateError(which: 'username' | 'email'): AppError {
  return which === 'username'
    ? conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN })
    : conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
}

export async function registerUser(db: Db, input: RegisterInput): Promise<{ id: number; role: Role }> {
  assertNotCommon(input.password, 'password');
  const [taken] = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(
      or(
        sql`lower(${users.username}) = lower(${input.username})`,
        sql`lower(${users.email}) = lower(${input.email})`,
      ),
    )
    .limit(1);
  if (taken) {
    throw duplicateError(taken.username.toLowerCase() === input.username.toLowerCase() ? 'username' : 'email');
  }
  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await db
      .insert(users)
      .values({ username: input.username, email: input.email, displayName: input.displayName, passwordHash })
      .returning({ id: users.id, role: users.role });
    return { id: row.id, role: row.role as Role };
  } catch (error) {
    // Two sign-ups racing for the same name: the unique index decides, the answer still says which.
    const constraint = uniqueViolation(error);
    if (constraint) throw duplicateError(constraint.includes('email') ? 'email' : 'username');
    throw error;
  }
}

export interface LoginAccount {
  row: { id: number; role: string; passwordHash: string } | null;
  /** The counter key for this account: the user id when one matched, else the name as typed. */
  accountKey: string;
}

/** Finds the account for a username-or-email, in any case. Cheap: no hashing yet. */
export async function findLoginAccount(db: Db, identifier: string): Promise<LoginAccount> {
  const name = identifier.trim();
  const column = name.includes('@') ? users.email : users.username;
  const [row] = await db
    .select({ id: users.id, role: users.role, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${column}) = lower(${name})`)
    .limit(1);
  return { row: row ?? null, accountKey: row ? `user:${row.id}` : `name:${name.toLowerCase()}` };
}

/**
 * Checks the password. An unknown account spends the same hashing work as a wrong password, so neither
 * the answer nor its timing tells them apart.
 */
export async function verifyLogin(account: LoginAccount, password: string): Promise<{ id: number; role: Role } | null> {
  if (!account.row) return verifyAgainstDummy(password).then(() => null);
  const ok = await verifyPassword(account.row.passwordHash, password);
  return ok ? { id: account.row.id, role: account.row.role as Role } : null;
}

export async function findUserById(db: Db, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}
