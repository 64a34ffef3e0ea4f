import pino from 'pino';
import type { Config } from '../config/config';
import type { AppContext } from '../context/app-context';
import { createContext } from './create-context';
import { baseUrlsOf, partyListenUrl } from '../reach/public-surface';
import { prepareDataDir } from '../db/data-dir';
import { DataDirBusy, lockDataDir } from '../db/data-dir-lock';
import { removeStaleScratch } from '../backup/scratch-dir';
import { openStorage, type Storage } from './open-storage';

/**
 * A context over DATA_DIR without a listening server, for the CLI. It takes DATA_DIR's lock as
 * `lockRole`: a command is refused (DataDirBusy) while a server or another command has it, but a
 * command that may run beside a server (`mayRunBeside`: a read, or a small write in one
 * transaction that the server sees at once) goes on without the lock then (WAL lets both work),
 * and holds it otherwise, so no server or restore starts under it.
 * `'unlocked'` is for tests only: they write beside a server of theirs in another process to see
 * that it finds work it did not queue itself.
 */
export async function openOfflineContext(
  given: Config,
  lockAs: { role: string; mayRunBeside?: boolean } | 'unlocked',
): Promise<{ ctx: AppContext; close(): Promise<void> }> {
  const config: Config = { ...given };
  const paths = prepareDataDir(config.dataDir);
  let lock: ReturnType<typeof lockDataDir> | undefined;
  try {
    if (lockAs !== 'unlocked') lock = lockDataDir(paths.root, lockAs.role);
  } catch (err) {
    if (!(err instanceof DataDirBusy) || lockAs === 'unlocked' || !lockAs.mayRunBeside) throw err;
  }
  let storage: Storage;
  try {
    if (lock) removeStaleScratch(paths.root);
    storage = await openStorage(config, paths);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const ctx = await createContext({
    config,
    paths,
    db: storage.db,
    keys: storage.keys,
    logger: pino({ level: 'silent' }),
    ...baseUrlsOf(
      config,
      () => `http://${config.host}:${config.port}`,
      () => (config.publicPort === undefined ? undefined : partyListenUrl(config, config.publicPort)),
    ),
  });
  return {
    ctx,
    close: async () => {
      await storage.close();
      lock?.release();
    },
  };
}
