// `npm run mutation`: do the tests that guard a line fail when it breaks? Each mutant below
// replaces one guarded line's exact text, runs only the tests that guard it (on SQLite), and
// puts the file back, always: after each run, on an error, on Ctrl-C. A mutant the tests do not
// kill, or whose text is no longer in its file (the list went stale), fails the check, named.
// Not part of `npm test` (minutes on 2 cores); run it after changing a guarded line or its test.
//   node scripts/mutation-check.mjs                   every mutant, each test first run unmutated
//   node scripts/mutation-check.mjs --no-baseline M7  one mutant, without the unmutated run
//   node scripts/mutation-check.mjs --list
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * The guarded lines: `file`, its exact `text` (found once), the `mutant` that replaces it, and
 * the `tests` that must then fail (`only`: vitest's -t, to run just the guarding test). Names
 * M1… follow the code review of 2026-12-07 (shared/reviews/2026-12-07/code.md, section 4).
 */
const MUTANTS = [
  {
    name: 'M1',
    what: 'a public path segment may hold %, so /sign/%2e%2e/api would pass',
    file: 'server/reach/public-paths.ts',
    text: 'const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;',
    mutant: 'const SEGMENT = /^[A-Za-z0-9_~%-][A-Za-z0-9._~%-]*$/;',
    tests: ['test/unit/reach-rules.test.ts'],
    only: 'refuses every other path and every disguise',
  },
  {
    name: 'M5',
    what: 'the backup folder is compared without resolving symlinks',
    file: 'server/backup/backup-folder.ts',
    text: 'return path.join(fs.realpathSync.native(existing), ...rest.reverse());',
    mutant: 'return path.join(existing, ...rest.reverse());',
    tests: ['test/integration/backup-schedule-safety.test.ts'],
    only: 'refuses a folder inside the data folder',
  },
  {
    name: 'M6',
    what: 'word spacing (Tw) is ignored when placing text tags',
    file: 'server/pdf/read-glyphs.ts',
    text: '(item.isSpace ? state.wordSpacing : 0)',
    mutant: '(item.isSpace ? 0 : 0)',
    tests: ['test/unit/find-text-tags.test.ts'],
    only: 'places a tag from the advances before it',
  },
  {
    name: 'M7',
    what: "an office anchor whose authority's time goes back is accepted",
    file: 'server/evidence/anchors/check-anchors.ts',
    text: 'else if (token.time < previousTime) fail("its authority\'s time is before the anchor before it");',
    mutant: 'else if (false) fail("its authority\'s time is before the anchor before it");',
    tests: ['test/evidence/office-anchor.test.ts'],
    only: "authority's time is before the one before it",
  },
  {
    name: 'M10',
    what: 'a party may delegate to itself',
    file: 'server/signing/delegate-party.ts',
    text: 'if (name === party.name && email === party.email && mobilePhone === party.mobilePhone)',
    mutant: 'if (false)',
    tests: ['test/integration/party-delegation.test.ts'],
    only: 'refuses when the contract does not allow it',
  },
  {
    name: 'M11',
    what: 'a 5xx answer is kept for its Idempotency-Key and replayed for 24 hours',
    file: 'server/http/idempotency.ts',
    text: 'body.length <= MAX_STORED_BYTES && status < 500 && status !== 429;',
    mutant: 'body.length <= MAX_STORED_BYTES && status !== 429;',
    tests: ['test/integration/idempotency.test.ts'],
    only: 'keeps no 5xx answer',
  },
  {
    name: 'M13',
    what: "a backup's partial file is opened through a planted symlink (no O_EXCL | O_NOFOLLOW)",
    file: 'server/backup/backup-folder.ts',
    text: 'const fd = fs.openSync(partial, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);',
    mutant: "const fd = fs.openSync(partial, 'w', 0o600);",
    tests: ['test/unit/backup-partial-file.test.ts'],
  },
  {
    name: 'L1',
    what: 'the import rule lets `const { require: load } = module` through',
    file: 'eslint-rules/server-layers.js',
    text: "if (key === 'require' || LOADING_MEMBERS.has(key)) cannotRead(node);",
    mutant: 'if (false) cannotRead(node);',
    tests: ['test/unit/layout-rules.test.ts'],
    only: 'fails every import whose path it cannot read',
  },
];

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const m of MUTANTS) console.log(`${m.name}\t${m.file}\t${m.what}\t${m.tests.join(' ')}`);
  process.exit(0);
}
const withBaseline = !args.includes('--no-baseline');
const wanted = args.filter((arg) => !arg.startsWith('--'));
const chosen = wanted.length > 0 ? MUTANTS.filter((m) => wanted.includes(m.name)) : MUTANTS;
if (chosen.length !== (wanted.length || MUTANTS.length)) {
  console.error(`unknown mutant: ${wanted.filter((name) => !MUTANTS.some((m) => m.name === name)).join(', ')}`);
  process.exit(2);
}

/** The file now mutated and its original text: put back on every way out. */
let applied;
const restore = () => {
  if (!applied) return;
  fs.writeFileSync(applied.file, applied.original);
  applied = undefined;
};
process.on('exit', restore);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    restore();
    console.error(`\n${signal}: stopped; every file is as it was`);
    process.exit(130);
  });

let child;
/** Runs the mutant's guarding tests on SQLite: true when they pass. */
function runTests(m) {
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const testArgs = ['run', ...m.tests, ...(m.only ? ['-t', m.only] : [])];
  return new Promise((resolve) => {
    let output = '';
    child = spawn(process.execPath, [vitest, ...testArgs], {
      cwd: root,
      env: { ...process.env, SIGNDESK_TEST_BACKEND: 'sqlite', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      child = undefined;
      // eslint-disable-next-line no-control-regex -- colour codes, should a tool print them anyway
      const text = output.replace(/\x1b\[[0-9;]*m/g, '');
      const tests = /^\s*Tests\s+(.*)$/m.exec(text)?.[1]?.trim() ?? 'no test summary';
      const failure = /^\s*(?:AssertionError|\w*Error): .*$/m.exec(text)?.[0]?.trim().slice(0, 160);
      resolve({ passed: code === 0 && / passed/.test(tests) && !/failed/.test(tests), tests, failure });
    });
  });
}
process.on('exit', () => child?.kill('SIGTERM'));

const survivors = [];
for (const m of chosen) {
  const file = path.join(root, m.file);
  const original = fs.readFileSync(file, 'utf8');
  const found = original.split(m.text).length - 1;
  const started = Date.now();
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
  if (found !== 1) {
    console.log(`${m.name} STALE: its text is in ${m.file} ${found} times, not once: update the list`);
    survivors.push(`${m.name} (stale)`);
    continue;
  }
  if (withBaseline) {
    const base = await runTests(m);
    if (!base.passed) {
      console.log(`${m.name} BASELINE FAILS (${base.tests}): ${base.failure ?? ''} — fix the test first`);
      survivors.push(`${m.name} (baseline fails)`);
      continue;
    }
  }
  applied = { file, original };
  fs.writeFileSync(file, original.replace(m.text, m.mutant));
  let result;
  try {
    result = await runTests(m);
  } finally {
    restore();
  }
  if (result.passed) {
    console.log(`${m.name} SURVIVED (${result.tests}, ${seconds()}): ${m.what} [${m.file}; ${m.tests.join(' ')}]`);
    survivors.push(m.name);
  } else console.log(`${m.name} killed (${result.tests}, ${seconds()}): ${result.failure ?? 'the run failed'}`);
}
console.log(
  survivors.length === 0
    ? `all ${chosen.length} mutants killed`
    : `${survivors.length} of ${chosen.length} not killed: ${survivors.join(', ')}`,
);
process.exit(survivors.length === 0 ? 0 : 1);
