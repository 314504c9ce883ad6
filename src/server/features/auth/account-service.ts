/** The account page's reads and the signed-in password change. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import type { UserProfile } from '@shared/schemas/auth';
import type { AppDeps } from '../../deps';
import { userActivities, users } from '../../db/schema';
import { qualified } from '../../db/qualified';
import { DEMO_READER } from '../../platform/operations/demo-reader';
import { badRequest, conflict, forbidden } from '../../platform/http/errors';
import { hashPassword, verifyPassword } from '../../platform/security/passwords';
import type { SessionService } from '../../platform/security/sessions';
import { assertNotCommon } from './service';
import { passwordChangedMail, siteUrl } from './templates';

export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const SAME_PASSWORD = 'New password must be different from the current password';

type Deps = Pick<AppDeps, 'database' | 'clock' | 'mailer' | 'config'>;

export async function getProfile(deps: Pick<AppDeps, 'database'>, userId: number): Promise<UserProfile | null> {
  const { db } = deps.database;
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      displayName: users.displayName,
      avatarUrl: users.avatarUrl,
      isSubscribed: users.isSubscribed,
      role: users.role,
      createdAt: users.createdAt,
      linkOnly: sql<boolean>`${users.passwordHash} is null`,
      points: sql<number>`coalesce((select sum(${userActivities.points}) from ${userActivities} where ${qualified(userActivities.userId)} = ${qualified(users.id)}), 0)::int`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  return { ...row, role: row.role as Role, points: Number(row.points), linkOnly: Boolean(row.linkOnly), createdAt: row.createdAt.toISOString() };
}

export type ChangeOutcome = 'changed' | 'wrong-current';

/**
 * Verifies the current password, stores the new one, clears any pending reset link and ends every other
 * session of the user (the one making the change stays signed in), then mails a notice.
 */
export async function changePassword(
  deps: Deps,
  sessions: SessionService,
  userId: number,
  currentSessionId: number,
  input: { currentPassword: string; newPassword: string },
): Promise<ChangeOutcome> {
  const { db } = deps.database;
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row?.passwordHash || !(await verifyPassword(row.passwordHash, input.currentPassword))) return 'wrong-current';
  // Its password is public so the demo Login works for everyone; nobody may take the account over.
  if (row.username.toLowerCase() === DEMO_READER.username) {
    throw forbidden("The demo account's password cannot be changed");
  }
  if (input.newPassword.normalize('NFC') === input.currentPassword.normalize('NFC')) {
    throw badRequest(SAME_PASSWORD, { newPassword: SAME_PASSWORD });
  }
  assertNotCommon(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, resetTokenHash: null, resetTokenExpires: null, passwordChangedAt: now })
      .where(eq(users.id, userId));
    await sessions.revokeAllForUser(userId, currentSessionId, tx);
    await deps.mailer.enqueue(passwordChangedMail(row.email, row.displayName || row.username, now, siteUrl(deps)), tx);
  });
  return 'changed';
}

export const PASSWORD_ALREADY_SET = 'This account already has a password. Use Change Password instead.';

/**
 * A first password for an account made by an emailed link (decision 0084). Stored only while the account
 * has none, in one conditional UPDATE, so this can never replace a password without knowing it. Other
 * sessions stay: nothing was taken over, the reader only added a way in.
 */
export async function setFirstPassword(deps: Deps, userId: number, newPassword: string): Promise<void> {
  assertNotCommon(newPassword, 'newPassword');
  const passwordHash = await hashPassword(newPassword);
  const now = deps.clock.now();
  await deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: now })
      .where(and(eq(users.id, userId), isNull(users.passwordHash)))
      .returning({ email: users.email, username: users.username, displayName: users.displayName });
    if (!row) throw conflict(PASSWORD_ALREADY_SET);
    await deps.mailer.enqueue(passwordChangedMail(row.email, row.displayName || row.username, now, siteUrl(deps)), tx);
  });
}
