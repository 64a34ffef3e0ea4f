import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The layout rules hold by tooling, not by goodwill: each deliberate violation below must fail. */
const root = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` as if it were the file at `filePath`. */
async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the lint config', () => {
  it('keeps routes to reads of the repositories: a write from a route fails', async () => {
    const write =
      "import type { AppContext } from '../core/context';\nexport const rename = (ctx: AppContext) => ctx.repos.office.update({ name: 'x' });\n";
    expect(await ruleIdsFor('server/api/_fixture.ts', write)).toContain('no-restricted-syntax');
    const read =
      "import type { AppContext } from '../core/context';\nexport const office = (ctx: AppContext) => ctx.repos.office.get();\n";
    expect(await ruleIdsFor('server/api/_fixture.ts', read)).toEqual([]);
  });

  it('keeps folders in their layer: the renderer reaching into the server fails, and so does a repository reaching into HTTP', async () => {
    expect(
      await ruleIdsFor('renderer/lib/_fixture.ts', "export { appVersion } from '../../server/core/version';\n"),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor('server/db/repos/_fixture.ts', "export { problemOf } from '../../http/problem';\n"),
    ).toContain('no-restricted-imports');
    expect(await ruleIdsFor('shared/_fixture.ts', "export { readFileSync } from 'node:fs';\n")).toContain(
      'no-restricted-imports',
    );
  });

  it('keeps each library in its home: nodemailer outside the mail folder fails', async () => {
    expect(
      await ruleIdsFor('server/webhooks/_fixture.ts', "export { createTransport } from 'nodemailer';\n"),
    ).toContain('no-restricted-imports');
  });
});

describe('scripts/check-cycles.ts', () => {
  const run = (serverDir?: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', 'check-cycles.ts'), ...(serverDir ? [serverDir] : [])],
      { encoding: 'utf8', cwd: root },
    );

  it('finds no cycle between the server folders of this tree', () => {
    const result = run();
    expect(result.stderr).not.toMatch(/import each other/);
    expect(result.status).toBe(0);
  });

  it('fails on a tree whose folders import each other at run time, naming an import of each edge, and lets type-only imports pass', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-cycles-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('alpha/a.ts', "import { b } from '../beta/b';\nexport const a = () => b();\n");
    write(
      'beta/b.ts',
      "import type { Gamma } from '../gamma/g';\nexport const b = (): Gamma | undefined => undefined;\n",
    );
    write('gamma/g.ts', "import type { a } from '../alpha/a';\nexport type Gamma = typeof a;\n");
    expect(run(dir).status).toBe(0);
    write('beta/b.ts', "import { a } from '../alpha/a';\nexport const b = () => a;\n");
    const cyclic = run(dir);
    expect(cyclic.status).toBe(1);
    expect(cyclic.stderr).toContain('alpha, beta');
    expect(cyclic.stderr).toContain('beta/b.ts imports ../alpha/a');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
