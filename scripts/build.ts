// `npm run build`: bundles the desktop shell with esbuild into dist/ (the Vite builds of the
// admin UI and the signing page, `build:renderer` and `build:signing`, run first and write
// dist/renderer and dist/signing):
//   dist/main/index.js      Electron main (ESM, Node 22 of Electron 39)
//   dist/main/preload.cjs   the sandboxed preload (CommonJS, nothing but electron)
//   dist/main/assets/       window and tray icons
//   dist/server/host.cjs    the server host for the utility process (CommonJS), natives external
//   dist/server/main.cjs    the headless server (`npm run server`, `npm start` without Electron),
//                           with main.inputs.json: the sources it was made from (scripts/server.mjs
//                           runs it only while none of them is newer)
//   dist/server/workers/    the server's worker threads, one bundle each (server/core/worker-thread.ts),
//                           which host.cjs and main.cjs both start from beside themselves
//   dist/server/db/migrations/  the drizzle migrations, where host.ts looks for them
//   dist/server/db/migrations-pg/  PostgreSQL's, where main.cjs looks for them
//   dist/examples/          the webhook receivers of docs/examples, which /apidoc shows and serves
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { WORKER_ENTRIES } from '../server/core/worker-thread';

/** Addons that cannot be bundled: loaded from node_modules (unpacked from the asar) at run time. */
export const NATIVE_MODULES = ['better-sqlite3', 'sodium-native', '@napi-rs/canvas'] as const;
/**
 * Modules the bundles import from node_modules at run time besides the addons: pdf.js, an ES
 * module that reads its own data files (fonts, CMaps, wasm) beside itself, imported by the PDF
 * sandbox only when it draws a page.
 */
export const RUNTIME_MODULES = [...NATIVE_MODULES, 'pdfjs-dist'] as const;
/**
 * Imports the bundles keep but never make: node-postgres's optional native binding, loaded only
 * when `pg.native` is read (we never do; pg's own JavaScript client runs), and never installed.
 */
const NEVER_LOADED = ['pg-native'];

// Electron 39 runs Node 22 and Chromium 142.
const NODE_TARGET = 'node22';
const CHROME_TARGET = 'chrome142';

export const DESKTOP_OUTPUTS = {
  main: 'dist/main/index.js',
  preload: 'dist/main/preload.cjs',
  host: 'dist/server/host.cjs',
  headless: 'dist/server/main.cjs',
  headlessInputs: 'dist/server/main.inputs.json',
  workers: 'dist/server/workers',
  migrations: 'dist/server/db/migrations',
  pgMigrations: 'dist/server/db/migrations-pg',
  examples: 'dist/examples',
  assets: 'dist/main/assets',
} as const;

export type DesktopBuild = {
  root: string;
  /** Packages each bundle still imports at run time (node: builtins left out); `host` counts its workers too. */
  externals: Record<'main' | 'preload' | 'host', string[]>;
  warnings: string[];
};

function externalImports(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      const isBuiltin = imported.path.startsWith('node:') || builtinModules.includes(imported.path);
      // By package: `pdfjs-dist/legacy/build/pdf.min.mjs` is pdfjs-dist.
      if (imported.external && !isBuiltin && !NEVER_LOADED.includes(imported.path))
        names.add(
          imported.path
            .split('/')
            .slice(0, imported.path.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  }
  return [...names].sort();
}

export async function buildDesktop(root = process.cwd()): Promise<DesktopBuild> {
  for (const dir of ['dist/main', 'dist/server']) fs.rmSync(path.join(root, dir), { recursive: true, force: true });
  const common = {
    absWorkingDir: root,
    bundle: true,
    // Maps turn the stack traces in the logs back into our sources (`--enable-source-maps`);
    // the sources themselves stay out of the package (two thirds of a map's size).
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  } as const satisfies BuildOptions;
  // The server bundles (host, headless server, worker threads) share their options: CommonJS
  // (express, pino and friends are CommonJS, and Electron's utility process runs it plainly),
  // natives external, `import.meta.url` (files beside the code) becoming the bundle's own file.
  // Whitespace and syntax minified (names kept, so stack traces still read): a third less to
  // read and parse at every start.
  const serverBundle = {
    ...common,
    minifyWhitespace: true,
    minifySyntax: true,
    platform: 'node',
    format: 'cjs',
    target: NODE_TARGET,
    external: [...RUNTIME_MODULES, ...NEVER_LOADED],
    define: {
      'import.meta.url': '__bundleFileUrl',
      'import.meta.dirname': '__dirname',
      'import.meta.filename': '__filename',
    },
    banner: { js: "const __bundleFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  } as const satisfies BuildOptions;
  const workers = Object.entries(WORKER_ENTRIES).map(([name, entry]) =>
    build({ ...serverBundle, entryPoints: [`server/${entry}`], outfile: `${DESKTOP_OUTPUTS.workers}/${name}.cjs` }),
  );
  const [main, preload, host, headless, ...workerBuilds] = await Promise.all([
    build({
      ...common,
      entryPoints: ['main/index.ts'],
      outfile: DESKTOP_OUTPUTS.main,
      platform: 'node',
      format: 'esm',
      target: NODE_TARGET,
      external: ['electron'],
    }),
    // platform 'browser': a sandboxed preload has no Node, so a builtin slipping in fails the build.
    build({
      ...common,
      entryPoints: ['main/preload.ts'],
      outfile: DESKTOP_OUTPUTS.preload,
      platform: 'browser',
      format: 'cjs',
      target: CHROME_TARGET,
      external: ['electron'],
    }),
    build({ ...serverBundle, entryPoints: ['server/host.ts'], outfile: DESKTOP_OUTPUTS.host }),
    // Node 20 runs `npm run server` (Electron's 22 the host); the same target suits both.
    build({ ...serverBundle, entryPoints: ['server/main.ts'], outfile: DESKTOP_OUTPUTS.headless }),
    ...workers,
  ]);
  // What the headless bundle and its workers were made from: our sources, the lockfile for the
  // dependencies, and the migrations' journals for the copies of the migrations beside it.
  const sources = [headless, ...workerBuilds].flatMap((bundle) => Object.keys(bundle.metafile.inputs));
  const inputs = [...new Set(sources)].filter((input) => !input.startsWith('node_modules/'));
  const manifest = {
    inputs: [
      ...inputs,
      'package-lock.json',
      'server/db/migrations/meta/_journal.json',
      'server/db/migrations-pg/meta/_journal.json',
    ],
  };
  fs.writeFileSync(path.join(root, DESKTOP_OUTPUTS.headlessInputs), `${JSON.stringify(manifest, null, 1)}\n`);
  fs.cpSync(path.join(root, 'server/db/migrations'), path.join(root, DESKTOP_OUTPUTS.migrations), { recursive: true });
  fs.cpSync(path.join(root, 'server/db/migrations-pg'), path.join(root, DESKTOP_OUTPUTS.pgMigrations), {
    recursive: true,
  });
  fs.rmSync(path.join(root, DESKTOP_OUTPUTS.examples), { recursive: true, force: true });
  fs.cpSync(path.join(root, 'docs/examples'), path.join(root, DESKTOP_OUTPUTS.examples), { recursive: true });
  fs.cpSync(path.join(root, 'main/assets'), path.join(root, DESKTOP_OUTPUTS.assets), {
    recursive: true,
    filter: (source) => !source.endsWith('.svg'),
  });
  return {
    root,
    externals: {
      main: externalImports(main.metafile),
      preload: externalImports(preload.metafile),
      host: [...new Set([host, ...workerBuilds].flatMap((bundle) => externalImports(bundle.metafile)))].sort(),
    },
    warnings: [main, preload, host, headless, ...workerBuilds]
      .flatMap((bundle) => bundle.warnings)
      .map((warning) => warning.text),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const result = await buildDesktop();
  for (const warning of result.warnings) console.warn(`warning: ${warning}`);
  console.log(
    `Built the desktop shell into dist/ in ${Date.now() - started} ms (host externals: ${result.externals.host.join(', ')}).`,
  );
}
