// @ts-check
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { outboundHttpInNet } from './eslint-rules/outbound-http.js';
import { permissionsInPolicies } from './eslint-rules/permissions.js';
import { serverLayers } from './eslint-rules/server-layers.js';

/**
 * Who may import whom: between the top folders (server, renderer, main, shared, test, bench), one
 * no-restricted-imports block per folder; between server folders, layout/server-layers and its
 * table in docs/decisions.md ("Layout").
 */
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

const serverPatterns = [
  ...ours('renderer', 'main', 'test', 'bench'),
  { group: ['electron'], message: 'server/ never imports electron' },
  ...libraryHomes,
];

/** The house's own rules: the import table, the home of permissions and of outbound HTTP. */
const layout = {
  rules: {
    'server-layers': serverLayers,
    'permissions-in-policies': permissionsInPolicies,
    'outbound-http-in-net': outboundHttpInNet,
  },
};

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
    rules: restrict(serverPatterns),
  },
  {
    // Between server folders: the table in docs/decisions.md, "Layout".
    files: ['server/**'],
    plugins: { layout },
    // Code made from text at run time would load modules neither the rule nor the cycle check sees.
    rules: { 'layout/server-layers': 'error', 'no-eval': 'error', 'no-implied-eval': 'error', 'no-new-func': 'error' },
  },
  {
    // Who may do what is decided in server/policies/ (docs/decisions.md, "Permissions").
    files: ['server/**'],
    ignores: ['server/policies/**'],
    plugins: { layout },
    rules: { 'layout/permissions-in-policies': 'error' },
  },
  {
    // Outbound HTTP goes through server/net/http-client.ts (docs/decisions.md, "Outbound HTTP").
    files: ['server/**'],
    ignores: ['server/net/**'],
    plugins: { layout },
    rules: { 'layout/outbound-http-in-net': 'error' },
  },
  {
    files: ['server/db/**'],
    rules: restrict([
      ...ours('renderer', 'main', 'test', 'bench'),
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
    // Routes read, services write (docs/decisions.md, "Layout"): a route's handler gets
    // RouteContext (http/route.ts), whose repository writes and `db` are typed never; code here
    // names that type, so no helper of a route gets the whole AppContext and writes with it.
    files: ['server/api/**'],
    rules: restrict([
      ...serverPatterns,
      {
        group: ['**/context/app-context'],
        importNames: ['AppContext'],
        message: 'routes take RouteContext (http/route.ts), which reads only: write through a domain service',
      },
    ]),
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
