import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { createSqliteDatabase, type Db } from './database';
import * as schema from './schema';
import { createSearchTasks, type SearchRequest, type SearchReply } from './search-tasks';
import { createSqliteStore } from './store';

// A contract-search thread (server/db/search-pool.ts): its own read-only connection to the office's
// database (WAL lets it read beside the request connection's writes) and the same repository
// queries as the request thread's, so that a search's reads never hold up the event loop.

export type SearchWorkerData = { file: string; nativeBinding: string | undefined };

const port = parentPort;
if (!port) throw new Error('the contract search runs as a worker thread');
const data = workerData as SearchWorkerData;
const sqlite = new Database(data.file, {
  readonly: true,
  fileMustExist: true,
  ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
});
sqlite.pragma('busy_timeout = 5000');
const tasks = createSearchTasks(createSqliteStore(createSqliteDatabase(drizzle(sqlite, { schema }) as Db), schema));

port.on('message', (message: SearchRequest | 'stop') => {
  if (message === 'stop') {
    sqlite.close();
    port.close();
    return;
  }
  const reply = (output: Pick<SearchReply, 'output' | 'error'>): void =>
    port.postMessage({ id: message.id, ...output });
  tasks.run(message).then(
    (output) => reply({ output }),
    (error: unknown) => reply({ error: String((error instanceof Error && error.message) || error) }),
  );
});
port.postMessage({ ready: true });
