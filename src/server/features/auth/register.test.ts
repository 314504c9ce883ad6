import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema';
import { sha256 } from '../../platform/security/crypto';
import { createTestApp, createUser, TestAgent, type TestApp } from '../../test/helpers';
import { CONTROL_CHARACTERS_MESSAGE } from '@shared/schemas/common';
import { USERNAME_LATIN_ONLY } from '@shared/usernames';
import { COMMON_PASSWORD_MESSAGE } from './common-passwords';
import { EMAIL_TAKEN, USERNAME_TAKEN } from './service';

const valid = { email: 'ada@example.com', username: 'ada', displayName: 'Ada L', password: 'Quiet-River-42!' };

describe('POST /api/users/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it('creates the account, answers 201 {id, token, message} and starts a session (cookie and bearer)', async () => {
    const agent = new TestAgent(t.app);
    const res = await agent.post('/api/users/register', valid);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['id', 'message', 'token']);
    expect(body.message).toBe('Registration successful');
    const cookie = res.cookies.find((c) => c.name === 'sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.value).not.toBe(body.token);

    // Both credentials sign the same session in; only their hashes are stored.
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.userId, body.id));
    expect(row.cookieHash).toBe(sha256(cookie.value));
    expect(row.bearerHash).toBe(sha256(body.token));
    const viaCookie = await agent.get('/api/users/check-auth', { auth: 'cookie' });
    expect(viaCookie.json()).toEqual({ isAuthenticated: true, user: { id: body.id, role: 'user' } });
    const bearerOnly = new TestAgent(t.app);
    bearerOnly.bearer = body.token;
    expect((await bearerOnly.get('/api/users/check-auth')).json().isAuthenticated).toBe(true);

    // argon2id with at least 19 MiB and 2 passes.
    const [user] = await t.database.db.select().from(users).where(eq(users.id, body.id));
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user.role).toBe('user');
  });

  it('answers 409 naming the duplicate: username (any case) or email (any case)', async () => {
    const agent = new TestAgent(t.app);
    const byName = await agent.post('/api/users/register', { ...valid, email: 'other@example.com', username: 'ADA' });
    expect(byName.statusCode).toBe(409);
    expect(byName.json()).toMatchObject({ message: USERNAME_TAKEN, fields: { username: USERNAME_TAKEN } });
    expect(byName.json().message).toMatch(/username/i);
    const byEmail = await agent.post('/api/users/register', { ...valid, username: 'ada2', email: 'ADA@example.com' });
    expect(byEmail.statusCode).toBe(409);
    expect(byEmail.json().message).toBe(EMAIL_TAKEN);
    expect(byEmail.json().message).toMatch(/email/i);
  });

  it('refuses two racing sign-ups for the same name with one 409', async () => {
    const a = new TestAgent(t.app);
    const b = new TestAgent(t.app);
    const [r1, r2] = await Promise.all([
      a.post('/api/users/register', { ...valid, username: 'racer', email: 'racer1@example.com' }),
      b.post('/api/users/register', { ...valid, username: 'Racer', email: 'racer2@example.com' }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([201, 409]);
  });

  it.each([
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ email: 'a@b.c' }, 'email', 'Please enter a valid email address'],
    [{ username: '' }, 'username', 'Username is required'],
    [{ password: '' }, 'password', 'Password is required'],
    [{ password: 'Short1!' }, 'password', 'Password must be at least 8 characters'],
    [{ displayName: '' }, 'displayName', 'Display name is required'],
    [{ displayName: 'Ada\u0001 L' }, 'displayName', CONTROL_CHARACTERS_MESSAGE],
    [{ displayName: 'Ada\nL' }, 'displayName', CONTROL_CHARACTERS_MESSAGE],
    [{ displayName: 'Ada L\ufffe' }, 'displayName', CONTROL_CHARACTERS_MESSAGE],
  ])('validates %o with the register form message', async (patch, field, message) => {
    const res = await new TestAgent(t.app).post('/api/users/register', { ...valid, username: 'v1', email: 'v1@example.com', ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { [field]: message } });
  });

  it('refuses one of the most common passwords with a clear message', async () => {
    const res = await new TestAgent(t.app).post('/api/users/register', {
      ...valid,
      username: 'commoner',
      email: 'commoner@example.com',
      password: 'Password123',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: COMMON_PASSWORD_MESSAGE, fields: { password: COMMON_PASSWORD_MESSAGE } });
  });

  it('keeps long Unicode passwords whole: about 200 characters, never truncated', async () => {
    const long = `${'Ünïcødé-密码-🔐-'.repeat(14)}end`;
    expect(long.length).toBeGreaterThan(190);
    const agent = new TestAgent(t.app);
    const res = await agent.post('/api/users/register', { ...valid, username: 'longpw', email: 'longpw@example.com', password: long });
    expect(res.statusCode).toBe(201);
    const ok = await new TestAgent(t.app).post('/api/users/login', { username: 'longpw', password: long });
    expect(ok.statusCode).toBe(200);
    const truncated = await new TestAgent(t.app).post('/api/users/login', { username: 'longpw', password: long.slice(0, -1) });
    expect(truncated.statusCode).toBe(401);
    const lastCharDiffers = await new TestAgent(t.app).post('/api/users/login', {
      username: 'longpw',
      password: `${long.slice(0, -1)}x`,
    });
    expect(lastCharDiffers.statusCode).toBe(401);
  });

  it('never answers with a password hash', async () => {
    await createUser(t.database, { username: 'hashcheck' });
    const res = await new TestAgent(t.app).post('/api/users/register', { ...valid, username: 'nohash', email: 'nohash@example.com' });
    expect(res.body).not.toMatch(/argon2|passwordHash|password_hash/);
  });
});

describe('look-alike usernames (decision 0014)', () => {
  let t: TestApp;
  let n = 0;
  const register = (username: string) => {
    n += 1;
    return new TestAgent(t.app).post('/api/users/register', { ...valid, username, email: `look${n}@example.com` });
  };
  const stored = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0].username;
  const count = async () => (await t.database.db.select({ id: users.id }).from(users)).length;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    // Made before the rule, straight in the database: no skeleton stored yet.
    await createUser(t.database, { username: 'siteadmin' });
    await createUser(t.database, { username: 'mаrta' }); // Cyrillic "а", from before the rule
  });
  afterAll(() => t.close());

  it('refuses a Cyrillic look-alike of an existing name, and a name mixing scripts, changing nothing', async () => {
    const before = await count();
    for (const name of ['siteаdmin', 'ѕіtеаdmіn', 'bobΑlpha', 'anna誰']) {
      const res = await register(name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().fields).toEqual({ username: USERNAME_LATIN_ONLY });
    }
    expect(await count()).toBe(before);
  });

  it('folds full-width letters to plain ones: a full-width copy of a name is taken, a new one is stored plain', async () => {
    const copy = await register('ｓｉｔｅａｄｍｉｎ');
    expect(copy.statusCode).toBe(409);
    expect(copy.json()).toMatchObject({ message: USERNAME_TAKEN, fields: { username: USERNAME_TAKEN } });
    const fresh = await register('ｒｅａｄｅｒ７');
    expect(fresh.statusCode).toBe(201);
    expect(await stored(fresh.json().id)).toBe('reader7');
    // Its owner signs in typing either form.
    for (const typed of ['reader7', 'ｒｅａｄｅｒ７']) {
      const login = await new TestAgent(t.app).post('/api/users/login', { username: typed, password: valid.password });
      expect(login.statusCode, typed).toBe(200);
    }
  });

  it('answers a look-alike of an existing name as "already taken", older accounts included', async () => {
    for (const name of ['siteadrnin', 's1teadmin', 'SITEADMlN', 'marta', 'rnarta']) {
      const res = await register(name);
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toMatchObject({ message: USERNAME_TAKEN, fields: { username: USERNAME_TAKEN } });
    }
  });

  it('still registers ordinary names, accented Latin included, and tells accents apart', async () => {
    for (const name of ['josé', 'zoë_m', 'Łukasz.K', 'ana-maría', 'Søren42', 'jose', 'nguyễn']) {
      const res = await register(name);
      expect(res.statusCode, name).toBe(201);
      expect(await stored(res.json().id)).toBe(name.normalize('NFC'));
    }
  });
});
