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
});
