import express from 'express';

/** The baseline of bench/api: bare Express 5 routes answering the same JSON as ours, no DB, no conventions. */
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
const app = express();
app.get('/bare/users/:id', (_req, res) => {
  res.json(user);
});
app.post('/bare/contract_templates', express.json(), (req, res) => {
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
