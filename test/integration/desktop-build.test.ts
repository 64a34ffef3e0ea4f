import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveAppFiles } from '../../main/app-paths';
import { SEAL_FONT_FILES } from '../../server/pdf/seal-fonts';
import { buildDesktop, DESKTOP_OUTPUTS, RUNTIME_MODULES, type DesktopBuild } from '../../scripts/build';
import {
  expectAdminWindowSignsIn,
  prepareDataDir,
  readSignedPdf,
  signContractThroughTheApi,
} from '../helpers/desktop-smoke';
import {
  asar,
  BUILD_ARCH,
  installedPackages,
  listFiles,
  loadBuilderConfig,
  matched,
  packageOf,
  packagesTheAddonsLoad,
  packLinuxDir,
  readFuseWire,
  ROOT as root,
  validateConfiguration,
} from '../helpers/electron-builder';
import { forkHost } from '../helpers/host-process';
import { pdfsig } from '../helpers/pdf-tools';
import { startServerCommand } from '../helpers/server-command';
import { makeTempDir } from '../helpers/server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  main: string;
  version: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const config = loadBuilderConfig();
const WEB_APPS = ['dist/renderer', 'dist/signing'];
const includes = config.files.filter((pattern) => !pattern.startsWith('!'));
const fontFiles = Object.values(SEAL_FONT_FILES).map((file) => `node_modules/${file}`);
/** sodium-native's prebuilds the package takes: the build architecture's, for each desktop OS. */
const SODIUM_HOSTS = ['darwin', 'linux', 'win32'].map((os) => `${os}-${BUILD_ARCH}`);
/**
 * The whole package must stay well under this (it was 137 MB with every dependency in it). Of
 * it, the Skia canvas that draws pages for the signing page is 33 MB and pdf.js with its data 5 MB.
 */
const PACKAGE_BUDGET_BYTES = 80 * 1024 * 1024;
/** pdf.js: imported at run time (an ES module reading its data files beside itself), not bundled. */
const PDFJS_FILES = [
  'legacy/build/pdf.min.mjs',
  'legacy/build/pdf.worker.min.mjs',
  'standard_fonts/FoxitSerif.pfb',
  'wasm/openjpeg.wasm',
].map((file) => `node_modules/pdfjs-dist/${file}`);

function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function sizeOf(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(target).reduce((sum, name) => sum + sizeOf(path.join(target, name)), 0);
}

describe('the desktop build and the electron-builder configuration', () => {
  let build: DesktopBuild;
  let candidates: string[];

  beforeAll(async () => {
    // `npm run build` is the two Vite builds, then ours. The Vite ones are test/global-setup.ts's
    // (once per run: the browser tests read them at the same time), so only ours runs here.
    for (const app of WEB_APPS)
      expect(fs.existsSync(path.join(root, app, 'index.html')), `${app} is not built`).toBe(true);
    expect(pkg.scripts.build).toBe('npm run build:renderer && npm run build:signing && tsx scripts/build.ts');
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

  it('matches real files with every files pattern', () => {
    for (const pattern of includes) {
      const name = packageOf(pattern);
      const files = name
        ? installedPackages(name).flatMap((installed) => listFiles(path.join(root, 'node_modules', installed)))
        : candidates;
      expect(matched([pattern], files), `${pattern} matches nothing`).not.toEqual([]);
    }
  });

  it("puts everything the app loads at run time into the package: bundles, migrations, icons, both web apps, the docs' examples, fonts, addons", () => {
    const appFiles = resolveAppFiles(path.join(root, 'dist/main'));
    const needed = new Set([
      pkg.main,
      DESKTOP_OUTPUTS.main,
      DESKTOP_OUTPUTS.preload,
      DESKTOP_OUTPUTS.host,
      ...listFiles(path.join(root, DESKTOP_OUTPUTS.migrations)),
      ...Object.values(appFiles).map((file) => path.relative(root, file).split(path.sep).join('/')),
      ...WEB_APPS.flatMap((app) => listFiles(path.join(root, app))),
      ...listFiles(path.join(root, DESKTOP_OUTPUTS.examples)),
      ...fontFiles,
      ...PDFJS_FILES,
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      `node_modules/sodium-native/prebuilds/linux-${BUILD_ARCH}/sodium-native.node`,
    ]);
    for (const file of needed) expect(fs.existsSync(path.join(root, file)), `${file} was not built`).toBe(true);
    expect(matched(config.files, [...needed]).sort()).toEqual([...needed].sort());
    // Every migration the server has is in the bundle's copy.
    expect(
      listFiles(path.join(root, DESKTOP_OUTPUTS.migrations))
        .map((file) => path.basename(file))
        .sort(),
    ).toEqual(
      listFiles(path.join(root, 'server/db/migrations'))
        .map((file) => path.basename(file))
        .sort(),
    );
  });

  it('takes from node_modules only what the bundles cannot hold: the addons, what they load, pdf.js, the font files', () => {
    // Everything else in node_modules is left out first; the list after that adds back.
    const firstInclude = config.files.findIndex((pattern) => !pattern.startsWith('!') && packageOf(pattern));
    expect(config.files.indexOf('!node_modules/**/*')).toBeGreaterThan(-1);
    expect(config.files.indexOf('!node_modules/**/*')).toBeLessThan(firstInclude);
    const listed = [
      ...new Set(
        includes
          .map(packageOf)
          .filter((name) => name !== undefined)
          .flatMap(installedPackages),
      ),
    ].sort();
    const fontPackages = fontFiles.map((file) => packageOf(file) as string);
    expect(listed).toEqual([...new Set([...packagesTheAddonsLoad(), ...fontPackages, 'pdfjs-dist'])].sort());

    // No sources, build leftovers, Bare builds, other architectures, unused weights or previews.
    const packaged = (name: string) => matched(config.files, listFiles(path.join(root, 'node_modules', name)));
    expect(
      packaged('better-sqlite3')
        .filter((file) => !file.includes('/lib/'))
        .sort(),
    ).toEqual([
      'node_modules/better-sqlite3/LICENSE',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/better-sqlite3/package.json',
    ]);
    expect(
      packaged('sodium-native')
        .filter((file) => file.includes('/prebuilds/'))
        .sort(),
    ).toEqual(SODIUM_HOSTS.map((host) => `node_modules/sodium-native/prebuilds/${host}/sodium-native.node`));
    for (const name of new Set(fontPackages)) {
      expect(packaged(name).filter((file) => file.endsWith('.ttf') || file.endsWith('.png'))).toEqual(
        fontFiles.filter((file) => file.startsWith(`node_modules/${name}/`)),
      );
      expect(packaged(name)).toEqual(expect.arrayContaining([`node_modules/${name}/LICENSE_FONT`]));
    }
  });

  it('unpacks exactly the native modules, the worker threads, their fonts and pdf.js; those are production dependencies the bundles leave external', () => {
    expect(config.asarUnpack).toEqual([
      'node_modules/better-sqlite3/**/*',
      'node_modules/sodium-native/**/*',
      'node_modules/@napi-rs/**/*',
      `${DESKTOP_OUTPUTS.workers}/**/*`,
      'node_modules/@expo-google-fonts/**/*',
      'node_modules/pdfjs-dist/**/*',
    ]);
    for (const name of RUNTIME_MODULES) {
      expect(pkg.dependencies, `${name} must be a dependency to be rebuilt for Electron`).toHaveProperty(name);
      expect(fs.existsSync(path.join(root, 'node_modules', name, 'package.json'))).toBe(true);
    }
    expect(config).toMatchObject({ npmRebuild: true, buildDependenciesFromSource: false });
    // What the bundles still import at run time: natives only (the server) and electron (the shell).
    for (const name of build.externals.host) expect(RUNTIME_MODULES).toContain(name);
    expect(build.externals.host).toContain('pdfjs-dist');
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

  it('builds a server host that starts as in the utility process, serves the built admin UI, signs the admin in and stops cleanly', async () => {
    const { dataDir } = await prepareDataDir('signdesk-bundle-');
    const host = forkHost({ entry: path.join(root, DESKTOP_OUTPUTS.host), env: { DATA_DIR: dataDir, PORT: '0' } });
    try {
      const ready = await host.client.ready;
      const response = await fetch(`${ready.url}/api/openapi.json`);
      expect(((await response.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
      await expectAdminWindowSignsIn(ready.url, await host.client.adminLoginUrl());
      expect(await host.client.status()).toMatchObject({ url: ready.url, queuedDeliveries: 0, outboxPending: 0 });
      expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
      expect(fs.existsSync(path.join(dataDir, 'signdesk.sqlite-wal'))).toBe(false);
    } finally {
      if (host.child.exitCode === null) host.child.kill('SIGKILL');
    }
  });

  it('runs the headless server from its bundle with npm run server and npm start, and from the sources once one is newer', async () => {
    const { dataDir, key } = await prepareDataDir('signdesk-headless-');
    const receiver = await startWebhookReceiver();
    let contractId = 0;
    try {
      for (const command of [['run', 'server'], ['start']]) {
        const server = await startServerCommand(command, { DATA_DIR: dataDir, PORT: '0', WEBHOOK_FIRST_DELAY_S: '0' });
        try {
          expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(200);
          expect(server.output(), command.join(' ')).not.toContain('TypeScript sources');
          // The PDF work runs on the worker threads' bundles beside main.cjs.
          if (contractId === 0) contractId = await signContractThroughTheApi(server.url, key, receiver);
        } finally {
          await server.stop();
        }
        expect(server.output()).toContain('SIGTERM: shutting down');
      }
    } finally {
      await receiver.close();
    }
    expect(pdfsig(readSignedPdf(dataDir, contractId))).toMatch(/Signature Validation: Signature is Valid\./);
    expect(fs.readFileSync(path.join(dataDir, 'logs', 'signdesk.log'), 'utf8')).not.toMatch(
      /back on the request connection/,
    );
    // A source edited after the build: the sources run, and say why.
    const source = path.join(root, 'server/core/version.ts');
    const { atime, mtime } = fs.statSync(source);
    fs.utimesSync(source, atime, new Date(Date.now() + 60_000));
    try {
      const server = await startServerCommand(['run', 'server'], { DATA_DIR: dataDir, PORT: '0' });
      await server.stop();
      expect(server.output()).toContain(
        'Running the server from its TypeScript sources (dist/server/main.cjs: server/core/version.ts changed since;',
      );
    } finally {
      fs.utimesSync(source, atime, mtime);
    }
  }, 300_000);

  it('packs into an app electron-builder lays out: fuses flipped, bundles in a trim asar, natives beside it, and the whole service running from it', async () => {
    const work = makeTempDir('signdesk-package-');
    const receiver = await startWebhookReceiver();
    try {
      const appDir = packLinuxDir(work);
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

      // The asar holds the bundles, both web apps, the fonts, not our sources or dev tools.
      const asarFile = path.join(appDir, 'resources', 'app.asar');
      const inAsar = new Set(asar.listPackage(asarFile).map((file) => file.split(path.sep).join('/')));
      const present = [
        '/package.json',
        DESKTOP_OUTPUTS.main,
        DESKTOP_OUTPUTS.preload,
        DESKTOP_OUTPUTS.host,
        `${DESKTOP_OUTPUTS.migrations}/meta/_journal.json`,
        `${DESKTOP_OUTPUTS.assets}/tray.png`,
        'dist/renderer/index.html',
        'dist/signing/index.html',
        `${DESKTOP_OUTPUTS.examples}/webhook-receiver.mjs`,
        ...fontFiles,
        'node_modules/better-sqlite3/package.json',
      ];
      for (const file of present) expect(inAsar, file).toContain(file.startsWith('/') ? file : `/${file}`);
      for (const absent of [
        '/server/index.ts',
        '/main/index.ts',
        `/${DESKTOP_OUTPUTS.headless}`,
        '/test',
        '/electron-builder.yml',
        '/node_modules/electron',
        '/node_modules/vitest',
        '/node_modules/esbuild',
        '/node_modules/express',
        '/node_modules/pdf-lib',
        '/node_modules/better-sqlite3/deps',
        '/node_modules/better-sqlite3/src',
        '/node_modules/@expo-google-fonts/noto-sans/100Thin',
      ]) {
        expect(inAsar, absent).not.toContain(absent);
      }
      // The native addons sit outside the archive, where the OS loader can open them.
      const unpacked = `${asarFile}.unpacked`;
      expect(fs.existsSync(path.join(unpacked, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(
        true,
      );
      expect(fs.readdirSync(path.join(unpacked, 'node_modules/sodium-native/prebuilds')).sort()).toEqual(SODIUM_HOSTS);
      expect(fs.existsSync(path.join(unpacked, DESKTOP_OUTPUTS.workers, 'pdf-sandbox.cjs'))).toBe(true);
      for (const font of fontFiles) expect(fs.existsSync(path.join(unpacked, font)), font).toBe(true);
      for (const file of PDFJS_FILES) expect(fs.existsSync(path.join(unpacked, file)), file).toBe(true);
      const skia = installedPackages('@napi-rs/canvas-*').map((name) => path.join(unpacked, 'node_modules', name));
      expect(skia.flatMap((folder) => fs.readdirSync(folder)).filter((file) => file.endsWith('.node'))).toHaveLength(1);
      expect(sizeOf(asarFile) + sizeOf(unpacked)).toBeLessThan(PACKAGE_BUDGET_BYTES);

      // The packaged server runs from the package's own files and node_modules (unpacked
      // natives included), as the utility process would run it, and does all of its work.
      const extracted = path.join(work, 'app');
      asar.extractAll(asarFile, extracted);
      const { dataDir, key } = await prepareDataDir('signdesk-packaged-');
      const host = forkHost({
        entry: path.join(extracted, DESKTOP_OUTPUTS.host),
        env: { DATA_DIR: dataDir, PORT: '0', WEBHOOK_FIRST_DELAY_S: '0' },
      });
      let contractId: number;
      try {
        const ready = await host.client.ready;
        await expectAdminWindowSignsIn(ready.url, await host.client.adminLoginUrl());
        contractId = await signContractThroughTheApi(ready.url, key, receiver);
        // The API docs show the receivers from the package's own copy.
        expect((await fetch(`${ready.url}/apidoc/v1/examples/webhook-receiver.mjs`)).status).toBe(200);
        expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
      } finally {
        if (host.child.exitCode === null) host.child.kill('SIGKILL');
      }
      expect(pdfsig(readSignedPdf(dataDir, contractId))).toMatch(/Signature Validation: Signature is Valid\./);
      // Its worker threads ran from their own bundles: the checkpointer never fell back to the request connection.
      expect(fs.readFileSync(path.join(dataDir, 'logs', 'signdesk.log'), 'utf8')).not.toMatch(
        /back on the request connection/,
      );
    } finally {
      await receiver.close();
      fs.rmSync(work, { recursive: true, force: true }); // the package and its extracted copy, some 50 MB
    }
  }, 300_000);
});
