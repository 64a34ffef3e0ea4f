import express from 'express';
import pg from 'pg';

/**
 * The baseline of bench/api: bare Express 5 routes answering the same JSON as ours, no
 * conventions. Without BARE_DATABASE_URL no database at all; with it (the PostgreSQL run), the
 * same reads and writes as ours through node-postgres: a user read by id, a template inserted.
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
app.post('/bare/upload', express.raw({ type: () => true, limit: '3mb' }), (req, res) => {
  res.json({ bytes: (req.body as Buffer).length });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`ready http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
