import { escapeMarkup } from '../../platform/http/markup';

const page = (title: string, body: string, home: string) => `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" /><title>${title} | What We Owe the Dead</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#09080a;color:#ede5d5;font-family:Georgia,serif}
main{max-width:32rem;padding:2rem;text-align:center}h1{color:#f7f1e6;font-size:1.75rem}a{color:#ef5a60}
button{font:inherit;font-size:1rem;padding:.7rem 1.4rem;border:0;border-radius:.4rem;background:#b3141c;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #ef5a60;outline-offset:3px}</style></head>
<body><main><h1>${title}</h1>${body}<p><a href="${home}">Return to the website</a></p></main></body></html>`;

/** A page of the site's own look for a link from a mail: a title, a paragraph, and the way back. */
export const mailLinkPage = (title: string, body: string, publicUrl: URL) => page(title, body, new URL('/', publicUrl).toString());

export type UnsubscribeView = 'confirm' | 'done' | 'invalid';

/**
 * The pages behind the unsubscribe link in a mail. Opening the link only asks (mail scanners and link
 * prefetchers open links too); the reader's button press posts the signed link and unsubscribes.
 */
export function unsubscribePage(view: UnsubscribeView, publicUrl: URL, actionUrl = ''): string {
  const home = new URL('/', publicUrl).toString();
  if (view === 'confirm') {
    return page(
      'Leave the Thriller Circle?',
      `<p>You will no longer receive the Thriller Circle newsletter.</p><form method="post" action="${escapeMarkup(actionUrl)}"><button type="submit">Unsubscribe</button></form>`,
      home,
    );
  }
  return view === 'done'
    ? page('You have been unsubscribed', '<p>You will no longer receive the Thriller Circle newsletter. You can join again at any time from the website.</p>', home)
    : page('Invalid unsubscribe link', '<p>This unsubscribe link is not valid. Please use the link from your most recent email.</p>', home);
}
