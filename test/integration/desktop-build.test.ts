import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveAppFiles } from '../../main/app-paths';
import { buildDesktop, DESKTOP_OUTPUTS, NATIVE_MODULES, type DesktopBuild } from '../../scripts/build';
import { forkHost } from '../helpers/host-process';
import { makeTempDir } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  main: string;
  version: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const config = parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

type BuilderConfig = {
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

// electron-builder's own code, so the checks use its semantics: its schema validation and the
// matcher that decides which files go into app.asar.
const require = createRequire(import.meta.url);
const builderLib = path.dirname(
  require.resolve('app-builder-lib/package.json', { paths: [path.dirname(require.resolve('electron-builder/package.json'))] }),
);
type FileFilter = (file: string, stat: fs.Stats) => boolean;
const { FileMatcher } = require(path.join(builderLib, 'out/fileMatcher.js')) as {
  FileMatcher: new (from: string, to: string, expand: (pattern: string) => string, patterns: string[]) => { createFilter(): FileFilter };
};
const { validateConfiguration } = require(path.join(builderLib, 'out/util/config/config.js')) as {
  validateConfiguration(config: unknown, debug: { isEnabled: boolean; add(): void }): Promise<void>;
};
const asar = require(require.resolve('@electron/asar', { paths: [builderLib] })) as {
  listPackage(archive: string): string[];
  extractAll(archive: string, dest: string): void;
};

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The files of the list that electron-builder would put in the app for these patterns. */
function matched(patterns: string[], files: string[]): string[] {
  const filter = new FileMatcher(root, '/app', (pattern) => pattern, patterns).createFilter();
  return files.filter((file) => filter(path.join(root, file), fs.statSync(path.join(root, file))));
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const hasRendererBuild = 'build:renderer' in pkg.scripts;
const isRendererPattern = (pattern: string) => pattern.startsWith('dist/renderer');

describe('the desktop build and the electron-builder configuration', () => {
  let build: DesktopBuild;
  let candidates: string[];

  beforeAll(async () => {
    // What `npm run build` does: the admin UI's Vite build when the project has one, then ours.
    if (hasRendererBuild) {
      const renderer = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:renderer'], { cwd: root, encoding: 'utf8' });
      expect(renderer.status, renderer.stderr).toBe(0);
    }
    build = await buildDesktop(root);
    candidates = ['package.json', ...listFiles(path.join(root, 'dist'))];
  }, 180_000);

  it("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(config, { isEnabled: false, add() {} })).resolves.toBeUndefined();
  });

  it('packages SignDesk as AppImage and deb, an NSIS installer and a dmg, named with the version', () => {
    expect(config).toMatchObject({ appId: 'app.signdesk.desktop', productName: 'SignDesk', asar: true });
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.linux.maintainer).toMatch(/<[^>]+@[^>]+>/); // deb needs a maintainer with an e-mail
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.artifactName).toContain('${version}');
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(config.directories.output).toBe('release'); // not dist/, which holds the app's own files
  });

  it('has real icons: 512 px for Windows and macOS, 256 and 512 px for Linux', () => {
    expect(pngSize(path.join(root, config.win.icon))).toEqual({ width: 512, height: 512 });
    expect(config.mac.icon).toBe(config.win.icon);
    const linuxIcons = fs.readdirSync(path.join(root, config.linux.icon));
    expect(linuxIcons).toEqual(expect.arrayContaining(['256x256.png', '512x512.png']));
    expect(pngSize(path.join(root, config.linux.icon, '256x256.png'))).toEqual({ width: 256, height: 256 });
  });

  it('turns off RunAsNode, NODE_OPTIONS and --inspect, and loads the app only from its asar', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('matches real build output with every files pattern', () => {
    for (const pattern of config.files.filter((entry) => !isRendererPattern(entry))) {
      expect(matched([pattern], candidates), `${pattern} matches nothing in the build output`).not.toEqual([]);
    }
  });

  it.skipIf(!hasRendererBuild)("matches the admin UI's build with the renderer pattern", () => {
    const rendererPatterns = config.files.filter(isRendererPattern);
    expect(rendererPatterns).not.toEqual([]);
    expect(matched(rendererPatterns, candidates)).toContain('dist/renderer/index.html');
  });

  it('puts everything the app loads at run time into the package', () => {
    const appFiles = resolveAppFiles(path.join(root, 'dist/main'));
    const needed = new Set([
      pkg.main,
      DESKTOP_OUTPUTS.main,
      DESKTOP_OUTPUTS.preload,
      DESKTOP_OUTPUTS.host,
      `${DESKTOP_OUTPUTS.migrations}/meta/_journal.json`,
      ...Object.values(appFiles).map((file) => path.relative(root, file).split(path.sep).join('/')),
    ]);
    for (const file of needed) expect(fs.existsSync(path.join(root, file)), `${file} was not built`).toBe(true);
    expect(matched(config.files, [...needed]).sort()).toEqual([...needed].sort());
    // Every migration the server has is in the bundle's copy.
    expect(listFiles(path.join(root, DESKTOP_OUTPUTS.migrations)).map((file) => path.basename(file)).sort()).toEqual(
      listFiles(path.join(root, 'server/db/migrations')).map((file) => path.basename(file)).sort(),
    );
  });

  it('unpacks exactly the native modules, which are production dependencies the bundles leave external', () => {
    const unpacked = config.asarUnpack.map((pattern) => /^node_modules\/([^/]+)\/\*\*\/\*$/.exec(pattern)?.[1]);
    expect(unpacked).toEqual([...NATIVE_MODULES]);
    for (const name of NATIVE_MODULES) {
      expect(pkg.dependencies, `${name} must be a dependency to be packaged`).toHaveProperty(name);
      expect(fs.existsSync(path.join(root, 'node_modules', name, 'package.json'))).toBe(true);
    }
    expect(config).toMatchObject({ npmRebuild: true, buildDependenciesFromSource: false });
    // What the bundles still import at run time: natives only (the server) and electron (the shell).
    for (const name of build.externals.host) expect(NATIVE_MODULES).toContain(name);
    expect(build.externals.host).toContain('better-sqlite3');
    expect(build.externals.main).toEqual(['electron']);
    expect(build.externals.preload).toEqual(['electron']);
    // electron-builder refuses electron among the dependencies; it supplies the runtime itself.
    expect(pkg.dependencies).not.toHaveProperty('electron');
    expect(pkg.devDependencies).toHaveProperty('electron');
  });

  it('builds a main bundle that parses as the ES module Electron loads', () => {
    const check = spawnSync(process.execPath, ['--check', path.join(root, DESKTOP_OUTPUTS.main)], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, DESKTOP_OUTPUTS.preload), 'utf8')).toContain('require("electron")');
  });

  it('builds a server host that starts under plain Node as in the utility process, serves the API and stops cleanly', async () => {
    const dataDir = makeTempDir('signdesk-bundle-');
    const host = forkHost({ entry: path.join(root, DESKTOP_OUTPUTS.host), env: { DATA_DIR: dataDir, PORT: '0' } });
    try {
      const ready = await host.client.ready;
      const response = await fetch(`${ready.url}/api/openapi.json`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
      expect(await host.client.status()).toMatchObject({ url: ready.url, queuedDeliveries: 0, outboxPending: 0 });
      expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
      expect(fs.existsSync(path.join(dataDir, 'signdesk.sqlite-wal'))).toBe(false);
    } finally {
      if (host.child.exitCode === null) host.child.kill('SIGKILL');
    }
  });

  it('packs into an app electron-builder lays out: fuses flipped, bundles in the asar, natives beside it, and a server that runs from it', async () => {
    const work = makeTempDir('signdesk-package-');
    const stubDist = makeStubElectronDist(path.join(work, 'electron-dist'));
    const output = path.join(work, 'release');
    // The real electron-builder on the real build; only Electron's binary is a stand-in (it
    // cannot be downloaded here) and the native rebuild for Electron is off (it downloads too).
    const packed = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules/electron-builder/cli.js'),
        '--linux', 'dir', '--config', 'electron-builder.yml', '--publish', 'never',
        `-c.electronDist=${stubDist}`, '-c.npmRebuild=false', `-c.directories.output=${output}`,
      ],
      { cwd: root, encoding: 'utf8', timeout: 240_000 },
    );
    expect(packed.status, `${packed.stdout}\n${packed.stderr}`).toBe(0);
    const appDir = path.join(output, 'linux-unpacked');

    // The fuses, as the packaged binary now carries them.
    expect(readFuseWire(path.join(appDir, 'signdesk'))).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });

    // The asar holds the bundles and the production dependencies, not our sources or dev tools.
    const asarFile = path.join(appDir, 'resources', 'app.asar');
    const inAsar = new Set(asar.listPackage(asarFile).map((file) => file.split(path.sep).join('/')));
    for (const file of ['/package.json', `/${DESKTOP_OUTPUTS.main}`, `/${DESKTOP_OUTPUTS.preload}`, `/${DESKTOP_OUTPUTS.host}`, `/${DESKTOP_OUTPUTS.migrations}/meta/_journal.json`, `/${DESKTOP_OUTPUTS.assets}/tray.png`, '/node_modules/better-sqlite3/package.json']) {
      expect(inAsar, file).toContain(file);
    }
    for (const absent of ['/server/index.ts', '/main/index.ts', '/test', '/electron-builder.yml', '/node_modules/electron', '/node_modules/vitest', '/node_modules/esbuild']) {
      expect(inAsar, absent).not.toContain(absent);
    }
    // The native addons sit outside the archive, where the OS loader can open them.
    expect(fs.existsSync(path.join(asarFile + '.unpacked', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    expect(fs.readdirSync(path.join(asarFile + '.unpacked', 'node_modules/sodium-native/prebuilds'))).toContain(`${process.platform}-${process.arch}`);

    // The packaged server runs from the package's own files and node_modules (unpacked natives
    // included), as the utility process would run it.
    const extracted = path.join(work, 'app');
    asar.extractAll(asarFile, extracted);
    const dataDir = makeTempDir('signdesk-packaged-');
    const host = forkHost({ entry: path.join(extracted, DESKTOP_OUTPUTS.host), env: { DATA_DIR: dataDir, PORT: '0' } });
    try {
      const ready = await host.client.ready;
      expect((await fetch(`${ready.url}/api/openapi.json`)).status).toBe(200);
      expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
    } finally {
      if (host.child.exitCode === null) host.child.kill('SIGKILL');
      fs.rmSync(work, { recursive: true, force: true }); // some 150 MB of package
    }
  }, 300_000);
});

const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_NAMES = [
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
  const binary = Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), Buffer.from(FUSE_SENTINEL), Buffer.from([1, defaults.length]), Buffer.from(defaults)]);
  fs.writeFileSync(path.join(dir, 'electron'), binary, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'version'), (require('electron/package.json') as { version: string }).version);
  return dir;
}

function readFuseWire(file: string): Record<(typeof FUSE_NAMES)[number], boolean> {
  const bytes = fs.readFileSync(file);
  const at = bytes.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  expect(at).toBeGreaterThan(FUSE_SENTINEL.length - 1);
  const wire = bytes.subarray(at + 2, at + 2 + bytes[at + 1]!).toString('latin1');
  return Object.fromEntries(FUSE_NAMES.map((name, index) => [name, wire[index] === '1'])) as Record<(typeof FUSE_NAMES)[number], boolean>;
}
