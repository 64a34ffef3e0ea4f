import pg from 'pg';
import { transactionContext, type Database } from '../database';

/**
 * Every bigint PostgreSQL returns is a number here, as SQLite's integers are: ids, counts and
 * epoch milliseconds all stay far below 2^53. numeric (sums, averages) likewise.
 */
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * The one key of the advisory lock every write transaction takes first: writers take turns, as
 * SQLite's one writer does, across every instance on the database, so that a state change reads
 * what the last one committed (a chain's head, a contract's state) and nothing else writes in
 * between. Reads outside transactions go on meanwhile on the pool's other connections.
 */
export const WRITE_LOCK_KEY = 0x51_6e_44_65; // "SnDe"

export type PgPoolOptions = {
  /** Connections at most (DATABASE_POOL_MAX). */
  max: number;
  /** How long a request waits for a free connection before it fails (ms). */
  connectionTimeoutMs: number;
  /** How long a statement may run before PostgreSQL cancels it (ms). */
  statementTimeoutMs: number;
  /** A connection left idle inside a transaction this long is closed by PostgreSQL (ms). */
  idleInTransactionTimeoutMs: number;
};

export const DEFAULT_POOL_OPTIONS: PgPoolOptions = {
  max: 10,
  connectionTimeoutMs: 10_000,
  statementTimeoutMs: 60_000,
  idleInTransactionTimeoutMs: 60_000,
};

type Frame = { client: pg.PoolClient; isOpen: boolean; savepoints: number };

/** What runs a statement: node-postgres's query, on the transaction's connection or the pool. */
export type PgQueryable = { query: pg.Pool['query'] };

/**
 * PostgreSQL behind the same Database as SQLite: a pool with limits and timeouts; a transaction
 * is one connection from BEGIN to COMMIT, and every statement made in its async context (by any
 * repository, through any context) runs on that connection. `client` is what drizzle and the
 * plain statements are given: it sends each statement to the caller's transaction if there is
 * one, else to the pool.
 */
export type PgDatabase = Database & {
  readonly dialect: 'postgres';
  readonly pool: pg.Pool;
  readonly client: PgQueryable;
  close(): Promise<void>;
};

export function createPgPool(url: string, options: PgPoolOptions = DEFAULT_POOL_OPTIONS): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max,
    connectionTimeoutMillis: options.connectionTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs,
    application_name: 'signdesk',
  });
  // An idle connection the server closed (a restart, a failover, pg_terminate_backend) is
  // dropped by the pool and made anew at the next use; the statements that need it meanwhile
  // fail on their own, and /healthz answers 503. Unheard, the error would end the process.
  pool.on('error', () => {});
  return pool;
}

export function createPgDatabase(pool: pg.Pool): PgDatabase {
  const flows = transactionContext<Frame>();
  const current = (): Frame | undefined => {
    const frame = flows.getStore();
    return frame?.isOpen ? frame : undefined;
  };
  const client: PgQueryable = {
    query: ((...args: Parameters<pg.Pool['query']>) =>
      (current()?.client ?? pool).query(...(args as unknown as [string]))) as pg.Pool['query'],
  };

  const savepoint = async <T>(frame: Frame, work: () => Promise<T>): Promise<T> => {
    frame.savepoints += 1;
    const name = `sd_savepoint_${frame.savepoints}`;
    await frame.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await frame.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await frame.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      await frame.client.query(`RELEASE SAVEPOINT ${name}`);
      throw error;
    }
  };

  const transaction = async <T>(work: () => Promise<T>, isSnapshot = false): Promise<T> => {
    const outer = current();
    if (outer) return savepoint(outer, work);
    const connection = await pool.connect();
    const frame: Frame = { client: connection, isOpen: true, savepoints: 0 };
    let isBroken = false;
    try {
      if (isSnapshot) await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      else {
        await connection.query('BEGIN');
        await connection.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK_KEY]);
      }
      const result = await flows.run(frame, work);
      frame.isOpen = false;
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      frame.isOpen = false;
      try {
        await connection.query('ROLLBACK');
      } catch {
        isBroken = true;
      }
      throw error;
    } finally {
      frame.isOpen = false;
      connection.release(isBroken);
    }
  };

  return {
    dialect: 'postgres',
    pool,
    client,
    transaction: (work) => transaction(work),
    snapshot: (work) => transaction(work, true),
    answers: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const asked = pool.query('SELECT 1').then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([asked, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    isInTransaction: () => current() !== undefined,
    close: () => pool.end(),
  };
}
