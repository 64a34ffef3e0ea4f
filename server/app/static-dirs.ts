import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built web apps the server serves (Vite's output folders) and the files its API docs show. */
export type StaticDirs = {
  /** The admin UI (`npm run build:renderer`), served at /admin. */
  renderer: string;
  /** The party signing page (`npm run build:signing`), served under /sign. */
  signing: string;
  /** The webhook receivers of docs/examples, shown in /apidoc and served under /apidoc/v1/examples. */
  examples: string;
};

/** The folders inside a `dist` folder (the package's, or a checkout's after `npm run build`). */
export function staticDirsIn(distDir: string): StaticDirs {
  return {
    renderer: path.join(distDir, 'renderer'),
    signing: path.join(distDir, 'signing'),
    examples: path.join(distDir, 'examples'),
  };
}

/**
 * The given folders, else the checkout's dist/renderer, dist/signing and docs/examples: right
 * for `npm run server` from the sources and the tests. A bundled server (dist/server/*.cjs)
 * passes its own, since this file's location says nothing about the checkout there.
 */
export function resolveStaticDirs(given: Partial<StaticDirs> = {}): StaticDirs {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  return { ...staticDirsIn(path.join(root, 'dist')), examples: path.join(root, 'docs', 'examples'), ...given };
}

/**
 * What a server entry (server/host.ts, server/main.ts, or its bundle in dist/server/) passes to
 * createServer: the migrations of both engines beside it (the build copies them there) and the
 * folders it serves.
 */
export function filesOfEntry(entryUrl: string): {
  migrationsFolder: string;
  pgMigrationsFolder: string;
  staticDirs: StaticDirs;
} {
  const file = fileURLToPath(entryUrl);
  const dir = path.dirname(file);
  const isBundle = file.endsWith('.cjs');
  return {
    migrationsFolder: path.join(dir, 'db', 'migrations'),
    pgMigrationsFolder: path.join(dir, 'db', 'migrations-pg'),
    // The bundle sits inside dist/ beside the built folders (in the package's app.asar too).
    staticDirs: isBundle ? staticDirsIn(path.dirname(dir)) : resolveStaticDirs(),
  };
}
