import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema';

/** drizzle over the SQLite connection: for server/db's repositories only. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: BetterSqlite3.Database };

/**
 * The storage as the domain sees it: transactions, whichever engine is behind them (SQLite in
 * DATA_DIR, or PostgreSQL). Everything else the domain reads and writes goes through the
 * repositories (`repos/`), whose every call is asynchronous.
 */
export type Database = {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `work` in one transaction: the state change, its activity entry, its webhook events and
   * its messages commit together or not at all. Repository calls made by `work` (however deep,
   * through whatever context) belong to the transaction; a transaction begun inside another is
   * a savepoint of it.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` with every read in one snapshot, so that what it reads in several statements (a
   * delivery and its attempts) is of one moment while writers go on: REPEATABLE READ, READ ONLY
   * on PostgreSQL; on SQLite, whose one connection serves one transaction at a time, a
   * transaction.
   */
  snapshot<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Whether the database answers within `timeoutMs` (the health check a load balancer asks):
   * PostgreSQL is asked a `SELECT 1`; SQLite is a file of this process and always answers.
   */
  answers(timeoutMs: number): Promise<boolean>;
  /** Whether the caller runs inside a transaction of this database. */
  isInTransaction(): boolean;
};

/** `inTransaction(ctx.db, async () => …)`: see Database.transaction. */
export function inTransaction<T>(db: Database, work: () => Promise<T>): Promise<T> {
  return db.transaction(work);
}

type Frame = { isOpen: boolean; savepoints: number };

/**
 * SQLite: one connection, one writer. A transaction holds the connection from BEGIN to COMMIT,
 * across its awaits: a statement of any other request waits until it is over (so that nothing
 * of another request lands inside it, or reads what it has not committed), while the
 * transaction's own statements, found by the async context they run in, go ahead. A statement
 * with no transaction open runs at once, as it always did.
 */
export type SqliteDatabase = Database & {
  readonly dialect: 'sqlite';
  /** drizzle over the connection, for the repositories. */
  readonly orm: Db;
  readonly sqlite: BetterSqlite3.Database;
  /** Runs `statements` (synchronous better-sqlite3 calls) on the connection when it is this caller's turn. */
  run<T>(statements: () => T): Promise<T>;
  /** The same, for a caller that cannot wait: it must hold the connection already or find it free. */
  runNow<T>(statements: () => T): T;
};

/** Every database's transaction context, so that work started inside a transaction can leave it. */
const transactionContexts = new Set<AsyncLocalStorage<unknown>>();

/** An AsyncLocalStorage for a database's transactions, which `outsideTransactions` leaves. */
export function transactionContext<T>(): AsyncLocalStorage<T> {
  const context = new AsyncLocalStorage<T>();
  transactionContexts.add(context as AsyncLocalStorage<unknown>);
  return context;
}

/**
 * Runs `work` as if no transaction were open: for work that a transaction only sets going (a
 * queue woken by what it enqueued, a timer), which must not run its statements inside that
 * transaction, on its connection and interleaved with it, merely because async context follows
 * timers and promises.
 */
export function outsideTransactions<T>(work: () => T): T {
  let run = work;
  for (const context of transactionContexts) {
    const inner = run;
    run = () => context.exit(inner);
  }
  return run();
}

export function createSqliteDatabase(orm: Db): SqliteDatabase {
  const sqlite = orm.$client;
  const flows = transactionContext<Frame>();
  let holder: Frame | undefined;
  let waiting: Array<() => void> = [];
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  const commit = sqlite.prepare('COMMIT');
  const rollback = sqlite.prepare('ROLLBACK');

  const isHeldHere = (): boolean => holder !== undefined && flows.getStore() === holder;
  const isMyTurn = (): boolean => holder === undefined || isHeldHere();
  const nextTurn = () => new Promise<void>((resolve) => waiting.push(resolve));
  const release = () => {
    holder = undefined;
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };

  const runNow = <T>(statements: () => T): T => {
    if (!isMyTurn()) throw new Error('the SQLite connection is held by another transaction');
    return statements();
  };
  const run = <T>(statements: () => T): Promise<T> => {
    if (isMyTurn()) {
      try {
        return Promise.resolve(statements());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return (async () => {
      // The check and the statements run in one go: nothing can take the connection between.
      while (!isMyTurn()) await nextTurn();
      return statements();
    })();
  };

  const savepoint = async <T>(frame: Frame, work: () => Promise<T>): Promise<T> => {
    frame.savepoints += 1;
    const name = `sd_savepoint_${frame.savepoints}`;
    sqlite.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      sqlite.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (sqlite.inTransaction) {
        sqlite.exec(`ROLLBACK TO ${name}`);
        sqlite.exec(`RELEASE ${name}`);
      }
      throw error;
    }
  };

  const transaction = async <T>(work: () => Promise<T>): Promise<T> => {
    const outer = flows.getStore();
    if (outer && outer.isOpen && outer === holder) return savepoint(outer, work);
    while (holder !== undefined) await nextTurn();
    const frame: Frame = { isOpen: true, savepoints: 0 };
    holder = frame;
    try {
      begin.run();
    } catch (error) {
      frame.isOpen = false;
      release();
      throw error;
    }
    try {
      const result = await flows.run(frame, work);
      commit.run();
      return result;
    } catch (error) {
      if (sqlite.inTransaction) rollback.run();
      throw error;
    } finally {
      frame.isOpen = false;
      release();
    }
  };

  return {
    dialect: 'sqlite',
    orm,
    sqlite,
    transaction,
    snapshot: transaction,
    answers: async () => true,
    isInTransaction: () => isHeldHere() && sqlite.inTransaction,
    run,
    runNow,
  };
}

/** The SQLite connection behind a Database, for server/db's SQLite-only work (backups, searches, the file sweep). */
export function sqliteOf(db: Database): SqliteDatabase {
  if (db.dialect !== 'sqlite') throw new Error('this needs the SQLite database of DATA_DIR');
  return db as SqliteDatabase;
}
