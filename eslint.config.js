import tseslint from 'typescript-eslint';

const serverPaths = ['**/server/**', '@server/*'];
const clientPaths = ['**/client/**', '@client/*'];

/** Import boundaries (DESIGN.md): shared -> server and shared -> client, never client <-> server. */
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'test-results/**', 'src/server/db/migrations/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: restrict(serverPaths, 'The client never imports server code; share through src/shared.'),
  },
  {
    files: ['src/server/**/*.ts'],
    rules: restrict(clientPaths, 'The server never imports client code; share through src/shared.'),
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: [...serverPaths, ...clientPaths], message: 'Shared code imports neither side.' },
            { group: ['node:*', 'react', 'react-dom', 'drizzle-orm', 'drizzle-orm/*'], message: 'Shared code runs on both sides: no Node, DOM or database.' },
          ],
        },
      ],
    },
  },
);
