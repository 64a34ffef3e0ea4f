import pino from 'pino';
import type { Config } from '../config/config';
import type { AppContext } from '../core/context';
import { createContext } from './create-context';
import { baseUrlsOf, partyListenUrl } from '../reach/public-surface';
import { prepareDataDir } from '../db/data-dir';
import { openDatabase } from '../db/open-database';

/**
 * A context over DATA_DIR without a listening server, for the CLI: it works whether or not
 * the server runs (WAL lets both open the database).
 */
export function openOfflineContext(given: Config): { ctx: AppContext; close(): void } {
  const config: Config = { ...given };
  const paths = prepareDataDir(config.dataDir);
  const database = openDatabase(paths.database);
  const ctx = createContext({
    config,
    paths,
    db: database.db,
    logger: pino({ level: 'silent' }),
    ...baseUrlsOf(
      config,
      () => `http://${config.host}:${config.port}`,
      () => (config.publicPort === undefined ? undefined : partyListenUrl(config, config.publicPort)),
    ),
  });
  return { ctx, close: database.close };
}
