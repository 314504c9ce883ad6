/** Registration and sign-in: account rules, duplicate checks and constant-time failure answers. */
import { eq, isNull, or, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import type { RegisterInput } from '@shared/schemas/auth';
import { normalizeUsername, usernameScriptProblem, usernameSkeleton } from '@shared/usernames';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../platform/errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../platform/passwords';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords';
import { uniqueViolation } from '../../platform/db-errors';

// What other features may use of this one (their only way in).
export { LIMITS, keys, limitMessages, record, tooManyRequests, type Limit } from './limits';
export { passwordChangedMail, siteUrl } from './templates';

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

const SKELETON_BATCH = 500;

/**
 * Gives every account without one its username skeleton: accounts made before decision 0014, by the seed
 * or from ADMIN_USERNAME. Runs before each sign-up's look-alike check; once all are filled it is one
 * indexed query that finds nothing.
 */
async function fillMissingSkeletons(db: Db): Promise<void> {
  for (;;) {
    const rows = await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(isNull(users.usernameSkeleton))
      .limit(SKELETON_BATCH);
    if (!rows.length) return;
    const values = sql.join(
      rows.map((r) => sql`(${r.id}::integer, ${usernameSkeleton(r.username)}::text)`),
      sql`, `,
    );
    await db.execute(
      sql`update ${users} set username_skeleton = v.skeleton from (values ${values}) as v(id, skeleton) where ${users.id} = v.id`,
    );
    if (rows.length < SKELETON_BATCH) return;
  }
}

/** An existing username the new one would pass for (same skeleton), or null. */
async function lookAlikeOf(db: Db, skeleton: string): Promise<string | null> {
  await fillMissingSkeletons(db);
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.usernameSkeleton, skeleton)).limit(1);
  return row?.username ?? null;
}

export async function registerUser(db: Db, input: RegisterInput): Promise<{ id: number; role: Role }> {
  assertNotCommon(input.password, 'password');
  // The schema already normalised and checked it; API callers of this function get the same rules.
  const username = normalizeUsername(input.username);
  const scriptProblem = usernameScriptProblem(username);
  if (scriptProblem) throw badRequest(scriptProblem, { username: scriptProblem });
  input = { ...input, username };
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
  // A name that would pass for an existing one is as taken as the name itself, and answered the same way.
  const skeleton = usernameSkeleton(input.username);
  if (await lookAlikeOf(db, skeleton)) throw duplicateError('username');
  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await db
      .insert(users)
      .values({ username: input.username, email: input.email, displayName: input.displayName, passwordHash, usernameSkeleton: skeleton })
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
    // Also as NFKC: a name signed up in full-width letters was stored in plain ones (decision 0014).
    .where(sql`lower(${column}) in (lower(${name}), lower(${normalizeUsername(name)}))`)
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
