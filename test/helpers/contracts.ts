import { expect } from 'vitest';
import { makePdf } from './pdfs';
import type { TestServer } from './server';

/** A draft made from an uploaded PDF of `pages` A4 pages. */
export async function newDraft(t: TestServer, pages = 2): Promise<{ self: string; id: number }> {
  const response = await t.api('POST', '/api/contracts', {
    raw: { data: await makePdf({ pages }), contentType: 'application/pdf' },
  });
  expect(response.status).toBe(201);
  return { self: response.body.self, id: Number(response.body.self.split('/').at(-1)) };
}

/** Everything stored about one contract, to show that a refused request changed nothing. */
export function contractState(t: TestServer, contractId: number): Record<string, unknown> {
  const sqlite = t.server.ctx.db.$client;
  const all = (table: string) =>
    sqlite.prepare(`SELECT * FROM ${table} WHERE contract_id = ? ORDER BY id`).all(contractId);
  return {
    contract: sqlite.prepare('SELECT * FROM contracts WHERE id = ?').get(contractId),
    parties: all('parties'),
    annotations: all('annotations'),
    attachments: all('attachments'),
    activity: all('activity_log'),
    files: sqlite.prepare('SELECT id, sha256, size FROM stored_files ORDER BY id').all(),
    counts: sqlite.prepare('SELECT * FROM contract_counts ORDER BY scope').all(),
  };
}

export const partyBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Anna Andersson',
  email: 'anna@example.se',
  ...overrides,
});

export const fieldBody = (partyId: string, overrides: Record<string, unknown> = {}) => ({
  party_id: partyId,
  pdf_page: 1,
  pos_x: 50,
  pos_y: 700,
  width: 200,
  height: 50,
  type: 'SIGNATURE',
  ...overrides,
});
