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
    const write = "import type { AppContext } from '../context';\nexport const rename = (ctx: AppContext) => ctx.repos.office.update({ name: 'x' });\n";
    expect(await ruleIdsFor('server/api/_fixture.ts', write)).toContain('no-restricted-syntax');
    const read = "import type { AppContext } from '../context';\nexport const office = (ctx: AppContext) => ctx.repos.office.get();\n";
    expect(await ruleIdsFor('server/api/_fixture.ts', read)).toEqual([]);
  });

  it('keeps folders in their layer: the renderer reaching into the server fails, and so does a repository reaching into HTTP', async () => {
    expect(await ruleIdsFor('renderer/lib/_fixture.ts', "export { appVersion } from '../../server/version';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('server/db/repos/_fixture.ts', "export { problemOf } from '../../http/problem';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor('shared/_fixture.ts', "export { readFileSync } from 'node:fs';\n")).toContain('no-restricted-imports');
  });

  it('keeps each library in its home: nodemailer outside the mail folder fails', async () => {
    expect(await ruleIdsFor('server/webhooks/_fixture.ts', "export { createTransport } from 'nodemailer';\n")).toContain('no-restricted-imports');
  });
});
