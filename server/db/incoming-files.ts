import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A private `.incoming-…` folder of DATA_DIR `root` where uploads are staged before their file
 * store places them (made at the first upload; one a crash left is removed at the next start, as
 * scratch folders are: backup/scratch-dir.ts). Gives a new file name in it, the folder made again
 * should something have taken it away meanwhile.
 */
export function createIncomingFiles(root: string): () => string {
  let incoming: string | undefined;
  const incomingDir = () => {
    if (incoming) return incoming;
    incoming = path.join(root, `.incoming-${randomBytes(6).toString('hex')}`);
    fs.mkdirSync(incoming, { mode: 0o700 });
    return incoming;
  };
  const existingIncomingDir = () => {
    const dir = incomingDir();
    if (fs.existsSync(dir)) return dir;
    incoming = undefined;
    return incomingDir();
  };
  return () => path.join(existingIncomingDir(), randomBytes(12).toString('hex'));
}
