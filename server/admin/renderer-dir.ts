import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the built admin UI (Vite's dist/renderer) is: beside the sources in a checkout, or
 * beside a bundled server in a package. RENDERER_DIR (resolved by the caller) wins.
 */
export function findRendererDir(override?: string): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = override ? [override] : [path.resolve(here, '../../dist/renderer'), path.resolve(here, '../renderer'), path.resolve(here, 'renderer')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')));
}
