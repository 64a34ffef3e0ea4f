import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createContractSearch } from './repos/contract-search';

// A contract-search thread (server/db/search-pool.ts): its own read-only connection to the office's
// database (WAL lets it read beside the request connection's writes), the same search as the
// request thread's, so that a search's index reads never hold up the event loop.

export type SearchWorkerData = { file: string; nativeBinding: string | undefined };
export type SearchRequest = { id: number; name: string | undefined; q: string | undefined };
export type SearchReply = { id: number; ids?: number[] | undefined; error?: string };

const port = parentPort;
if (!port) throw new Error('the contract search runs as a worker thread');
const data = workerData as SearchWorkerData;
const sqlite = new Database(data.file, {
  readonly: true,
  fileMustExist: true,
  ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
});
sqlite.pragma('busy_timeout = 5000');
const search = createContractSearch(sqlite);

port.on('message', (message: SearchRequest | 'stop') => {
  if (message === 'stop') {
    sqlite.close();
    port.close();
    return;
  }
  let reply: SearchReply;
  try {
    reply = { id: message.id, ids: search.findWindow(message.name, message.q) };
  } catch (error) {
    reply = { id: message.id, error: String((error instanceof Error && error.message) || error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
