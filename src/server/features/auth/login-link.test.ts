import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LINK_ANSWER } from '@shared/schemas/login-link';
import { loginLinks, users } from '../../db/schema';
import { createTestApp, createUser, TestAgent, type TestApp } from '../../test/helpers';
import { INVALID_LOGIN_LINK } from './login-link-service';
import { usernameFromEmail } from './service';
import { outboxFor, waitForOutbox } from './test-support';

let ipCounter = 0;
const freshIp = () => `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** The sign-in link's page address and token, read from a mail body. */
function parseLoginLink(text: string): { url: URL; token: string } {
  const match = text.match(/https?:\/\/\S+\/login-link\?\S+/);
  if (!match) throw new Error('no sign-in link in mail');
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token') ?? '' };
}

describe('sign-in by emailed link', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { PUBLIC_URL: 'https://book.example.com' } });
  });
  afterAll(() => t.close());

  const ask = (body: Record<string, unknown>, ip = freshIp(), on = t) =>
    new TestAgent(on.app).request({ method: 'POST', url: '/api/users/login-link', payload: body, remoteAddress: ip });

  async function linkFor(email: string, body: Record<string, unknown> = {}, count = 1) {
    const res = await ask({ email, ...body });
    expect(res.statusCode).toBe(200);
    const [mail] = await waitForOutbox(t.database.db, email, 'login-link', count);
    return { mail, ...parseLoginLink(mail.text) };
  }

  const use = (agent: TestAgent, token: string) =>
    agent.request({ method: 'POST', url: '/api/users/login-link/use', payload: { token }, remoteAddress: freshIp() });

  it('answers a known and an unknown address alike, and mails only the known one', async () => {
    const user = await createUser(t.database);
    const known = await ask({ email: user.email });
    // The unknown address is asked of a second instance on the same database: its close waits for the work
    // the request started after its answer, so what that work did (nothing) can be read without a guess.
    const other = await createTestApp({ seed: false, database: t.database, clock: t.clock, env: { PUBLIC_URL: 'https://book.example.com' } });
    let unknown: Awaited<ReturnType<typeof ask>>;
    try {
      unknown = await ask({ email: 'nobody-here@example.com' }, freshIp(), other);
    } finally {
      await other.close();
    }
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(LOGIN_LINK_ANSWER);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json().message).toBe(
      'Check your email: if we can sign you in with that address, a link is on its way. It is valid for 15 minutes.',
    );
    const [mail] = await waitForOutbox(t.database.db, user.email, 'login-link');
    expect(mail.subject).toBe('Your sign-in link for What We Owe the Dead');
    expect(mail.text).toContain('valid for 15 minutes and works once');
    // The unknown address's work is over: no mail and no account.
    expect(await outboxFor(t.database.db, 'nobody-here@example.com')).toHaveLength(0);
    expect(await t.database.db.select().from(users).where(eq(users.email, 'nobody-here@example.com'))).toHaveLength(0);
  });

  it('refuses a malformed address with the form message and changes nothing', async () => {
    const res = await ask({ email: 'not-an-address' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.email).toBe('Please enter a valid email address');
    const bad = await ask({ email: 'a@example.com', returnTo: 'admin' });
    expect(bad.statusCode).toBe(400);
    expect(await t.database.db.select().from(loginLinks).where(eq(loginLinks.email, 'a@example.com'))).toHaveLength(0);
  });

  it('links to PUBLIC_URL/login-link, whose page signs no one in; the button post signs in once', async () => {
    const user = await createUser(t.database);
    const { url, token, mail } = await linkFor(user.email, { returnTo: 'purchase' }, 1);
    expect(url.origin + url.pathname).toBe('https://book.example.com/login-link');
    expect(url.searchParams.get('returnTo')).toBe('purchase');
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(mail.html).toContain('Sign In');
    const [stored] = await t.database.db.select().from(loginLinks).where(eq(loginLinks.email, user.email));
    expect(stored.tokenHash).not.toContain(token);

    // A mail scanner opens the page (and a HEAD): the link stays unused and nobody is signed in.
    const scanner = new TestAgent(t.app);
    const page = await scanner.get(url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    await scanner.request({ method: 'HEAD', url: url.pathname + url.search });
    expect((await scanner.get('/api/users/check-auth')).json().isAuthenticated).toBe(false);
    const [still] = await t.database.db.select().from(loginLinks).where(eq(loginLinks.id, stored.id));
    expect(still.usedAt).toBeNull();

    const reader = new TestAgent(t.app);
    const signIn = await use(reader, token);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ success: true, user: { id: user.id, role: 'user' }, message: 'Login successful' });
    expect(typeof signIn.json().token).toBe('string');
    // The session cookie alone is enough, as after a password sign-in.
    const status = await reader.get('/api/users/check-auth', { auth: 'cookie' });
    expect(status.json()).toEqual({ isAuthenticated: true, user: { id: user.id, role: 'user' } });

    // A second use, from anyone, is refused.
    const again = await use(new TestAgent(t.app), token);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVALID_LOGIN_LINK);
    const wrong = await use(new TestAgent(t.app), 'not-a-real-token');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(INVALID_LOGIN_LINK);
  });

  it('expires 15 minutes after it was sent (injected clock)', async () => {
    const user = await createUser(t.database);
    const first = await linkFor(user.email, {}, 1);
    t.clock.advance(15 * 60_000 - 1000);
    expect((await use(new TestAgent(t.app), first.token)).statusCode).toBe(200);

    const second = await linkFor(user.email, {}, 2);
    t.clock.advance(15 * 60_000);
    const late = await use(new TestAgent(t.app), second.token);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(INVALID_LOGIN_LINK);
    const [row] = await t.database.db.select().from(loginLinks).where(sql`${loginLinks.email} = ${user.email} and ${loginLinks.usedAt} is null`);
    expect(row).toBeDefined();
  });

  it('limits requests per address and per IP, with the wait in the message', async () => {
    // Per email address from one IP: 3 an hour.
    const ip = freshIp();
    const email = 'limited-reader@example.com';
    for (let i = 0; i < 3; i += 1) expect((await ask({ email }, ip)).statusCode).toBe(200);
    const fourth = await ask({ email }, ip);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toBe('Too many sign-in link requests. Please wait 60 minutes and try again.');
    expect(fourth.headers['retry-after']).toBe('3600');

    // Per email address overall: 10 an hour, whatever the IPs.
    const spread = 'spread-reader@example.com';
    for (let i = 0; i < 10; i += 1) expect((await ask({ email: spread })).statusCode).toBe(200);
    expect((await ask({ email: spread })).statusCode).toBe(429);

    // Per IP: 10 in 15 minutes, whatever the addresses.
    const busy = freshIp();
    for (let i = 0; i < 10; i += 1) expect((await ask({ email: `many${i}@example.com` }, busy)).statusCode).toBe(200);
    const over = await ask({ email: 'many-more@example.com' }, busy);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe('Too many sign-in link requests. Please wait 15 minutes and try again.');
    t.clock.advance(15 * 60_000 + 1000);
    expect((await ask({ email: 'many-more@example.com' }, busy)).statusCode).toBe(200);
  });

  it('from a purchase, makes a passwordless account for a new address once the link is used', async () => {
    const email = 'Elodie.New+books@example.com';
    const res = await ask({ email, returnTo: 'purchase' });
    expect(res.json()).toEqual(LOGIN_LINK_ANSWER);
    const [mail] = await waitForOutbox(t.database.db, email, 'login-link');
    expect(mail.text).toContain('create your What We Owe the Dead account and sign in');
    // Asking made no account: only using the link, which proves the address, does.
    expect(await t.database.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`)).toHaveLength(0);

    const reader = new TestAgent(t.app);
    const signIn = await use(reader, parseLoginLink(mail.text).token);
    expect(signIn.statusCode).toBe(200);
    const [account] = await t.database.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
    expect(account.passwordHash).toBeNull();
    expect(account.username).toBe('Elodie.Newbooks');
    expect(signIn.json().user).toEqual({ id: account.id, role: 'user' });

    const profile = await reader.get(`/api/users/${account.id}`);
    expect(profile.json()).toMatchObject({ username: 'Elodie.Newbooks', linkOnly: true });

    // No password signs in to it, not even an empty-looking guess.
    const guess = await new TestAgent(t.app).request({
      method: 'POST',
      url: '/api/users/login',
      payload: { username: email, password: 'anything' },
      remoteAddress: freshIp(),
    });
    expect(guess.statusCode).toBe(401);

    // Account Details: a first password, set without a current one, once.
    const weak = await reader.post(`/api/users/${account.id}/set-password`, { newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    const set = await reader.post(`/api/users/${account.id}/set-password`, { newPassword: 'Harbour-Lights-42!' });
    expect(set.statusCode).toBe(200);
    expect(set.json().message).toBe('Your password has been set. You can now also sign in with it.');
    expect((await reader.get(`/api/users/${account.id}`)).json().linkOnly).toBe(false);
    const twice = await reader.post(`/api/users/${account.id}/set-password`, { newPassword: 'Other-Harbour-43!' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This account already has a password. Use Change Password instead.');
    const login = await new TestAgent(t.app).request({
      method: 'POST',
      url: '/api/users/login',
      payload: { username: email, password: 'Harbour-Lights-42!' },
      remoteAddress: freshIp(),
    });
    expect(login.statusCode).toBe(200);
    expect(await outboxFor(t.database.db, email, 'password-changed')).toHaveLength(1);
  });

  it('sets a first password only on the caller’s own account, and never over an existing password', async () => {
    const owner = await createUser(t.database);
    const stranger = new TestAgent(t.app);
    expect((await stranger.post(`/api/users/${owner.id}/set-password`, { newPassword: 'Harbour-Lights-42!' })).statusCode).toBe(401);
    const signedIn = new TestAgent(t.app);
    const login = await signedIn.request({
      method: 'POST',
      url: '/api/users/login',
      payload: { username: owner.username, password: owner.password },
      remoteAddress: freshIp(),
    });
    expect(login.statusCode).toBe(200);
    const over = await signedIn.post(`/api/users/${owner.id}/set-password`, { newPassword: 'Harbour-Lights-42!' });
    expect(over.statusCode).toBe(409);
    const other = await createUser(t.database);
    expect((await signedIn.post(`/api/users/${other.id}/set-password`, { newPassword: 'Harbour-Lights-42!' })).statusCode).toBe(403);
  });

  it('gives a new account a free username when the address’s name is taken', async () => {
    await createUser(t.database, { username: 'marlowe', email: 'marlowe@old.example.com' });
    const { token } = await linkFor('marlowe@example.com', { returnTo: 'gift' });
    expect((await use(new TestAgent(t.app), token)).statusCode).toBe(200);
    const [account] = await t.database.db.select().from(users).where(eq(users.email, 'marlowe@example.com'));
    expect(account.username).toMatch(/^marlowe\d{3,4}$/);
    expect(usernameFromEmail('...@example.com')).toBe('reader');
  });

  it('lets a link-made account change its derived username, under the sign-up rules', async () => {
    const { token } = await linkFor('quill.reader@example.com', { returnTo: 'purchase' });
    const reader = new TestAgent(t.app);
    const signIn = await use(reader, token);
    const id = signIn.json().user.id as number;
    expect((await reader.get(`/api/users/${id}`)).json().username).toBe('quill.reader');

    await createUser(t.database, { username: 'Taken_Name' });
    const taken = await reader.post(`/api/users/${id}/username`, { username: 'taken_name' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('That username is already taken. Please choose another.');
    const bad = await reader.post(`/api/users/${id}/username`, { username: 'no spaces' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.username).toBe('Username may contain letters, numbers, dots, dashes and underscores');

    const ok = await reader.post(`/api/users/${id}/username`, { username: 'QuillAndInk' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Your username is now QuillAndInk.');
    expect((await reader.get(`/api/users/${id}`)).json().username).toBe('QuillAndInk');
    const other = await createUser(t.database);
    expect((await reader.post(`/api/users/${other.id}/username`, { username: 'Hijack' })).statusCode).toBe(403);
  });
});
