/** Registration and sign-in: account rules, duplicate checks and constant-time failure answers. */
import { eq, isNull, or, sql } from 'drizzle-orm';
import { LOGIN_LINK_VALIDITY_MS, type Role } from '@shared/constants';
import type { LoginLinkReturnTo } from '@shared/schemas/login-link';
import type { RegisterInput } from '@shared/schemas/auth';
import { normalizeUsername, usernameScriptProblem, usernameSkeleton } from '@shared/usernames';
import type { Db, DbOrTx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { loginLinks, users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { siteUrl } from './templates';
import { AppError, badRequest, conflict } from '../../platform/http/errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../platform/security/passwords';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords';
import { uniqueViolation } from '../../platform/storage/db-errors';

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
async function fillMissingSkeletons(db: DbOrTx): Promise<void> {
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
  row: { id: number; role: string; passwordHash: string | null } | null;
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
  // An account made by an emailed link has no password yet: no password signs in to it, and the same
  // hashing work is spent, so the answer does not tell that account apart either.
  if (!account.row?.passwordHash) return verifyAgainstDummy(password).then(() => null);
  const ok = await verifyPassword(account.row.passwordHash, password);
  return ok ? { id: account.row.id, role: account.row.role as Role } : null;
}

/** The username a passwordless account starts with: the address's local part, in the allowed letters. */
export function usernameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  // Accents dropped (é -> e), anything outside the username alphabet removed; 30 leaves room for a suffix.
  const base = local
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 30);
  return base || 'reader';
}

const NAME_ATTEMPTS = 8;

/**
 * Creates an account with no password for an address that proved itself by using an emailed link (decision
 * 0084). Its username comes from the address (a number is added while that name, or a look-alike, is taken);
 * the reader can set a password later in Account Details. When an account already holds the address (a race
 * with another sign-up), that account is returned instead. Joins the caller's transaction.
 */
export async function createPasswordlessAccount(db: DbOrTx, email: string, random: () => number = Math.random): Promise<{ id: number; role: Role }> {
  const base = usernameFromEmail(email);
  await fillMissingSkeletons(db);
  for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt += 1) {
    const username = attempt === 0 ? base : `${base}${100 + Math.floor(random() * 9900)}`;
    const skeleton = usernameSkeleton(username);
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(or(sql`lower(${users.username}) = lower(${username})`, eq(users.usernameSkeleton, skeleton)))
      .limit(1);
    if (taken) continue;
    const [row] = await db
      .insert(users)
      .values({ username, email, passwordHash: null, usernameSkeleton: skeleton })
      .onConflictDoNothing()
      .returning({ id: users.id, role: users.role });
    if (row) return { id: row.id, role: row.role as Role };
    const existing = await findAccountByEmail(db, email);
    if (existing) return existing;
  }
  throw new AppError('USERNAME_UNAVAILABLE', 409, 'Could not choose a username for this address. Please register instead.');
}

/** The account holding this address (any case), or null. */
export async function findAccountByEmail(db: DbOrTx, email: string): Promise<{ id: number; role: Role } | null> {
  const [row] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row ? { id: row.id, role: row.role as Role } : null;
}

/**
 * A new username for the caller's account (a link-made account starts with one taken from its address,
 * decision 0084): the sign-up rules apply, and a name taken, or passing for a taken one, is refused the same way.
 */
export async function changeUsername(db: Db, userId: number, requested: string): Promise<string> {
  const username = normalizeUsername(requested);
  const scriptProblem = usernameScriptProblem(username);
  if (scriptProblem) throw badRequest(scriptProblem, { username: scriptProblem });
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username}) and ${users.id} <> ${userId}`)
    .limit(1);
  if (taken) throw duplicateError('username');
  const skeleton = usernameSkeleton(username);
  await fillMissingSkeletons(db);
  const [alike] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.usernameSkeleton} = ${skeleton} and ${users.id} <> ${userId}`)
    .limit(1);
  if (alike) throw duplicateError('username');
  try {
    await db.update(users).set({ username, usernameSkeleton: skeleton }).where(eq(users.id, userId));
  } catch (error) {
    if (uniqueViolation(error)) throw duplicateError('username');
    throw error;
  }
  return username;
}

export const hashLoginLinkToken = (token: string) => sha256(`login-link:${token}`);

/** The page a sign-in mail links to: it shows a "Sign in" button and changes nothing by being opened. */
export function loginLinkUrl(deps: Pick<AppDeps, 'config'>, token: string, returnTo?: LoginLinkReturnTo): string {
  const params = new URLSearchParams({ token });
  if (returnTo) params.set('returnTo', returnTo);
  return `${siteUrl(deps)}/login-link?${params.toString()}`;
}

/**
 * Stores a fresh sign-in link (decision 0084) for `email` inside the caller's transaction and returns its
 * address. The sign-in mail uses it, and so does a feature whose own mail carries the link (an approved
 * review copy). With `createAccount` the link, once used, makes a passwordless account for a new address.
 */
export async function issueLoginLink(
  deps: Pick<AppDeps, 'clock' | 'random' | 'config'>,
  tx: DbOrTx,
  email: string,
  options: { createAccount: boolean; returnTo?: LoginLinkReturnTo },
): Promise<string> {
  const token = deps.random.token(32);
  const expiresAt = new Date(deps.clock.now().getTime() + LOGIN_LINK_VALIDITY_MS);
  await tx.insert(loginLinks).values({ tokenHash: hashLoginLinkToken(token), email, createAccount: options.createAccount, expiresAt });
  return loginLinkUrl(deps, token, options.returnTo);
}
