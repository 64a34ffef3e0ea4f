import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { readLayoutTable } from '../../eslint-rules/server-layers.js';
import { defineRoute } from '../../server/http/route';
import { sealSecretsAtRest } from '../../server/messages/seal-at-rest';

/** The layout rules hold by tooling, not by goodwill: each deliberate violation below must fail. */
const root = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** What ESLint reports for `code` as if it were the file at `filePath`. */
async function lint(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result?.messages ?? [];
}
/** The rule ids ESLint reports for `code` as if it were the file at `filePath`. */
const ruleIdsFor = async (filePath: string, code: string): Promise<string[]> =>
  (await lint(filePath, code)).map((message) => message.ruleId ?? message.message);
const messagesFor = async (filePath: string, code: string): Promise<string[]> =>
  (await lint(filePath, code)).map((message) => message.message);

describe('the lint config', () => {
  it('keeps routes to reads: a route cannot write through a repository or the database, and cannot name AppContext', async () => {
    // These do not compile (`npm run typecheck` fails on an unused @ts-expect-error if one did):
    // the handler's context has the repositories' reads only and no database.
    const route = defineRoute({
      method: 'post',
      path: '/api/_fixture',
      operationId: 'fixture',
      summary: 'fixture',
      tag: 'fixture',
      access: 'admin',
      responses: { 204: { description: 'nothing' } },
      handler: async ({ ctx, act }) => {
        await ctx.repos.office.get(ctx.now());
        // @ts-expect-error -- a repository's write, called on the context's repositories
        ctx.repos.office.update({ name: 'x' });
        const { office } = ctx.repos;
        // @ts-expect-error -- the same write through a destructured repository
        office.update({ name: 'x' });
        const repos = ctx.repos;
        // @ts-expect-error -- the same write through a copy of the repositories
        repos.users.softDelete(1, ctx.now());
        // @ts-expect-error -- the database itself is not there
        ctx.db.$client.prepare('UPDATE office SET name = ?').run('x');
        // @ts-expect-error -- a service that writes takes the full context, which a route does not have
        await sealSecretsAtRest(ctx);
        // A write is a service's, called through `act` with the full context.
        await act(sealSecretsAtRest);
      },
    });
    expect(route.path).toBe('/api/_fixture');
    const write =
      "import type { AppContext } from '../context/app-context';\nexport const rename = (ctx: AppContext) => ctx;\n";
    expect(await ruleIdsFor('server/api/_fixture.ts', write)).toContain('no-restricted-imports');
    const read =
      "import type { RouteContext } from '../http/route';\nexport const office = (ctx: RouteContext) => ctx.repos.office.get(ctx.now());\n";
    expect(await ruleIdsFor('server/api/_fixture.ts', read)).toEqual([]);
  });

  it('keeps folders in their layer: the renderer reaching into the server fails, and so does a repository reaching into HTTP', async () => {
    expect(
      await ruleIdsFor('renderer/lib/_fixture.ts', "export { appVersion } from '../../server/core/version';\n"),
    ).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor('server/db/repos/_fixture.ts', "export { problemOf } from '../../http/problem';\n"),
    ).toContain('layout/server-layers');
    expect(await ruleIdsFor('shared/_fixture.ts', "export { readFileSync } from 'node:fs';\n")).toContain(
      'no-restricted-imports',
    );
  });

  it('keeps each server folder to the import table of docs/decisions.md: one forbidden import per row fails, naming the edge and the table', async () => {
    const table = readLayoutTable();
    const folders = [...table.keys()].filter((folder) => !folder.startsWith('('));
    const forms = [
      (target: string) => `import type { X } from '../${target}/x';\nexport type Y = X;\n`,
      (target: string) => `export const load = (name: string) => import(\`../${target}/\${name}\`);\n`,
      (target: string) =>
        `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const x = require('../${target}/x');\n`,
      (target: string) => `export { x } from '../${target}/x';\n`,
    ];
    const rows = [...new Map([...table].map(([folder, rule]) => [rule, folder])).entries()];
    let planted = 0;
    for (const [index, [rule, folder]] of rows.entries()) {
      if (rule.allowed === 'everything') continue;
      const preferred = ['app', 'api', 'http', 'signing', 'contracts', 'db', 'core'];
      const target = [...preferred, ...folders].find(
        (other) => other !== folder && !(rule.allowed as Set<string>).has(other),
      )!;
      const messages = await messagesFor(`server/${folder}/_fixture.ts`, forms[index % forms.length]!(target));
      expect(messages, `${folder} → ${target}`).toContainEqual(
        expect.stringMatching(
          new RegExp(`^server/${folder}/ \\(.*\\) may not import server/${target}/ .*docs/decisions\\.md, "Layout"`),
        ),
      );
      planted += 1;
    }
    expect(planted).toBeGreaterThanOrEqual(20);
  });

  it('has one row for every server folder, and its allowed imports go one way only', () => {
    const table = readLayoutTable();
    const folders = fs
      .readdirSync(path.join(root, 'server'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...table.keys()].filter((folder) => !folder.startsWith('(')).sort()).toEqual(folders.sort());
    // A folder allowed to import one that may import it back would let a cycle in.
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      const allowed = table.get(from)?.allowed;
      if (!allowed || allowed === 'everything' || seen.has(from)) return false;
      seen.add(from);
      return [...allowed].some((next) => next === to || reaches(next, to, seen));
    };
    for (const folder of folders) expect(reaches(folder, folder), folder).toBe(false);
  });

  it('fails the layer violations the review of 2026-11-26 planted, and lets db/ use the shared schemas', async () => {
    const layers = 'layout/server-layers';
    // A domain reaching into HTTP.
    expect(await ruleIdsFor('server/contracts/_v1.ts', "export { parseOrThrow } from '../http/validate';\n")).toContain(
      layers,
    );
    // core/ reaching up into a domain, statically and through a template literal.
    expect(
      await ruleIdsFor('server/core/_v3.ts', "export { sendContract } from '../signing/send-contract';\n"),
    ).toContain(layers);
    expect(
      await ruleIdsFor('server/core/_v7.ts', 'export const load = (name: string) => import(`../signing/${name}`);\n'),
    ).toContain(layers);
    // Infrastructure importing a domain and the composition root.
    expect(
      await ruleIdsFor('server/jobs/_v5.ts', "export { sendContract } from '../signing/send-contract';\n"),
    ).toContain(layers);
    expect(await ruleIdsFor('server/jobs/_v5.ts', "export { createApp } from '../app/app';\n")).toContain(layers);
    // A domain importing the routes.
    expect(
      await ruleIdsFor('server/settings/_v6.ts', "export { contractRoutes } from '../api/contracts';\n"),
    ).toContain(layers);
    // require through createRequire, called at once.
    expect(
      await ruleIdsFor(
        'server/crypto/_v8.ts',
        "import { createRequire } from 'node:module';\nexport const x = createRequire(import.meta.url)('../signing/send-contract');\n",
      ),
    ).toContain(layers);
    // A folder the table does not know, and a dynamic import whose folder cannot be told.
    expect(await messagesFor('server/reports/_fixture.ts', "export { x } from '../contracts/x';\n")).toContainEqual(
      expect.stringContaining('server/reports/ has no row in the import table'),
    );
    expect(
      await ruleIdsFor(
        'server/contracts/_fixture.ts',
        'export const load = (name: string) => import(`../${name}/x`);\n',
      ),
    ).toContain(layers);
    // shared/api/ is not server/api/: a repository may use the shared schemas.
    expect(
      await ruleIdsFor('server/db/repos/_v4.ts', "export { EMAIL_STATUS_FLAGS } from '../../../shared/api/parties';\n"),
    ).toEqual([]);
  });

  it('lets every folder import what its row allows, and the composition root anything', async () => {
    expect(
      await ruleIdsFor('server/signing/_fixture.ts', "export { findDraft } from '../contracts/find-draft';\n"),
    ).toEqual([]);
    expect(
      await ruleIdsFor('server/api/_fixture.ts', "export { resolveActingUser } from '../http/acting-user';\n"),
    ).toEqual([]);
    expect(await ruleIdsFor('server/app/_fixture.ts', "export { contractRoutes } from '../api/contracts';\n")).toEqual(
      [],
    );
    expect(await ruleIdsFor('server/_fixture.ts', "export { createApp } from './app/app';\n")).toEqual([]);
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
    // An import() by template literal reaches the folder its fixed start names.
    write('beta/b.ts', 'export const b = (name: string) => import(`../alpha/${name}`);\n');
    const dynamic = run(dir);
    expect(dynamic.status).toBe(1);
    expect(dynamic.stderr).toContain('beta/b.ts imports ../alpha/');
    // So does a require, directly or through what createRequire made.
    write(
      'beta/b.ts',
      "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nexport const b = () => load('../alpha/a');\n",
    );
    expect(run(dir).status).toBe(1);
    write(
      'beta/b.ts',
      "import { createRequire } from 'node:module';\nexport const b = () => createRequire(import.meta.url)('../alpha/a');\n",
    );
    expect(run(dir).status).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
