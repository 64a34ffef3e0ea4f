import { expect } from 'vitest';
import { makePdf } from './pdfs';
import type { TestServer } from './server';
import { rawSql } from '../../server/db/raw-sql';

/** A draft made from an uploaded PDF of `pages` A4 pages. */
export async function newDraft(t: TestServer, pages = 2): Promise<{ self: string; id: number }> {
  const response = await t.api('POST', '/api/contracts', {
    raw: { data: await makePdf({ pages }), contentType: 'application/pdf' },
  });
  expect(response.status).toBe(201);
  return { self: response.body.self, id: Number(response.body.self.split('/').at(-1)) };
}

/** Everything stored about one contract, to show that a refused request changed nothing. */
export async function contractState(t: TestServer, contractId: number): Promise<Record<string, unknown>> {
  const sqlite = rawSql(t.server.ctx.db);
  const all = (table: string) => sqlite.all(`SELECT * FROM ${table} WHERE contract_id = ? ORDER BY id`, contractId);
  return {
    contract: await sqlite.get('SELECT * FROM contracts WHERE id = ?', contractId),
    parties: await all('parties'),
    annotations: await all('annotations'),
    attachments: await all('attachments'),
    activity: await all('activity_log'),
    files: await sqlite.all('SELECT id, sha256, size FROM stored_files ORDER BY id'),
    counts: await sqlite.all('SELECT * FROM contract_counts ORDER BY scope'),
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
