import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, blogPosts } from '../../db/schema';
import { type TestAgent, type TestApp } from '../../test/helpers';
import { unseededAppWithAdmin } from '../admin/test-fixtures';

const draft = {
  title: 'Notes From the Coast Road',
  slug: '',
  excerpt: 'Where the first chapter came from.',
  content: '<p>Hello <strong>readers</strong></p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">bad</a>',
  tags: ['Writing'],
};

describe('admin posts API', () => {
  let t: TestApp;
  let agent: TestAgent;
  beforeAll(async () => {
    ({ t, agent } = await unseededAppWithAdmin());
  });
  afterAll(async () => t.close());

  it('creates a draft with a slug from the title and sanitized HTML; the public blog does not show it', async () => {
    const res = await agent.post('/api/admin/posts', draft);
    expect(res.statusCode).toBe(201);
    const post = res.json();
    expect(post).toMatchObject({ slug: 'notes-from-the-coast-road', isPublished: false, tags: ['Writing'] });
    expect(post.content).toContain('<strong>readers</strong>');
    for (const bad of ['<script', 'onerror', 'javascript:']) expect(post.content).not.toContain(bad);
    const [stored] = await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, post.id));
    expect(stored.content).toBe(post.content);

    expect((await t.app.inject({ url: '/api/blog' })).json()).toEqual([]);
    expect((await t.app.inject({ url: `/api/blog/${post.slug}` })).statusCode).toBe(404);
    const list = (await agent.get('/api/admin/posts')).json().items;
    expect(list.map((p: { slug: string }) => p.slug)).toContain(post.slug);
  });

  it('publishes and unpublishes; the public blog follows', async () => {
    const post = (await agent.post('/api/admin/posts', { ...draft, title: 'Published Soon', slug: 'published-soon' })).json();
    t.clock.advance(60_000);
    const res = await agent.post(`/api/admin/posts/${post.id}/publish`, { isPublished: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().isPublished).toBe(true);
    expect(res.json().publishedAt).toBe(t.clock.now().toISOString());
    const publicList = (await t.app.inject({ url: '/api/blog' })).json();
    expect(publicList.map((p: { id: string }) => p.id)).toEqual(['published-soon']);
    expect((await t.app.inject({ url: '/api/blog/published-soon' })).statusCode).toBe(200);

    await agent.post(`/api/admin/posts/${post.id}/publish`, { isPublished: false });
    expect((await t.app.inject({ url: '/api/blog' })).json()).toEqual([]);
    const actions = (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, String(post.id)))).map((e) => e.action);
    expect(actions).toEqual(['post.create', 'post.publish', 'post.unpublish']);
  });

  it('edits a post and refuses a slug already taken with 409', async () => {
    const a = (await agent.post('/api/admin/posts', { ...draft, title: 'Alpha', slug: 'alpha' })).json();
    const b = (await agent.post('/api/admin/posts', { ...draft, title: 'Beta', slug: 'beta' })).json();
    const dup = await agent.post('/api/admin/posts', { ...draft, title: 'Alpha again', slug: 'alpha' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ message: 'A post with this slug already exists', fields: { slug: expect.any(String) } });
    const clash = await agent.put(`/api/admin/posts/${b.id}`, { ...draft, title: 'Beta', slug: 'alpha' });
    expect(clash.statusCode).toBe(409);
    const ok = await agent.put(`/api/admin/posts/${a.id}`, { ...draft, title: 'Alpha edited', slug: 'alpha', content: '<h2>New</h2><p onclick="x()">text</p>' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ title: 'Alpha edited', content: '<h2>New</h2><p>text</p>' });
    expect((await agent.get(`/api/admin/posts/${a.id}`)).json().title).toBe('Alpha edited');
  });

  it('validates the input', async () => {
    const res = await agent.post('/api/admin/posts', { ...draft, title: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Title is required');
    const slug = await agent.post('/api/admin/posts', { ...draft, slug: 'Not A Slug' });
    expect(slug.json().message).toBe('Slug may contain lower-case letters, numbers and dashes');
    const onlyScript = await agent.post('/api/admin/posts', { ...draft, title: 'Empty', content: '<script>x</script>' });
    expect(onlyScript.json()).toMatchObject({ message: 'Content is required' });
    expect((await agent.get('/api/admin/posts/999999')).statusCode).toBe(404);
  });
});
