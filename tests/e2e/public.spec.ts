import { expect, type Page } from '@playwright/test';
import { blogPosts } from '../../src/server/db/seed/content';
import { expectToast, waitForMail, test } from './support';

const VIEWPORTS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

const POST_SLUG = 'on-writing-brothers';

// The site's CSP rightly forbids inline scripts; axe-core is injected by the test, so the test browser
// alone skips the policy.
test.use({ bypassCSP: true });

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

const PAGES: Array<{ path: string; ready: (page: Page) => Promise<void> }> = [
  {
    path: '/',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'What We Owe the Dead' })).toBeVisible();
      await expect(page.getByText('Sophie Marchetti')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'The Quiet Inheritance', exact: true })).toBeVisible();
      await expect(page.locator('#blog-teaser').getByRole('article')).toHaveCount(3);
    },
  },
  {
    path: '/blog',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
      // Other journeys may publish posts on the same server; every seeded post must be listed.
      for (const post of blogPosts) {
        await expect(page.getByRole('article').filter({ hasText: post.title })).toHaveCount(1);
      }
    },
  },
  {
    path: `/blog/${POST_SLUG}`,
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'On Writing Brothers' })).toBeVisible();
      await expect(page.getByTestId('post-content')).toBeVisible();
      await expect(page.getByText('Related to What We Owe the Dead')).toBeVisible();
      await expect(page.getByText(/book #\d+/)).toHaveCount(0);
    },
  },
  {
    path: '/this-page-does-not-exist',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    },
  },
];

test.describe('public pages have no axe-core violations', () => {
  for (const viewport of VIEWPORTS) {
    for (const target of PAGES) {
      test(`${target.path} at ${viewport.name} width`, async ({ page }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.goto(target.path);
        await target.ready(page);
        const violations = await axeViolations(page);
        expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
      });
    }
  }

  test('a missing blog post shows the error state without violations', async ({ page }) => {
    const res = await page.goto('/blog/no-such-post');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Error Loading Blog Post' })).toBeVisible();
    await expect(page.getByText("We couldn't find the blog post you're looking for.")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test('the cover gallery and its lightbox work by keyboard', async ({ page }) => {
  await page.goto('/#cover-gallery');
  const gallery = page.locator('#cover-gallery');
  const title = gallery.getByRole('heading', { level: 3 });
  await expect(title).toHaveText('eBook Edition');

  const main = gallery.getByRole('button', { name: /View larger:/ });
  await main.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(title).toHaveText('Paperback Edition');
  await page.keyboard.press('ArrowRight');
  await expect(title).toHaveText('eBook Edition');

  // Tab reaches Previous and Next; both wrap around.
  await page.keyboard.press('Tab');
  await expect(gallery.getByRole('button', { name: 'Previous cover' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(title).toHaveText('Paperback Edition');
  await page.keyboard.press('Tab');
  await expect(gallery.getByRole('button', { name: 'Next cover' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(title).toHaveText('eBook Edition');

  // Thumbnails are buttons in the tab order.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(gallery.getByRole('button', { name: 'Show Hardcover — Full Jacket' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(title).toHaveText('Hardcover — Full Jacket');

  // The main image opens the lightbox; Escape closes it and focus returns.
  await main.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Hardcover — Full Jacket' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('img')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(main).toBeFocused();

  // ... and the Close button closes it too, by keyboard.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
});

test.describe('crawlers that run no JavaScript see the head tags', () => {
  const jsonLd = (html: string) =>
    [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));

  test('the home page HTML has Open Graph, Twitter and a Book with offers and rating', async ({ request, baseURL }) => {
    const res = await request.get('/');
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="What We Owe the Dead | Callum Reyes" />');
    expect(html).toContain(`<meta property="og:url" content="${baseURL}/" />`);
    expect(html).toMatch(/<meta property="og:image" content="[^"]+\/images\/og-image\.png" \/>/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toContain(`<link rel="canonical" href="${baseURL}/" />`);
    const [book] = jsonLd(html);
    expect(book['@type']).toBe('Book');
    expect(book.offers).toHaveLength(4);
    expect(book.offers.every((o: { priceCurrency: string }) => o.priceCurrency === 'GBP')).toBe(true);
    // The early-reader quotes are shown, but only approved verified reviews make a rating (decision 0085).
    expect(book.aggregateRating).toBeUndefined();
  });

  test('a post HTML has its own Open Graph tags and a BlogPosting', async ({ request, baseURL }) => {
    const res = await request.get(`/blog/${POST_SLUG}`);
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="On Writing Brothers" />');
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain(`<link rel="canonical" href="${baseURL}/blog/${POST_SLUG}" />`);
    const [posting] = jsonLd(html);
    expect(posting).toMatchObject({ '@type': 'BlogPosting', headline: 'On Writing Brothers' });
    expect((await request.get('/blog/no-such-post')).status()).toBe(404);
  });

  test('sitemap.xml, robots.txt and the RSS feed are served', async ({ request }) => {
    expect(await (await request.get('/sitemap.xml')).text()).toContain(`/blog/${POST_SLUG}</loc>`);
    expect(await (await request.get('/robots.txt')).text()).toContain('Sitemap:');
    expect(await (await request.get('/rss.xml')).text()).toContain('<rss version="2.0"');
  });
});

test.describe('home page journeys', () => {
  test('subscribing mails a welcome whose unsubscribe link works', async ({ page }) => {
    const email = `circle_${Date.now().toString(36)}@example.com`;
    await page.goto('/#newsletter-section');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expectToast(page, 'Subscribed Successfully');
    await expect(page.getByLabel('Email address')).toHaveValue('');

    const mail = await waitForMail(email, /Welcome to the Thriller Circle/);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const unfolded = mail.raw.replace(/\r?\n[ \t]+/g, ' ');
    expect(unfolded).toMatch(/^List-Unsubscribe: <https?:\/\/[^>]+\/api\/newsletter\/unsubscribe\?/m);
    // The body is quoted-printable (decoded by waitForMail); headers are not, so the link is read from the body.
    const link = /one click: (https?:\/\/\S+)/.exec(mail.raw)?.[1];
    expect(link).toBeTruthy();
    // Opening the link asks; the reader's button press unsubscribes.
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Leave the Thriller Circle?' })).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You have been unsubscribed' })).toBeVisible();
  });

  test('the waitlist button leads to the newsletter email box', async ({ page }) => {
    await page.goto('/#upcoming');
    await page.getByRole('button', { name: 'Join the Waitlist' }).click();
    await expect(page.getByLabel('Email address')).toBeFocused();
  });

  test('the teaser player is only embedded on demand, from youtube-nocookie', async ({ page }) => {
    await page.route('https://www.youtube-nocookie.com/**', (route) => route.fulfill({ status: 200, body: '<p>player</p>', contentType: 'text/html' }));
    await page.goto('/#upcoming');
    await expect(page.getByRole('button', { name: /Play the teaser/ })).toBeVisible();
    await expect(page.locator('iframe')).toHaveCount(0);
    await page.getByRole('button', { name: /Play the teaser/ }).click();
    await expect(page.locator('iframe')).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\//);
  });

  test('demo Login signs in the demo reader and Logout signs out', async ({ page }) => {
    await page.goto('/#newsletter-section');
    await page.getByRole('button', { name: 'Demo Login' }).click();
    await expectToast(page, 'Login Successful');
    const section = page.locator('#newsletter-section');
    await section.getByRole('button', { name: 'Logout' }).click();
    await expectToast(page, 'Logout Successful');
    await expect(section.getByRole('button', { name: 'Demo Login' })).toBeVisible();
  });

  test('the contact form sends a message to the author', async ({ page }) => {
    await page.goto('/#contact');
    const form = page.getByRole('form', { name: 'Contact the author' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Form Incomplete');
    await form.getByLabel('Name').fill('Journey Reader');
    await form.getByLabel('Email').fill('journey.reader@example.com');
    await form.getByLabel('Subject').selectOption('Book Club Appearance');
    await form.getByLabel('Message').fill('Would you visit our book club in York?');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expectToast(page, 'Message Sent');
    await expect(form.getByLabel('Name')).toHaveValue('');
    const mail = await waitForMail('author@localhost', /Would you visit our book club in York\?/);
    expect(mail.raw).toContain('journey.reader@example.com');
  });

  test('copy link shows "Copied!" and leaving the home page restores the default title', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/#excerpts');
    const share = page.getByRole('group', { name: 'Share the excerpt' });
    await share.getByRole('button', { name: 'Copy Link' }).click();
    await expect(share.getByRole('button', { name: 'Copied!' })).toBeVisible();
    await expect(share.getByRole('button', { name: 'Copy Link' })).toBeVisible({ timeout: 4000 });
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute('content', /thriller/);
    await page.getByRole('link', { name: 'View All Posts' }).click();
    await expect(page).toHaveTitle('Blog | What We Owe the Dead');
    await page.goBack();
    await expect(page).toHaveTitle('What We Owe the Dead | Callum Reyes');
  });
});
