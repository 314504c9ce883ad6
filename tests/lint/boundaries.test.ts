/**
 * The lint rules that keep the layers (docs/ARCHITECTURE.md): each forbidden import is linted as a file
 * at a real place in the tree and must be refused with the rule's id; allowed imports must pass.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function rulesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? m.message);
}

describe('import boundaries', () => {
  it.each([
    ['a client feature importing another feature', 'src/client/features/library/probe.ts', "import { useReadingProgress } from '@client/features/reading/api';\nexport const p = useReadingProgress;"],
    ['a client feature importing a page', 'src/client/features/library/probe.ts', "import { ProfileLibrary } from '@client/pages/profile-library';\nexport const p = ProfileLibrary;"],
    ['client lib importing a component', 'src/client/lib/probe.ts', "import { Button } from '@client/components/ui/button';\nexport const p = Button;"],
    ['a client component importing a feature', 'src/client/components/ui/probe.ts', "import { useLibrary } from '@client/features/library/api';\nexport const p = useLibrary;"],
    ['a server feature importing another feature’s inner file', 'src/server/features/site/probe.ts', "import { sanitizePostHtml } from '../blog/sanitize';\nexport const p = sanitizePostHtml;"],
    ['a server feature importing the app', 'src/server/features/site/probe.ts', "import { buildApp } from '../../app';\nexport const p = buildApp;"],
    ['platform importing a feature', 'src/server/platform/probe.ts', "import { publishedBlog } from '../features/blog/service';\nexport const p = publishedBlog;"],
    ['db importing platform', 'src/server/db/probe.ts', "import { sha256 } from '../platform/security/crypto';\nexport const p = sha256;"],
    ['config importing db', 'src/server/config.ts', "import { books } from './db/schema';\nexport const p = books;"],
    ['a route file importing the database schema', 'src/server/features/blog/probe-routes.ts', "import { blogPosts } from '../../db/schema';\nexport const p = blogPosts;"],
    ['a route file building queries', 'src/server/features/admin/probe-routes.ts', "import { eq } from 'drizzle-orm';\nexport const p = eq;"],
  ])('refuses %s', async (_name, file, code) => {
    expect(await rulesFor(file, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['a client feature importing its own files, lib and components', 'src/client/features/library/probe.ts', "import { useLibrary } from './api';\nimport { apiFetch } from '@client/lib/api-client';\nimport { Button } from '@client/components/ui/button';\nexport const p = [useLibrary, apiFetch, Button];"],
    ['a page composing features', 'src/client/pages/probe.ts', "import { useLibrary } from '@client/features/library/api';\nimport { useReadingProgress } from '@client/features/reading/api';\nexport const p = [useLibrary, useReadingProgress];"],
    ['a server feature using another feature’s service', 'src/server/features/site/probe.ts', "import { publishedBlog } from '../blog/service';\nimport { sha256 } from '../../platform/security/crypto';\nexport const p = [publishedBlog, sha256];"],
    ['platform using db', 'src/server/platform/probe.ts', "import { books } from '../db/schema';\nexport const p = books;"],
    ['a service querying the database', 'src/server/features/blog/probe-service.ts', "import { eq } from 'drizzle-orm';\nimport { blogPosts } from '../../db/schema';\nexport const p = [eq, blogPosts];"],
  ])('allows %s', async (_name, file, code) => {
    expect(await rulesFor(file, code)).toEqual([]);
  });
});

describe('import cycles', () => {
  it('refuses a two-file cycle', async () => {
    const linter = new ESLint({ cwd: root, ignore: false });
    const results = await linter.lintFiles(['tests/lint/fixtures/cycle-a.ts', 'tests/lint/fixtures/cycle-b.ts']);
    for (const result of results) {
      expect(result.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
    }
  });
});
