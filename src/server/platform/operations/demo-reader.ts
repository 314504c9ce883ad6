import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { systemRandom } from '../security/crypto';
import { hashPassword, verifyPassword } from '../security/passwords';

/**
 * The demo reader behind the newsletter section's demo Login (docs/PRODUCT.md, Newsletter). Its credentials are public by
 * design (the site hands them to the button), so the account is an ordinary reader with no privileges,
 * and it is only created when the operator has demo login on.
 */
export const DEMO_READER = {
  username: 'demo-reader',
  email: 'demo-reader@example.com',
  displayName: 'Demo Reader',
  password: 'Demo-Reader-2026!',
} as const;

/** Creates the demo reader once; an existing account (whatever its password) is left alone. */
export async function ensureDemoReader(db: Db): Promise<void> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${DEMO_READER.username}`)
    .limit(1);
  if (existing) return;
  await db
    .insert(users)
    .values({
      username: DEMO_READER.username,
      email: DEMO_READER.email,
      displayName: DEMO_READER.displayName,
      passwordHash: await hashPassword(DEMO_READER.password),
      role: 'user',
    })
    .onConflictDoNothing();
}

/**
 * With demo login off (production), a demo reader left over from an earlier run must not stay open to
 * anyone who knows the published password: its password is replaced by a random one and its sessions end.
 */
export async function lockDemoReader(db: Db): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.username}) = ${DEMO_READER.username}`)
    .limit(1);
  if (!existing?.passwordHash || !(await verifyPassword(existing.passwordHash, DEMO_READER.password))) return false;
  await db.update(users).set({ passwordHash: await hashPassword(systemRandom.token(32)) }).where(eq(users.id, existing.id));
  await db.delete(sessions).where(eq(sessions.userId, existing.id));
  return true;
}
