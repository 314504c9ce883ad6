/**
 * Password reset by mailed link. The token is 256 random bits; only its SHA-256 is stored, on the user's
 * row, so a newer request replaces (and so invalidates) the older one. It lasts one hour and is consumed
 * by one conditional UPDATE, so two tabs racing with the same link cannot both succeed.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import { RESET_LINK_VALIDITY_MS } from '@shared/constants';
import type { AppDeps } from '../../deps';
import { users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { badRequest } from '../../platform/http/errors';
import { hashPassword } from '../../platform/security/passwords';
import type { SessionService } from '../../platform/security/sessions';
import { passwordChangedMail, passwordResetMail, siteUrl } from './templates';
import { assertNotCommon } from './service';

export const INVALID_RESET_LINK = 'The password reset link is invalid or has expired.';

type Deps = Pick<AppDeps, 'database' | 'clock' | 'random' | 'mailer' | 'config'>;

export function resetLink(deps: Pick<AppDeps, 'config'>, token: string, email: string): string {
  const params = new URLSearchParams({ token, email });
  return `${siteUrl(deps)}/reset-password?${params.toString()}`;
}

/** Finds the account by email; the caller decides when to run `issue` so timing reveals nothing. */
export async function findResetTarget(deps: Deps, email: string) {
  const [row] = await deps.database.db
    .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

/** Stores a fresh token (replacing any older one) and queues the mail, in one transaction. */
export async function issueResetToken(deps: Deps, target: NonNullable<Awaited<ReturnType<typeof findResetTarget>>>) {
  const token = deps.random.token(32);
  const expires = new Date(deps.clock.now().getTime() + RESET_LINK_VALIDITY_MS);
  await deps.database.db.transaction(async (tx) => {
    await tx.update(users).set({ resetTokenHash: sha256(token), resetTokenExpires: expires }).where(eq(users.id, target.id));
    await deps.mailer.enqueue(
      passwordResetMail(target.email, target.displayName || target.username, resetLink(deps, token, target.email)),
      tx,
    );
  });
}

/**
 * Sets a new password with a valid token: consumes the token, ends every session of the user (whoever
 * had the old password is signed out) and sends a notice.
 */
export async function resetPassword(
  deps: Deps,
  sessions: SessionService,
  input: { email: string; token: string; newPassword: string },
): Promise<void> {
  assertNotCommon(input.newPassword, 'newPassword');
  if (input.token.length > 200) throw badRequest(INVALID_RESET_LINK);
  const tokenHash = sha256(input.token);
  const now = deps.clock.now();
  // Hash before the transaction: argon2 is slow and must not hold a row lock.
  const passwordHash = await hashPassword(input.newPassword);
  const user = await deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, resetTokenHash: null, resetTokenExpires: null, passwordChangedAt: now })
      .where(
        and(
          eq(users.resetTokenHash, tokenHash),
          gt(users.resetTokenExpires, now),
          sql`lower(${users.email}) = lower(${input.email})`,
        ),
      )
      .returning({ id: users.id, email: users.email, username: users.username, displayName: users.displayName });
    if (!row) return null;
    await sessions.revokeAllForUser(row.id, undefined, tx);
    await deps.mailer.enqueue(passwordChangedMail(row.email, row.displayName || row.username, now, siteUrl(deps)), tx);
    return row;
  });
  if (!user) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
}

/**
 * Whether a reset link (token and address) would still be accepted: unused, unexpired, for that address.
 * Read-only; the reset itself still consumes the token in one conditional statement.
 */
export async function resetLinkValid(deps: Pick<AppDeps, 'database' | 'clock'>, input: { email: string; token: string }): Promise<boolean> {
  const [row] = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.resetTokenHash, sha256(input.token)),
        gt(users.resetTokenExpires, deps.clock.now()),
        sql`lower(${users.email}) = lower(${input.email})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
