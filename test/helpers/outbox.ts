import { expect } from 'vitest';
import type { SignDeskServer } from '../../server/index';
import { inTransaction } from '../../server/db/open-database';
import { enqueueMail, type OutgoingMail } from '../../server/mail/enqueue-mail';
import { enqueueSms, type OutgoingSms } from '../../server/sms/enqueue-sms';
import type { ApiClient } from './server';

/** Writes mail as the signing flow will: inside a transaction of the running server. */
export function queueMail(server: SignDeskServer, mail: Partial<OutgoingMail> & { to: string }): number {
  const full: OutgoingMail = { subject: 'Hello', text: 'Hello there', purpose: 'test', ...mail };
  return inTransaction(server.ctx.db, () => enqueueMail(server.ctx, full));
}

export function queueSms(server: SignDeskServer, sms: Partial<OutgoingSms> & { to: string }): number {
  const full: OutgoingSms = { body: 'Hello there', purpose: 'test', ...sms };
  return inTransaction(server.ctx.db, () => enqueueSms(server.ctx, full));
}

/** Polls GET /api/outbox/{id} until the message is in `state`, and returns it. */
export async function waitForOutboxState(api: ApiClient, id: number, state: string, timeoutMs = 15_000) {
  await expect
    .poll(async () => (await api('GET', `/api/outbox/${id}`)).body.state, { timeout: timeoutMs, interval: 25 })
    .toBe(state);
  return (await api('GET', `/api/outbox/${id}`)).body;
}

/**
 * MERGE(contracts): a stand-in for the contracts branch's `parties` table, with the nine
 * email_status columns the outbox writes, until that table is merged.
 */
export function createPartiesStandIn(server: SignDeskServer, ids: number[]): void {
  const flags = ['sent', 'opened', 'clicked', 'bounced', 'hardbounced', 'softbounced', 'blocked', 'unsub', 'spam'];
  const sqlite = server.ctx.db.$client;
  sqlite.exec(
    `CREATE TABLE IF NOT EXISTS parties (id INTEGER PRIMARY KEY, ${flags.map((flag) => `email_${flag} INTEGER NOT NULL DEFAULT 0`).join(', ')})`,
  );
  for (const id of ids) sqlite.prepare('INSERT INTO parties (id) VALUES (?)').run(id);
}

export function partyFlags(server: SignDeskServer, id: number): Record<string, number> {
  return server.ctx.db.$client.prepare('SELECT * FROM parties WHERE id = ?').get(id) as Record<string, number>;
}
