import { getTableName, is, SQL, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
} from 'drizzle-orm/pg-core';
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as sqliteSchema from '../schema';

/**
 * The PostgreSQL tables, made from the SQLite schema (server/db/schema/): one schema, two
 * dialects. Each SQLite column type has one PostgreSQL type with the same JavaScript value:
 * integers (ids, counts, epoch milliseconds) bigint, booleans boolean, text text, blobs bytea,
 * reals double precision, JSON text text. Indexes, primary keys, foreign keys and generated
 * columns carry over by name. `npm run db:generate` writes both dialects' migrations from it,
 * and test/integration/schema-drift.test.ts compares the two migrated databases.
 */

/** bytea as a Buffer, as better-sqlite3 gives a blob. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
/** JSON kept as text, as the SQLite column keeps it (drizzle's json mode: parsed and stringified). */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => 'text',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value) as unknown,
});

type AnySqliteColumn = SQLiteColumn & {
  columnType: string;
  autoIncrement?: boolean;
  generated?: { as: unknown; type: string } | undefined;
  defaultFn?: () => unknown;
};

function builderOf(column: AnySqliteColumn): PgColumnBuilderBase {
  const name = column.name;
  let builder;
  switch (column.columnType) {
    case 'SQLiteInteger':
      builder = bigint(name, { mode: 'number' });
      if (column.primary && column.autoIncrement) builder = builder.generatedByDefaultAsIdentity();
      break;
    case 'SQLiteBoolean':
      builder = boolean(name);
      break;
    case 'SQLiteText':
      builder = text(name);
      break;
    case 'SQLiteReal':
      builder = doublePrecision(name);
      break;
    case 'SQLiteBlobBuffer':
      builder = bytea(name);
      break;
    case 'SQLiteTextJson':
      builder = jsonText(name);
      break;
    default:
      throw new Error(`no PostgreSQL type for ${column.columnType} (${name})`);
  }
  if (column.primary) builder = builder.primaryKey();
  else if (column.notNull) builder = builder.notNull();
  if (column.generated) builder = builder.generatedAlwaysAs(column.generated.as as SQL);
  if (column.hasDefault && column.default !== undefined && !column.generated)
    builder = builder.default(column.default as never);
  if (column.defaultFn) builder = builder.$defaultFn(column.defaultFn as never);
  return builder as PgColumnBuilderBase;
}

type PgTables = { [K in keyof typeof sqliteSchema]: PgTableWithColumns<never> };

function deriveTables(): PgTables {
  const tables: Record<string, PgTableWithColumns<never>> = {};
  const byName = new Map<string, PgTableWithColumns<never>>();
  const columnOf = (table: string, column: string): AnyPgColumn => {
    const target = byName.get(table) as unknown as Record<string, AnyPgColumn> | undefined;
    const found = target && Object.values(target).find((value) => (value as { name?: string })?.name === column);
    if (!found) throw new Error(`no PostgreSQL column ${table}.${column}`);
    return found;
  };
  /** An index's SQL, its SQLite columns named as PostgreSQL's. */
  const mapSql = (value: unknown, own: (column: string) => AnyPgColumn): unknown => {
    if (!is(value, SQL)) return value;
    return sql.join(
      value.queryChunks.map((chunk) => {
        const named = chunk as { name?: string; table?: unknown };
        if (named.table && typeof named.name === 'string') return own(named.name);
        return chunk as SQL;
      }),
    );
  };
  for (const [key, candidate] of Object.entries(sqliteSchema)) {
    let config: ReturnType<typeof getTableConfig>;
    try {
      config = getTableConfig(candidate as SQLiteTable);
    } catch {
      continue;
    }
    const keys = Object.entries(candidate as unknown as Record<string, unknown>).filter(([, value]) =>
      config.columns.includes(value as SQLiteColumn),
    );
    const columns: Record<string, PgColumnBuilderBase> = {};
    for (const [property, column] of keys) columns[property] = builderOf(column as AnySqliteColumn);
    const name = config.name;
    const propertyOf = new Map(keys.map(([property, column]) => [(column as SQLiteColumn).name, property]));
    const table = pgTable(name, columns, (own) => {
      /** This table's column as its extra config has it (indexes need that form). */
      const ownColumn = (column: string) => {
        const property = propertyOf.get(column);
        const found = property === undefined ? undefined : (own as Record<string, AnyPgColumn>)[property];
        if (!found) throw new Error(`no PostgreSQL column ${name}.${column}`);
        return found;
      };
      return [
        ...config.primaryKeys.map((key) =>
          primaryKey({ name: key.getName(), columns: key.columns.map((column) => ownColumn(column.name)) as never }),
        ),
        ...config.foreignKeys.map((fk) => {
          const reference = fk.reference();
          const target = getTableName(reference.foreignTable);
          let built = foreignKey({
            name: fk.getName(),
            columns: reference.columns.map((column) => ownColumn(column.name)) as never,
            foreignColumns: reference.foreignColumns.map((column) => columnOf(target, column.name)) as never,
          });
          if (fk.onDelete) built = built.onDelete(fk.onDelete);
          if (fk.onUpdate) built = built.onUpdate(fk.onUpdate);
          return built;
        }),
        ...config.indexes.map((each) => {
          const { name: indexName, unique, where, columns: on } = each.config;
          const made = (unique ? uniqueIndex : index)(indexName).on(
            ...(on.map((column) => (is(column, SQL) ? mapSql(column, ownColumn) : ownColumn(column.name))) as [never]),
          );
          return where ? made.where(mapSql(where, ownColumn) as SQL) : made;
        }),
      ];
    });
    tables[key] = table as never;
    byName.set(name, table as never);
  }
  return tables as PgTables;
}

export const pgSchema = deriveTables();
