import type { IndexHtmlTransformContext, Plugin, Rolldown } from 'vite';

/**
 * main.tsx loads the app's code (boot.tsx) with a dynamic import, so Vite does not announce it in
 * index.html. A page whose root arrives empty needs that code at once, so the built index.html asks
 * for it and everything it imports with `<link rel="modulepreload">`, fetched beside the entry instead
 * of after it. The server removes these links from the pages it renders itself, whose code waits for
 * the first paint (platform/http/spa.ts).
 */
export function bootPreload(entry = 'boot.tsx'): Plugin {
  return {
    name: 'boot-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html: string, ctx: IndexHtmlTransformContext) {
        if (!ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
        // The app's code may share its chunk with the framework (vite.config.ts groups them).
        const boot = chunks.find((chunk) => chunk.moduleIds.some((id) => id.endsWith(`/${entry}`)));
        if (!boot) throw new Error(`boot-preload: no chunk for ${entry}`);
        const entries = new Set(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
        const files = [boot.fileName, ...boot.imports].filter((file) => !entries.has(file));
        const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
        return html.replace(/\s*<\/head>/, () => `\n    ${links}\n  </head>`);
      },
    },
  };
}
