import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export type BuilderConfig = {
  appId: string;
  productName: string;
  artifactName: string;
  directories: { output: string; buildResources: string };
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  buildDependenciesFromSource: boolean;
  electronFuses: Record<string, boolean>;
  linux: { target: string[]; icon: string; maintainer: string };
  win: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  nsis: Record<string, unknown>;
};

export function loadBuilderConfig(): BuilderConfig {
  return parse(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
}

// electron-builder's own code, so the checks use its semantics: its schema validation, the
// matcher that decides which files go into app.asar, and its asar reader.
const require = createRequire(import.meta.url);
const builderLib = path.dirname(
  require.resolve('app-builder-lib/package.json', {
    paths: [path.dirname(require.resolve('electron-builder/package.json'))],
  }),
);
type FileFilter = (file: string, stat: fs.Stats) => boolean;
const { FileMatcher } = require(path.join(builderLib, 'out/fileMatcher.js')) as {
  FileMatcher: new (
    from: string,
    to: string,
    expand: (pattern: string) => string,
    patterns: string[],
  ) => { createFilter(): FileFilter };
};
export const { validateConfiguration } = require(path.join(builderLib, 'out/util/config/config.js')) as {
  validateConfiguration(config: unknown, debug: { isEnabled: boolean; add(): void }): Promise<void>;
};
export const asar = require(require.resolve('@electron/asar', { paths: [builderLib] })) as {
  listPackage(archive: string): string[];
  extractAll(archive: string, dest: string): void;
};

/** Files under a folder of the project, as project-relative paths with forward slashes. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The architecture electron-builder packs for by default: this machine's. */
export const BUILD_ARCH = process.arch;

/** The files of the list that electron-builder would put in the app for these patterns. */
export function matched(patterns: string[], files: string[]): string[] {
  const expand = (pattern: string) => pattern.replaceAll('${arch}', BUILD_ARCH);
  const filter = new FileMatcher(ROOT, '/app', expand, patterns).createFilter();
  return files.filter((file) => filter(path.join(ROOT, file), fs.statSync(path.join(ROOT, file))));
}

/**
 * The installed packages a name of the files list stands for: itself, or for a pattern such as
 * `@napi-rs/canvas-*` (an addon's per-platform package) the ones installed on this machine.
 */
export function installedPackages(name: string): string[] {
  if (!name.includes('*')) return [name];
  const [scope, pattern] = name.includes('/') ? (name.split('/') as [string, string]) : ['', name];
  const matcher = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const folder = path.join(ROOT, 'node_modules', scope);
  return fs
    .readdirSync(folder)
    .filter((entry) => matcher.test(entry))
    .map((entry) => (scope ? `${scope}/${entry}` : entry));
}

/** The package a node_modules path belongs to (`@scope/name` or `name`), else undefined. */
export function packageOf(file: string): string | undefined {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file.slice(file.lastIndexOf('node_modules/')))?.[1];
}

/**
 * The packages Node loads from node_modules when the three native addons are opened and used
 * (each loads helpers of its own at run time): what a package must carry beside the bundles.
 */
export function packagesTheAddonsLoad(): string[] {
  const script = `
    const sqlite = require('better-sqlite3')(':memory:');
    sqlite.prepare('SELECT 1').get();
    const sodium = require('sodium-native');
    const pk = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES), sk = sodium.sodium_malloc(sodium.crypto_sign_SECRETKEYBYTES);
    sodium.crypto_sign_keypair(pk, sk);
    const canvas = require('@napi-rs/canvas');
    canvas.createCanvas(4, 4).toBuffer('image/png');
    process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  const files = JSON.parse(run.stdout) as string[];
  return [
    ...new Set(files.map((file) => packageOf(file.split(path.sep).join('/'))).filter((name): name is string => !!name)),
  ].sort();
}

/**
 * Runs the real electron-builder on the real build for `--linux dir`, with a stand-in for
 * Electron's binary (it cannot be downloaded here) and without the native rebuild for Electron
 * (which downloads too). Returns the unpacked app's folder.
 */
export function packLinuxDir(work: string): string {
  const stubDist = makeStubElectronDist(path.join(work, 'electron-dist'));
  const output = path.join(work, 'release');
  const packed = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--linux',
      'dir',
      '--config',
      'electron-builder.yml',
      '--publish',
      'never',
      `-c.electronDist=${stubDist}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${output}`,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 240_000 },
  );
  if (packed.status !== 0) throw new Error(`electron-builder failed:\n${packed.stdout}\n${packed.stderr}`);
  return path.join(output, 'linux-unpacked');
}

const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
export const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;

/**
 * A stand-in for Electron's Linux distribution: a program carrying the fuse wire of Electron
 * 39's defaults (version 1, eight fuses), which is all electron-builder reads and writes in it.
 */
function makeStubElectronDist(dir: string): string {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  const defaults = '10110001'; // RunAsNode, NODE_OPTIONS, --inspect and file: privileges on, as shipped
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\nexit 0\n'),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, defaults.length]),
    Buffer.from(defaults),
  ]);
  fs.writeFileSync(path.join(dir, 'electron'), binary, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'version'), (require('electron/package.json') as { version: string }).version);
  return dir;
}

export function readFuseWire(file: string): Record<(typeof FUSE_NAMES)[number], boolean> {
  const bytes = fs.readFileSync(file);
  const found = bytes.indexOf(FUSE_SENTINEL);
  if (found < 0) throw new Error(`no fuse wire in ${file}`);
  const at = found + FUSE_SENTINEL.length;
  const wire = bytes.subarray(at + 2, at + 2 + bytes[at + 1]!).toString('latin1');
  return Object.fromEntries(FUSE_NAMES.map((name, index) => [name, wire[index] === '1'])) as Record<
    (typeof FUSE_NAMES)[number],
    boolean
  >;
}
