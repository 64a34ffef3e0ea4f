import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a Vite build (dist/renderer: the admin UI; dist/signing: the party signing page) is:
 * beside the sources in a checkout, or beside a bundled server in a package. An explicit
 * directory (resolved by the caller) wins.
 */
export function findBuiltDir(name: 'renderer' | 'signing', override?: string): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = override
    ? [override]
    : [path.resolve(here, `../../dist/${name}`), path.resolve(here, `../${name}`), path.resolve(here, name)];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')));
}

export const findRendererDir = (override?: string) => findBuiltDir('renderer', override);
