import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import type { Role } from '@shared/constants';
import type { Db, DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { type Clock, type Random, sha256 } from './crypto';
import { forbidden, unauthorized } from '../http/errors';

/** A session ends after this long without use ... */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** ... and in any case this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is refreshed at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export interface AuthContext {
  sessionId: number;
  userId: number;
  role: Role;
  via: 'cookie' | 'bearer';
}

export interface IssuedSession {
  sessionId: number;
  cookieToken: string;
  bearerToken: string;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public read served from the public cache: the same answer for everyone, so no session lookup. */
    publicRead?: boolean;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    sessions: SessionService;
    requireUser: preHandlerAsyncHookHandler;
    requireAdmin: preHandlerAsyncHookHandler;
  }
}

export class SessionService {
  readonly cookieName: string;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly secureCookies: boolean,
  ) {
    // The __Host- prefix pins the cookie to this origin over HTTPS (no Domain, Path=/).
    this.cookieName = secureCookies ? '__Host-sid' : 'sid';
  }

  /** Starts a session: the cookie and the bearer are two different random values, stored only as hashes. */
  async create(userId: number, meta: { userAgent?: string; ip?: string } = {}, tx: DbOrTx = this.db) {
    const cookieToken = this.random.token(32);
    const bearerToken = this.random.token(32);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    const [row] = await tx
      .insert(sessions)
      .values({
        userId,
        cookieHash: sha256(cookieToken),
        bearerHash: sha256(bearerToken),
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
        userAgent: meta.userAgent?.slice(0, 300),
        ip: meta.ip,
      })
      .returning({ id: sessions.id });
    return { sessionId: row.id, cookieToken, bearerToken, expiresAt } satisfies IssuedSession;
  }

  async resolve(request: FastifyRequest): Promise<AuthContext | null> {
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const cookie = request.cookies?.[this.cookieName];
    // A bearer header is a deliberate act of the client; it wins over an ambient cookie.
    if (bearer) return this.lookup(sessions.bearerHash, bearer, 'bearer');
    if (cookie) return this.lookup(sessions.cookieHash, cookie, 'cookie');
    return null;
  }

  private async lookup(
    column: typeof sessions.bearerHash | typeof sessions.cookieHash,
    token: string,
    via: AuthContext['via'],
  ): Promise<AuthContext | null> {
    if (token.length > 200) return null;
    const now = this.clock.now();
    const [row] = await this.db
      .select({ id: sessions.id, userId: sessions.userId, lastSeenAt: sessions.lastSeenAt, role: users.role })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(column, sha256(token)),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        ),
      )
      .limit(1);
    if (!row) return null;
    if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.id));
    }
    return { sessionId: row.id, userId: row.userId, role: row.role as Role, via };
  }

  async revoke(sessionId: number): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, sessionId));
  }

  /**
   * Ends whatever sessions the request carries: the bearer's and the cookie's (normally one session, but a
   * stale cookie from an earlier sign-in must not outlive a sign-out either).
   */
  async revokeRequestSessions(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const cookie = request.cookies?.[this.cookieName];
    const conditions = [];
    if (bearer && bearer.length <= 200) conditions.push(eq(sessions.bearerHash, sha256(bearer)));
    if (cookie && cookie.length <= 200) conditions.push(eq(sessions.cookieHash, sha256(cookie)));
    if (request.auth) conditions.push(eq(sessions.id, request.auth.sessionId));
    if (conditions.length) await this.db.delete(sessions).where(or(...conditions));
  }

  /** Ends every session of a user, except optionally the one making the request. */
  async revokeAllForUser(userId: number, exceptSessionId?: number, tx: DbOrTx = this.db): Promise<void> {
    const where =
      exceptSessionId === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId));
    await tx.delete(sessions).where(where);
  }

  async purgeExpired(): Promise<void> {
    const now = this.clock.now();
    await this.db
      .delete(sessions)
      .where(
        sql`${sessions.expiresAt} <= ${now} or ${sessions.lastSeenAt} <= ${new Date(now.getTime() - SESSION_IDLE_MS)}`,
      );
  }

  setCookie(reply: FastifyReply, issued: IssuedSession): void {
    reply.setCookie(this.cookieName, issued.cookieToken, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookies,
      path: '/',
      expires: issued.expiresAt,
    });
  }

  clearCookie(reply: FastifyReply): void {
    reply.clearCookie(this.cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secureCookies });
  }
}

export interface SessionPluginOptions {
  db: Db;
  clock: Clock;
  random: Random;
  secureCookies: boolean;
}

/**
 * The signed-in caller. Routes guarded by `app.requireUser` or `app.requireAdmin` read their caller through
 * this instead of asserting `request.auth` is set, so a route that lost its guard answers 401, never a 500.
 */
export function requireUser(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** Resolves the caller on every API request and offers `requireUser` / `requireAdmin` guards. */
export const sessionPlugin = fp<SessionPluginOptions>(async (app: FastifyInstance, opts) => {
  const service = new SessionService(opts.db, opts.clock, opts.random, opts.secureCookies);
  app.decorate('sessions', service);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    // Public reads answer the same to everyone: looking the caller up would be database work for nothing.
    if (request.routeOptions.config?.publicRead) return;
    if (request.url.startsWith('/api/') || request.url.startsWith('/pay/')) {
      request.auth = await service.resolve(request);
    }
  });
  app.decorate('requireUser', async (request: FastifyRequest) => {
    requireUser(request);
  });
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    if (requireUser(request).role !== 'admin') throw forbidden('Administrator access required');
  });
});
