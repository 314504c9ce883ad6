import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { clientZones, serverZones, TEST_FILES } from './eslint/boundaries.js';

const serverPaths = ['**/server/**', '@server/*'];
const clientPaths = ['**/client/**', '@client/*'];

/** Import boundaries (DESIGN.md): shared -> server and shared -> client, never client <-> server. */
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'test-results/**', 'src/server/db/migrations/**', 'tests/lint/fixtures/**'],
  },
  ...tseslint.configs.recommended,
  {
    // Imports resolve as TypeScript resolves them (the @shared, @client and @server paths included).
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
      // Following an import into a TypeScript file needs its parser (no-cycle reads the files it reaches).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
  {
    // The lint test's fixtures are linted only by that test (they are in the ignores above).
    files: ['src/**/*.{ts,tsx}', 'tests/lint/fixtures/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The layers (eslint/boundaries.js, docs/ARCHITECTURE.md); test code may compose what it needs.
    files: ['src/**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...clientZones(), ...serverZones()] }] },
  },
  {
    // The rules of hooks, and their dependency lists as warnings (the plugin's classic pair). Its React
    // Compiler checks are not switched on: the components they flag are listed in ARCHITECTURE.md.
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // A route reads its caller through requireUser (platform/security/sessions.ts), which answers 401 if the guard
    // is missing, rather than asserting the session is there.
    files: ['src/server/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "TSNonNullExpression > MemberExpression.expression[property.name='auth']", message: 'Read the caller with requireUser(request).' },
      ],
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
