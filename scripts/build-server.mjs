// Bundles the server into dist/server/main.js. Most npm packages stay external and load from node_modules;
// the ORM, made of hundreds of small ESM files, is bundled in, because
// resolving and loading their files one by one was the largest part of the start-up time.
import { build } from 'esbuild';

// zod stays external: fastify-type-provider-zod checks schemas with instanceof against its own copy.
const BUNDLED = ['drizzle-orm'];

/** Keeps every bare package import external except those of the packages named. */
const externalExceptBundled = {
  name: 'external-except-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@shared')) return undefined;
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED.includes(name) ? undefined : { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: ['src/server/main.ts', 'src/server/db/migrate-cli.ts', 'src/server/backup-cli.ts', 'src/server/restore-cli.ts', 'src/server/move-to-postgres-cli.ts'],
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  plugins: [externalExceptBundled],
  sourcemap: true,
  alias: { '@shared': './src/shared' },
  logLevel: 'warning',
});
