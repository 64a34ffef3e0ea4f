import { drizzle } from 'drizzle-orm/node-postgres';
import type { Database, Db, SqliteDatabase } from './database';
import type { PgDatabase } from './pg/pg-database';
import { pgSchema } from './pg/schema';
import * as schema from './schema';
import { createPgStore, createSqliteStore, type Store, type Tables } from './store';

const stores = new WeakMap<Database, Store>();

/** The repositories' statements on a database, made once per database. */
export function storeOf(database: Database): Store {
  let store = stores.get(database);
  if (!store) {
    store =
      database.dialect === 'sqlite'
        ? createSqliteStore(database as SqliteDatabase, schema)
        : createPgStore(
            database as PgDatabase,
            drizzle({ client: (database as PgDatabase).client as never, schema: pgSchema }) as unknown as Db,
            pgSchema as unknown as Tables,
          );
    stores.set(database, store);
  }
  return store;
}
