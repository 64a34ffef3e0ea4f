// @ts-check
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Who may import whom (README, "Architecture"): one no-restricted-imports block per folder. */
const ours = (...folders) =>
  folders.map((folder) => ({
    group: [`**/${folder}`, `**/${folder}/**`],
    message: `do not import ${folder}/ from here`,
  }));
const only = (name, home) => ({ group: [name, `${name}/**`], message: `${name} is used only in ${home}` });

const libraryHomes = [
  only('better-sqlite3', 'server/db/'),
  only('drizzle-orm', 'server/db/'),
  only('pdf-lib', 'server/pdf/'),
  only('@pdf-lib/fontkit', 'server/pdf/'),
  only('pdfjs-dist', 'server/pdf/'),
  only('@napi-rs/canvas', 'server/pdf/'),
  only('pngjs', 'server/pdf/'),
  only('jpeg-js', 'server/pdf/'),
  only('sodium-native', 'server/crypto/'),
  only('nodemailer', 'server/messages/mail/'),
];

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'server/db/migrations/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-expect-error': 'allow-with-description', 'ts-nocheck': true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Tests read JSON bodies of every shape; typing each would add nothing.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['shared/**'],
    rules: restrict([
      ...ours('server', 'renderer', 'main', 'test', 'bench'),
      { group: ['node:*'], message: 'shared/ runs in the browser too' },
    ]),
  },
  {
    files: ['server/**'],
    ignores: ['server/db/**', 'server/pdf/**', 'server/crypto/**', 'server/messages/mail/**'],
    rules: restrict([
      ...ours('renderer', 'main', 'test', 'bench'),
      { group: ['electron'], message: 'server/ never imports electron' },
      ...libraryHomes,
    ]),
  },
  {
    files: ['server/db/**'],
    rules: restrict([
      ...ours('renderer', 'main', 'test', 'bench', 'api', 'http'),
      { group: ['electron'], message: 'server/ never imports electron' },
      ...libraryHomes.slice(2),
    ]),
  },
  {
    files: ['server/pdf/**'],
    rules: restrict([
      ...ours('renderer', 'main', 'test', 'bench'),
      { group: ['electron'], message: 'server/ never imports electron' },
      ...libraryHomes.filter((rule) => !rule.message.endsWith('server/pdf/')),
    ]),
  },
  {
    files: ['server/crypto/**'],
    rules: restrict([
      ...ours('renderer', 'main', 'test', 'bench'),
      { group: ['electron'], message: 'server/ never imports electron' },
      ...libraryHomes.filter((rule) => rule.group[0] !== 'sodium-native'),
    ]),
  },
  {
    files: ['server/messages/mail/**'],
    rules: restrict([
      ...ours('renderer', 'main', 'test', 'bench'),
      { group: ['electron'], message: 'server/ never imports electron' },
      ...libraryHomes.filter((rule) => rule.group[0] !== 'nodemailer'),
    ]),
  },
  {
    // Reads and writes (docs/decisions.md, "Layout"): a route reads through the repositories,
    // which are the named query modules (find, get, list, count…); every write goes through its
    // domain's service, where the transaction, the activity log and the events are.
    files: ['server/api/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.object.property.name='repos']:not([callee.property.name=/^(find|get|list|count|total|rowsOf|roleCount|attemptsOf)/])",
          message: "a route only reads repositories: write through the domain's service",
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([
      ...ours('server', 'main', 'test', 'bench'),
      { group: ['node:*', 'electron'], message: 'the renderer reaches data only over HTTP' },
    ]),
  },
  {
    // React's own rules for the UI: the rules of hooks (and the compiler-era checks that come
    // with them) and the JSX accessibility rules; an office uses this UI with a keyboard too.
    files: ['renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['renderer/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['main/**'],
    rules: restrict([
      ...ours('renderer', 'test', 'bench'),
      {
        group: ['**/server/**', '!**/server/index', '!**/server/index.ts'],
        message: 'main/ imports only server/index.ts',
      },
    ]),
  },
  {
    files: ['main/preload.ts', 'main/preload.cts'],
    // A regex, not gitignore globs: `*` would also exclude the parent folders of shared/ipc, and
    // gitignore cannot re-include a file whose parent folder is excluded.
    rules: restrict([
      {
        regex: '^(?!electron$|(\\.\\./)+shared/ipc(\\.ts)?$)',
        message: 'the preload imports electron and shared/ipc only',
      },
    ]),
  },
);
