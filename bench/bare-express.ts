import { createHash } from 'node:crypto';
import express from 'express';
import pg from 'pg';

/**
 * The baseline of bench/api: bare Express 5 routes answering the same JSON as ours, no
 * conventions. Without BARE_DATABASE_URL no database at all; with it (the PostgreSQL run), the
 * same reads and writes as ours through node-postgres: a user read by id, a template inserted, an
 * upload's bytes stored as ours stores a file there (content-addressed 256 KiB chunks, one
 * transaction; server/db/pg/pg-file-store.ts), so that the upload ratio compares like with like.
 */
const user = {
  self: '/api/users/1',
  permission_template: 'CUSTOMER_ADMIN_USER',
  firstname: 'Bench',
  lastname: 'Mark',
  username: 'bench',
  password: null,
  email: 'bench@office.test',
  active: true,
  created_time: '2026-11-22 10:00:00',
};
const url = process.env.BARE_DATABASE_URL;
const pool = url ? new pg.Pool({ connectionString: url, max: 10 }) : undefined;
if (pool) {
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bare_templates (id serial PRIMARY KEY, name text NOT NULL, content text NOT NULL, created_at bigint NOT NULL)',
  );
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bare_chunks (sha256 text NOT NULL, chunk integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (sha256, chunk))',
  );
}
const CHUNK_BYTES = 256 * 1024;

/** The bytes into bare_chunks, as ours puts an upload into file_chunks. */
async function storeBytes(db: pg.Pool, bytes: Buffer): Promise<void> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    for (let chunk = 0; chunk * CHUNK_BYTES < bytes.length; chunk += 1)
      await client.query({
        name: 'bare-chunk',
        text: 'INSERT INTO bare_chunks (sha256, chunk, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        values: [sha256, chunk, bytes.subarray(chunk * CHUNK_BYTES, (chunk + 1) * CHUNK_BYTES)],
      });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const app = express();
app.get('/bare/users/:id', async (req, res) => {
  if (!pool) {
    res.json(user);
    return;
  }
  const { rows } = await pool.query({
    name: 'bare-user',
    text: 'SELECT id, username, email, permission_template, active, created_at FROM users WHERE id = $1',
    values: [Number(req.params.id)],
  });
  res.json({ ...user, username: rows[0]?.username ?? user.username });
});
app.post('/bare/contract_templates', express.json(), async (req, res) => {
  if (pool) {
    await pool.query({
      name: 'bare-template',
      text: 'INSERT INTO bare_templates (name, content, created_at) VALUES ($1, $2, $3) RETURNING id',
      values: [req.body.name, req.body.content, Date.now()],
    });
  }
  res.status(201).json({
    self: '/api/contract_templates/1',
    name: req.body.name,
    is_published: false,
    header: '',
    content: req.body.content,
    footer: '',
    footer_type: 'SIMPLE',
    created_time: '2026-11-22 10:00:00',
    updated_time: '2026-11-22 10:00:00',
    created_by: '/api/users/1',
  });
});
app.post('/bare/upload', express.raw({ type: () => true, limit: '3mb' }), async (req, res) => {
  if (pool) await storeBytes(pool, req.body as Buffer);
  res.json({ bytes: (req.body as Buffer).length });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`ready http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
