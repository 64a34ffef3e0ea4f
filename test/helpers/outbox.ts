import { newDraft } from './contracts';
import type { TestServer } from './server';
import { expect } from 'vitest';
import type { SignDeskServer } from '../../server/index';
import { inTransaction } from '../../server/db/open-database';
import { enqueueMail, type OutgoingMail } from '../../server/messages/mail/enqueue-mail';
import { enqueueSms, type OutgoingSms } from '../../server/messages/sms/enqueue-sms';
import type { ApiClient } from './server';
import { rawSql } from '../../server/db/raw-sql';

/** Writes mail as the signing flow will: inside a transaction of the running server (or of a CLI-style context on its DATA_DIR). */
export async function queueMail(
  server: Pick<SignDeskServer, 'ctx'>,
  mail: Partial<OutgoingMail> & { to: string },
): Promise<number> {
  const full: OutgoingMail = { subject: 'Hello', text: 'Hello there', purpose: 'test', ...mail };
  return inTransaction(server.ctx.db, async () => enqueueMail(server.ctx, full));
}

export async function queueSms(server: SignDeskServer, sms: Partial<OutgoingSms> & { to: string }): Promise<number> {
  const full: OutgoingSms = { body: 'Hello there', purpose: 'test', ...sms };
  return inTransaction(server.ctx.db, async () => enqueueSms(server.ctx, full));
}

/** Polls GET /api/outbox/{id} until the message is in `state`, and returns it. */
export async function waitForOutboxState(api: ApiClient, id: number, state: string, timeoutMs = 15_000) {
  await expect
    .poll(async () => (await api('GET', `/api/outbox/${id}`)).body.state, { timeout: timeoutMs, interval: 25 })
    .toBe(state);
  return (await api('GET', `/api/outbox/${id}`)).body;
}

/** A real draft with `count` parties made through the API, for messages that name a party. */
export async function createParties(t: TestServer, count: number): Promise<{ contractId: number; partyIds: number[] }> {
  const { id: contractId, self } = await newDraft(t);
  const partyIds: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const party = await t.api('POST', `${self}/parties`, {
      body: { name: `Party ${i + 1}`, email: `party${i + 1}@example.test` },
    });
    partyIds.push(Number(party.body.self.split('/').at(-1)));
  }
  return { contractId, partyIds };
}

export async function partyFlags(server: SignDeskServer, id: number): Promise<Record<string, number>> {
  return (await rawSql(server.ctx.db).get('SELECT * FROM parties WHERE id = ?', id)) as Record<string, number>;
}
