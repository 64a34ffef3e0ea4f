import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCycles } from '../../scripts/check-cycles';

/** The cycle check of `npm run check` reads every load between server folders, or fails. */
const root = path.resolve(import.meta.dirname, '..', '..');

describe('scripts/check-cycles.ts', () => {
  /** A folder of fixture files, as a server/ tree. */
  const tree = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-cycles-'));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
  };
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
  /** alpha imports beta; beta/b.ts is the plant. */
  const check = (plant: string) => {
    const dir = tree({
      'alpha/a.ts': "import { b } from '../beta/b';\nexport const a = () => b;\n",
      'beta/b.ts': plant,
    });
    dirs.push(dir);
    return checkCycles(dir);
  };

  it('finds no cycle and reads every import between the server folders of this tree, and says so with exit code 0', () => {
    const report = checkCycles(path.join(root, 'server'));
    expect(report.unread).toEqual([]);
    expect(report.cycles).toEqual([]);
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'check-cycles.ts')], {
      encoding: 'utf8',
      cwd: root,
    });
    expect(result.stdout).toMatch(/^no cycles between \d+ server folders/);
    expect(result.status).toBe(0);
  }, 120_000);

  it('fails on folders that import each other at run time, naming an import of each edge, and lets type-only imports pass', () => {
    const typeOnly = tree({
      'alpha/a.ts': "import { b } from '../beta/b';\nexport const a = () => b();\n",
      'beta/b.ts': "import type { Gamma } from '../gamma/g';\nexport const b = (): Gamma | undefined => undefined;\n",
      'gamma/g.ts': "import type { a } from '../alpha/a';\nexport type Gamma = typeof a;\n",
    });
    dirs.push(typeOnly);
    expect(checkCycles(typeOnly).cycles).toEqual([]);
    const cyclic = check("import { a } from '../alpha/a';\nexport const b = () => a;\n");
    expect(cyclic.cycles).toEqual([['alpha', 'beta']]);
    expect(cyclic.edges.get('beta')?.get('alpha')).toBe('beta/b.ts imports ../alpha/a');
    // The command line says the same and fails.
    const dir = dirs.at(-1)!;
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', 'check-cycles.ts'), dir],
      {
        encoding: 'utf8',
        cwd: root,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('server folders import each other: alpha, beta');
    expect(result.stderr).toContain('beta → alpha: beta/b.ts imports ../alpha/a');
  }, 120_000);

  it('counts every way of loading a module: import(), require, x.require, createRequire under any name', () => {
    for (const plant of [
      'export const b = (name: string) => import(`../alpha/${name}`);\n',
      "export const b = () => require('../alpha/a');\n",
      "import x = require('../alpha/a');\nexport const b = x;\n",
      // W5
      "export const b = () => module.require('../alpha/a');\n",
      // W6
      "import { createRequire as makeRequire } from 'node:module';\nconst load = makeRequire(import.meta.url);\nexport const b = () => load('../alpha/a');\n",
      "import module from 'node:module';\nconst load = module.createRequire(import.meta.url);\nexport const b = () => load('../alpha/a');\n",
      "import { createRequire } from 'node:module';\nexport const b = () => createRequire(import.meta.url)('../alpha/a');\n",
      "import { register as hooks } from 'node:module';\nhooks('../alpha/a.mjs', import.meta.url);\n",
      "import module from 'node:module';\nmodule.register('../alpha/a.mjs', import.meta.url);\n",
      "import Module from 'node:module';\nexport const b = () => (Module as any)._load('../alpha/a');\n",
      "export const b = () => (require as (id: string) => unknown)('../alpha/a');\n",
    ]) {
      const report = check(plant);
      expect(report.unread, plant).toEqual([]);
      expect(report.cycles, plant).toEqual([['alpha', 'beta']]);
    }
  });

  it('fails an import whose path it cannot read instead of passing it (W4 and its kin)', () => {
    for (const plant of [
      // W4: the template's start is an expression.
      "const up = '..';\nexport const b = (name: string) => import(`${up}/alpha/${name}`);\n",
      "import path from 'node:path';\nexport const b = (name: string) => import(`..${path.sep}alpha/${name}`);\n",
      'export const b = (name: string) => import(`../${name}/a`);\n',
      'export const b = (name: string) => import(name);\n',
      "export const b = (name: string) => module.require('../' + name);\n",
      'export const b = require;\n',
      'export const b = module.require.bind(module);\n',
      "import { createRequire } from 'node:module';\nexport const b = [createRequire(import.meta.url)];\n",
      // Node's loader reached other ways: destructured, a computed member, handed on by a re-export.
      "const { require: load } = module;\nexport const b = () => load('../alpha/a');\n",
      "import Module from 'node:module';\nconst { require: load } = Module.prototype;\nexport const b = () => load.call(module, '../alpha/a');\n",
      "const key = 'require';\nexport const b = () => module[key]('../alpha/a');\n",
      "export * from 'node:module';\n",
      "export { createRequire as make } from 'node:module';\n",
    ]) {
      const report = check(plant);
      expect(report.unread, plant).toContainEqual(expect.stringMatching(/^beta\/b\.ts/));
    }
  });
  it("reads plain JavaScript files too, and takes the lint's own waiver for a load it cannot read", () => {
    const plain = tree({
      'alpha/a.ts': "import { b } from '../beta/b.mjs';\nexport const a = () => b;\n",
      'beta/b.mjs': "export const b = () => import('../alpha/a');\n",
    });
    dirs.push(plain);
    expect(checkCycles(plain).cycles).toEqual([['alpha', 'beta']]);
    const loader = (comment: string) => {
      const dir = tree({ 'beta/worker.mjs': `${comment}await import(process.argv[2]);\n` });
      dirs.push(dir);
      return checkCycles(dir).unread;
    };
    expect(loader('')).toEqual([expect.stringMatching(/^beta\/worker\.mjs:1/)]);
    expect(loader('// eslint-disable-next-line layout/server-layers -- the entry its caller names\n')).toEqual([]);
  });
});
