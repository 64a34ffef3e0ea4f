import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built web apps the server serves: Vite's output folders. */
export type StaticDirs = {
  /** The admin UI (`npm run build:renderer`), served at /admin. */
  renderer: string;
  /** The party signing page (`npm run build:signing`), served under /sign. */
  signing: string;
};

/** The Vite output folders inside a `dist` folder (the checkout's, or the package's). */
export function staticDirsIn(distDir: string): StaticDirs {
  return { renderer: path.join(distDir, 'renderer'), signing: path.join(distDir, 'signing') };
}

/**
 * The given folders, else the checkout's dist/renderer and dist/signing: right for
 * `npm run server` and the tests, which run the sources. A bundled server (dist/server/host.cjs)
 * passes its own, since this file's location says nothing about the checkout there.
 */
export function resolveStaticDirs(given: Partial<StaticDirs> = {}): StaticDirs {
  const checkoutDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  return { ...staticDirsIn(checkoutDist), ...given };
}
