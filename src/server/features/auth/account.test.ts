import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePasswordRules } from '@shared/schemas/auth';
import { userActivities } from '../../db/schema';
import { createTestApp, createUser, signedInAgent, TestAgent, type TestApp } from '../../test/helpers';
import { COMMON_PASSWORD_MESSAGE } from './common-passwords';
import { LIMITS } from './limits';
import { SAME_PASSWORD, WRONG_CURRENT_PASSWORD } from './account-service';

describe('GET /api/users/:userId', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it('answers the caller’s own profile, without any secret', async () => {
    const user = await createUser(t.database, { displayName: 'Mara Quinn' });
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.get(`/api/users/${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      displayName: 'Mara Quinn',
      avatarUrl: null,
      isSubscribed: false,
      role: 'user',
      points: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      linkOnly: false,
    });
    expect(res.body).not.toMatch(/argon2|password|reset/i);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('adds up the points of the caller’s own activities only', async () => {
    const user = await createUser(t.database);
    const other = await createUser(t.database);
    await t.database.db.insert(userActivities).values([
      { userId: user.id, type: 'share', platform: 'x', points: 10 },
      { userId: user.id, type: 'subscribe', points: 50 },
      { userId: other.id, type: 'share', platform: 'facebook', points: 10 },
    ]);
    const agent = await signedInAgent(t.app, user.id);
    expect((await agent.get(`/api/users/${user.id}`)).json().points).toBe(60);
    const otherAgent = await signedInAgent(t.app, other.id);
    expect((await otherAgent.get(`/api/users/${other.id}`)).json().points).toBe(10);
  });

  it('refuses another user’s profile with the same 403 whether or not it exists', async () => {
    const user = await createUser(t.database);
    const other = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const existing = await agent.get(`/api/users/${other.id}`);
    const missing = await agent.get('/api/users/999999');
    expect(existing.statusCode).toBe(403);
    expect(missing.statusCode).toBe(403);
    expect(existing.json()).toEqual(missing.json());
    expect(existing.body).not.toContain(other.username);
  });

  it('lets an admin read any profile; a missing one is 404', async () => {
    const admin = await createUser(t.database, { role: 'admin' });
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, admin.id);
    expect((await agent.get(`/api/users/${user.id}`)).json().username).toBe(user.username);
    expect((await agent.get('/api/users/999999')).statusCode).toBe(404);
  });

  it('answers 401 when signed out and 404 for a path that is not a user id', async () => {
    expect((await new TestAgent(t.app).get('/api/users/1')).statusCode).toBe(401);
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    expect((await agent.get('/api/users/not-a-number')).statusCode).toBe(404);
  });
});

describe('POST /api/users/:userId/change-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it('changes the password, keeps this session and ends every other one', async () => {
    const user = await createUser(t.database);
    const here = await signedInAgent(t.app, user.id);
    const elsewhere = await signedInAgent(t.app, user.id);
    const res = await here.post(`/api/users/${user.id}/change-password`, {
      currentPassword: user.password,
      newPassword: 'Brand-New-Secret-4',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Your password has been updated successfully' });
    expect((await here.get('/api/users/check-auth')).json().isAuthenticated).toBe(true);
    expect((await elsewhere.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
    const login = (password: string) => new TestAgent(t.app).post('/api/users/login', { username: user.username, password });
    expect((await login('Brand-New-Secret-4')).statusCode).toBe(200);
    expect((await login(user.password)).statusCode).toBe(401);
  });

  it('refuses to change another user’s password, even for an admin', async () => {
    const user = await createUser(t.database);
    const admin = await createUser(t.database, { role: 'admin' });
    for (const caller of [await createUser(t.database), admin]) {
      const agent = await signedInAgent(t.app, caller.id);
      const res = await agent.post(`/api/users/${user.id}/change-password`, {
        currentPassword: user.password,
        newPassword: 'Hijacked-Pass-1!',
      });
      expect(res.statusCode).toBe(403);
    }
    // Learns nothing about ids that do not exist either.
    const agent = await signedInAgent(t.app, user.id);
    expect((await agent.post('/api/users/999999/change-password', {})).statusCode).toBe(403);
    expect((await new TestAgent(t.app).post(`/api/users/${user.id}/change-password`, {})).statusCode).toBe(401);
    expect((await new TestAgent(t.app).post('/api/users/login', { username: user.username, password: user.password })).statusCode).toBe(200);
  });

  it('verifies the current password', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.post(`/api/users/${user.id}/change-password`, {
      currentPassword: 'Not-My-Password-1',
      newPassword: 'Brand-New-Secret-4',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: WRONG_CURRENT_PASSWORD, fields: { currentPassword: WRONG_CURRENT_PASSWORD } });
  });

  it.each([
    [{ currentPassword: '' }, 'currentPassword', 'Current password is required'],
    [{ newPassword: 'Ab1!' }, 'newPassword', 'Password must be at least 8 characters'],
    [{ newPassword: 'lowercase-only-1' }, 'newPassword', 'Password must include at least one uppercase letter'],
    [{ newPassword: 'UPPERCASE-ONLY-1' }, 'newPassword', 'Password must include at least one lowercase letter'],
    [{ newPassword: 'No-Numbers-Here' }, 'newPassword', 'Password must include at least one number'],
    [{ newPassword: 'NoSpecials123' }, 'newPassword', 'Password must include at least one special character'],
  ])('validates %o with the change-password message', async (patch, field, message) => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.post(`/api/users/${user.id}/change-password`, {
      currentPassword: user.password,
      newPassword: 'Brand-New-Secret-4',
      ...patch,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
  });

  it('refuses a common password and the current one again', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const common = await agent.post(`/api/users/${user.id}/change-password`, { currentPassword: user.password, newPassword: 'Password123!' });
    expect(common.json().message).toBe(COMMON_PASSWORD_MESSAGE);
    const same = await agent.post(`/api/users/${user.id}/change-password`, { currentPassword: user.password, newPassword: user.password });
    expect(same.json().message).toBe(SAME_PASSWORD);
  });

  it('accepts Unicode letters and digits for the character rules', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const res = await agent.post(`/api/users/${user.id}/change-password`, {
      currentPassword: user.password,
      newPassword: 'Ölçü-Şifre-٣٤-ñandú',
    });
    expect(res.statusCode).toBe(200);
  });

  it('limits wrong current passwords with a 429 that expires', async () => {
    const user = await createUser(t.database);
    const agent = await signedInAgent(t.app, user.id);
    const attempt = (currentPassword: string) =>
      agent.post(`/api/users/${user.id}/change-password`, { currentPassword, newPassword: 'Brand-New-Secret-4' });
    for (let i = 0; i < LIMITS.currentPasswordFailuresPerUser.max; i += 1) {
      expect((await attempt(`Guess-${i}-Wrong`)).statusCode).toBe(400);
    }
    const blocked = await attempt(user.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many wrong current passwords/);
    t.clock.advance(LIMITS.currentPasswordFailuresPerUser.windowMs + 1000);
    expect((await attempt(user.password)).statusCode).toBe(200);
  });
});

describe('GET /api/generate-password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());

  it('suggests a different password each time that meets the change-password rules', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const res = await t.app.inject({ url: '/api/generate-password' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { password } = res.json();
      expect(password).toHaveLength(20);
      expect(changePasswordRules.safeParse(password).success).toBe(true);
      seen.add(password);
    }
    expect(seen.size).toBe(20);
  });
});
