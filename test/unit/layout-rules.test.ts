import fs from 'node:fs';
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

  it('fails every import whose path it cannot read, the holes the review of 2026-12-07 found (W4-W6) among them', async () => {
    const layers = 'layout/server-layers';
    const cannotRead = expect.stringContaining('an import the lint cannot read');
    const signing = expect.stringMatching(/^server\/net\/ \(infrastructure\) may not import server\/contracts\//);
    // W5: module.require, and any other `x.require`.
    expect(
      await messagesFor('server/net/_w5.ts', "export const x = module.require('../contracts/create-contract');\n"),
    ).toContainEqual(signing);
    // W6: createRequire under another name, and as module.createRequire (named, or called at once).
    const viaAlias =
      "import { createRequire as makeRequire } from 'node:module';\nconst load = makeRequire(import.meta.url);\nexport const x = load('../contracts/create-contract');\n";
    expect(await messagesFor('server/net/_w6.ts', viaAlias)).toContainEqual(signing);
    const viaMember =
      "import module from 'node:module';\nconst load = module.createRequire(import.meta.url);\nexport const x = load('../contracts/create-contract');\n";
    expect(await messagesFor('server/net/_w6.ts', viaMember)).toContainEqual(signing);
    const atOnce =
      "import module from 'node:module';\nexport const x = module.createRequire(import.meta.url)('../contracts/create-contract');\n";
    expect(await messagesFor('server/net/_w6.ts', atOnce)).toContainEqual(signing);
    // A require behind a cast is still a require.
    expect(
      await messagesFor(
        'server/net/_w6.ts',
        "export const x = (require as (id: string) => unknown)('../contracts/x');\n",
      ),
    ).toContainEqual(signing);
    // An absolute path reaches the folder it names.
    expect(
      await ruleIdsFor(
        'server/jobs/_abs.ts',
        `export const load = () => import('${root}/server/signing/send-contract');\n`,
      ),
    ).toContain(layers);
    // W4: a template whose start is an expression, or names no folder: not read, so an error.
    expect(
      await messagesFor(
        'server/jobs/_w4.ts',
        "const up = '..';\nexport const load = (name: string) => import(`${up}/signing/${name}`);\n",
      ),
    ).toContainEqual(cannotRead);
    expect(
      await messagesFor(
        'server/jobs/_w4.ts',
        "import path from 'node:path';\nexport const load = (name: string) => import(`..${path.sep}signing/${name}`);\n",
      ),
    ).toContainEqual(cannotRead);
    expect(
      await messagesFor('server/jobs/_w4.ts', 'export const load = (name: string) => import(name);\n'),
    ).toContainEqual(cannotRead);
    // A fixed start above server/'s folders may reach any of them.
    expect(
      await messagesFor('server/jobs/_w4.ts', 'export const load = (n: string) => import(`../../${n}`);\n'),
    ).toContainEqual(expect.stringContaining('an import whose folder the lint cannot tell'));
    // A loader passed on, stored or bound loads paths nobody reads.
    for (const code of [
      'export const load = require;\n',
      'export const load = module.require.bind(module);\n',
      "import { createRequire } from 'node:module';\nexport const made = [createRequire(import.meta.url)];\n",
      "export const x = require(...['../contracts/x']);\n",
    ])
      expect(await messagesFor('server/jobs/_loader.ts', code), code).toContainEqual(cannotRead);
    // Node's loader reached other ways: `require` destructured, a computed member, Module._load,
    // module.register (a hooks module), and a re-export that hands createRequire on unseen.
    for (const code of [
      "const { require: load } = module;\nexport const x = load('../contracts/create-contract');\n",
      "import Module from 'node:module';\nconst { require: load } = Module.prototype;\nexport const x = load.call(module, '../contracts/x');\n",
      "const key = 'require';\nexport const x = module[key]('../contracts/create-contract');\n",
      "import Module from 'node:module';\nexport const x = (Module as any)._load('../contracts/x', null, false);\n",
      "export * from 'node:module';\n",
      "export { createRequire as make } from 'node:module';\n",
    ])
      expect(await ruleIdsFor('server/net/_more.ts', code), code).toContain(layers);
    expect(
      await messagesFor(
        'server/net/_hooks.ts',
        "import { register as hooks } from 'node:module';\nhooks('../contracts/x.mjs', import.meta.url);\n",
      ),
    ).toContainEqual(signing);
    expect(
      await messagesFor(
        'server/net/_hooks.ts',
        "import module from 'node:module';\nmodule.register('../contracts/x.mjs', import.meta.url);\n",
      ),
    ).toContainEqual(signing);
    // Code made from text loads what no reader sees.
    for (const code of [
      'export const x = new Function(\'return import("../signing/send-contract")\')();\n',
      'export const x = eval(\'require("../signing/send-contract")\');\n',
    ])
      expect(await ruleIdsFor('server/jobs/_text.ts', code), code).toEqual(
        expect.arrayContaining([expect.stringMatching(/^no-(eval|new-func)$/)]),
      );
    // What loads nothing, or a package, or an allowed folder, passes.
    const harmless =
      "import { createRequire, builtinModules, register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\nexport const names = builtinModules;\nconst require = createRequire(import.meta.url);\nexport const where = require.resolve('pdfjs-dist/package.json');\nexport const kind = typeof require;\nexport const png = require('pngjs');\nexport const db = (name: string) => import(`../db/${name}`);\nexport const pdfjs = (name: string) => import(`pdfjs-dist/${name}`);\n";
    expect(await ruleIdsFor('server/jobs/_fixture.ts', harmless)).toEqual([]);
  });

  it("keeps permission decisions in server/policies/: the review's V8 and W8 fail anywhere else", async () => {
    const rule = 'layout/permissions-in-policies';
    // V8: a route comparing the role.
    const v8 =
      "import type { Actor } from '../core/actor';\nimport { forbidden } from '../core/errors';\nexport const check = (actor: Actor) => {\n  if (actor.permissionTemplate !== 'CUSTOMER_ADMIN_USER') throw forbidden('no');\n};\n";
    expect(await ruleIdsFor('server/api/_v8.ts', v8)).toContain(rule);
    // W8: "administrator or owner" written out in a domain folder.
    const w8 =
      "import type { Actor } from '../core/actor';\nexport const mayChange = (actor: Actor, c: { createdBy: number }) => actor.isAdmin || c.createdBy === actor.id;\n";
    const w8Messages = await messagesFor('server/signing/_w8.ts', w8);
    expect(w8Messages).toContainEqual(expect.stringMatching(/^isAdmin read outside server\/policies\//));
    expect(w8Messages).toContainEqual(expect.stringMatching(/^an ownership check outside server\/policies\//));
    // Its variants: the flag destructured, a role switched on, the caller's id, the rule in SQL.
    for (const code of [
      "import type { Actor } from '../core/actor';\nexport const f = ({ isAdmin }: Actor) => isAdmin;\n",
      "export const f = (user: { permissionTemplate: string }) => {\n  switch (user.permissionTemplate) {\n    case 'CUSTOMER_USER':\n      return 1;\n  }\n  return 0;\n};\n",
      'export const f = (row: { userId: number }, req: { actor: { id: number } }) => row.userId === req.actor.id;\n',
      "import { eq } from 'drizzle-orm';\nimport { users } from '../schema/accounts';\nexport const admins = eq(users.permissionTemplate, 'CUSTOMER_ADMIN_USER');\n",
      // A role tested by its own methods, looked up, counted among others or named anew;
      // the caller counted among the owners; the policy's own data compared in SQL.
      "export const f = (a: { permissionTemplate: string }) => a.permissionTemplate.startsWith('CUSTOMER_ADMIN');\n",
      'export const f = (a: { permissionTemplate: string }, admin: Record<string, boolean>) => admin[a.permissionTemplate];\n',
      'export const f = (a: { permissionTemplate: string }, admins: Set<string>) => admins.has(a.permissionTemplate);\n',
      "const ADMIN = 'CUSTOMER_ADMIN_USER';\nexport const f = (t: { permissionTemplate: string }) => [t, ADMIN];\n",
      "export const ADMINS = ['CUSTOMER_ADMIN_USER'];\n",
      'export const f = (owners: number[], actor: { id: number }) => owners.includes(actor.id);\n',
      "import { eq } from 'drizzle-orm';\nimport { users } from '../schema/accounts';\nimport { ACTIVE_ADMINISTRATOR } from '../../policies/actors';\nexport const admins = eq(users.permissionTemplate, ACTIVE_ADMINISTRATOR.permissionTemplate);\n",
    ])
      expect(await ruleIdsFor('server/db/repos/_fixture.ts', code), code).toContain(rule);
    // In policies/ the same lines are the rule itself.
    expect(await ruleIdsFor('server/policies/_fixture.ts', w8)).toEqual([]);
    // Asking whether a role was given, or printing who made a thing, decides nothing.
    const neutral =
      'export const f = (input: { permission_template?: string }, row: { createdBy: number }) => ({\n  given: input.permission_template !== undefined,\n  created_by: `/api/users/${row.createdBy}`,\n});\n';
    expect(await ruleIdsFor('server/users/_fixture.ts', neutral)).toEqual([]);
  });

  it('keeps outbound HTTP in server/net/: every other way of making a request fails the lint', async () => {
    const rule = 'layout/outbound-http-in-net';
    for (const code of [
      "import http from 'node:http';\nexport const f = () => http.request('http://169.254.169.254/');\n",
      "import * as https from 'https';\nexport const f = () => https.get('https://example.com/');\n",
      "import { request } from 'node:https';\nexport const f = () => request('https://example.com/');\n",
      "import http from 'node:http';\nimport https from 'node:https';\nexport const f = (tls: boolean) => (tls ? https : http).request('x');\n",
      "import http from 'node:http';\nconst { request } = http;\nexport const f = () => request('x');\n",
      "import { Agent } from 'node:http';\nexport const agent = new Agent({ keepAlive: true });\n",
      "import http2 from 'node:http2';\nexport const f = () => http2.connect('https://example.com');\n",
      "const https = require('node:https');\nexport const f = () => https.get('x');\n",
      "export const f = () => fetch('https://example.com/');\n",
      "export const f = () => globalThis.fetch('https://example.com/');\n",
      "import { request } from 'undici';\nexport const f = () => request('https://example.com/');\n",
      "export const f = async () => (await import('axios')).default.get('x');\n",
      "export { request } from 'node:http';\n",
      "export * from 'node:https';\n",
    ])
      expect(await ruleIdsFor('server/webhooks/_fixture.ts', code), code).toContain(rule);
    // Serving, types, a local `fetch` and the client's own folder are not outbound requests.
    for (const [file, code] of [
      ['server/app/_fixture.ts', "import http from 'node:http';\nexport const server = http.createServer();\n"],
      ['server/app/_fixture.ts', "import type http from 'node:http';\nexport type R = http.IncomingMessage;\n"],
      ['server/jobs/_fixture.ts', 'const fetch = (id: number) => id;\nexport const f = () => fetch(1);\n'],
      ['server/net/_fixture.ts', "import { Agent } from 'undici';\nexport const agent = new Agent();\n"],
    ])
      expect(await ruleIdsFor(file!, code!), code).not.toContain(rule);
  });

  it('keeps each library in its home: nodemailer outside the mail folder fails', async () => {
    expect(
      await ruleIdsFor('server/webhooks/_fixture.ts', "export { createTransport } from 'nodemailer';\n"),
    ).toContain('no-restricted-imports');
  });
});
