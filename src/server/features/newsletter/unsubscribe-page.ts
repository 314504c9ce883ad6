const page = (title: string, body: string, home: string) => `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" /><title>${title} | What We Owe the Dead</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#09080a;color:#ede5d5;font-family:Georgia,serif}
main{max-width:32rem;padding:2rem;text-align:center}h1{color:#f7f1e6;font-size:1.75rem}a{color:#ef5a60}</style></head>
<body><main><h1>${title}</h1><p>${body}</p><p><a href="${home}">Return to the website</a></p></main></body></html>`;

/** The small page a reader sees after clicking the unsubscribe link in a mail. */
export function unsubscribePage(valid: boolean, publicUrl: URL): string {
  const home = new URL('/', publicUrl).toString();
  return valid
    ? page('You have been unsubscribed', 'You will no longer receive the Thriller Circle newsletter. You can join again at any time from the website.', home)
    : page('Invalid unsubscribe link', 'This unsubscribe link is not valid. Please use the link from your most recent email.', home);
}
