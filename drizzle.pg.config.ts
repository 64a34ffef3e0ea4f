import { defineConfig } from 'drizzle-kit';

/** The PostgreSQL migrations, made from the same schema as SQLite's (server/db/pg/schema.ts). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/pg/tables.ts',
  out: './server/db/migrations-pg',
});
