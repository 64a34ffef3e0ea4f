import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkSendRepo } from '../../server/db/repos/bulk-sends';
import { createJobRepo } from '../../server/db/repos/jobs';
import { createOutboxRepo, type NewOutboxMessage } from '../../server/db/repos/outbox';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { addContract, addUser } from '../helpers/repo-rows';

const message = (fields: Partial<NewOutboxMessage> = {}): NewOutboxMessage => ({
  channel: 'email',
  recipient: 'party@example.test',
  recipients: [{ address: 'party@example.test', state: 'pending', response: null }],
  subject: 'Sign, please',
  text: 'sealed:v1:body',
  html: null,
  fromName: null,
  replyTo: null,
  purpose: 'invitation',
  contractId: null,
  partyId: null,
  state: 'queued',
  createdAt: 100,
  updatedAt: 100,
  ...fields,
});

/** The outbox and bulk sends, on each dialect. */
for (const dialect of DIALECTS)
  describe(`message repositories on ${dialect}`, () => {
    let opened: TestDatabase;
    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
    });
    afterAll(() => opened?.close());

    it('keeps outbox messages through their attempts, waits and retries', async () => {
      const outbox = createOutboxRepo(opened.store);
      const jobs = createJobRepo(opened.store);
      const id = await outbox.insert(message({ subject: undefined, contractId: 7 }));
      const stored = await outbox.findById(id);
      expect(stored).toMatchObject({
        state: 'queued',
        subject: null,
        contractId: 7,
        attempts: 0,
        roundAttempts: 0,
        messageId: null,
        recipients: [{ address: 'party@example.test', state: 'pending', response: null }],
      });
      expect(await outbox.findById(9_999)).toBeUndefined();

      // The Message-ID is fixed on the first attempt and kept on the next.
      expect(await outbox.startAttempt(id, 200, '<one@office.test>')).toBe(true);
      expect(await outbox.startAttempt(id, 210, '<two@office.test>')).toBe(true);
      expect(await outbox.findById(id)).toMatchObject({
        state: 'sending',
        attempts: 2,
        roundAttempts: 2,
        messageId: '<one@office.test>',
        updatedAt: 210,
      });
      await outbox.recordAttempt(
        id,
        {
          state: 'failed',
          recipients: [{ address: 'party@example.test', state: 'failed', response: '550 no such user' }],
          lastError: '550',
          response: '550 no such user',
          messageId: '<one@office.test>',
          sentAt: null,
          nextAttemptAt: null,
        },
        300,
      );
      expect(await outbox.startAttempt(id, 310, null)).toBe(false);
      const failed = (await outbox.findById(id))!;
      expect(failed).toMatchObject({ state: 'failed', lastError: '550', updatedAt: 300 });
      expect(failed.recipients[0]?.state).toBe('failed');
      await outbox.requeue(failed, 400);
      expect(await outbox.findById(id)).toMatchObject({
        state: 'queued',
        roundAttempts: 0,
        attempts: 2,
        nextAttemptAt: 400,
        recipients: [{ address: 'party@example.test', state: 'pending', response: '550 no such user' }],
      });

      // Without a configured server a message waits; configuring the channel wakes its messages.
      const sms = await outbox.insert(message({ channel: 'sms', recipient: '+46700000000' }));
      const sms2 = await outbox.insert(message({ channel: 'sms', recipient: '+46700000001' }));
      expect(await outbox.waitForConfig(sms2, 500)).toBe(true);
      expect(await outbox.waitForConfig(sms, 500)).toBe(true);
      expect(await outbox.waitForConfig(sms, 501)).toBe(false);
      expect(await outbox.countPending()).toBe(3);
      expect(await outbox.wakeWaiting('email', 600)).toEqual([]);
      expect(await outbox.wakeWaiting('sms', 600)).toEqual([sms, sms2]);
      expect(await outbox.findById(sms)).toMatchObject({ state: 'queued', updatedAt: 600 });
      expect(await outbox.wakeWaiting('sms', 601)).toEqual([]);

      // A new server: queued retries of that channel are due now, the other channel's are not.
      await outbox.recordAttempt(
        sms,
        {
          state: 'queued',
          recipients: failed.recipients,
          lastError: 'timeout',
          response: null,
          messageId: null,
          sentAt: null,
          nextAttemptAt: 5_000,
        },
        700,
      );
      await jobs.enqueue('outbox', sms, 5_000, 700);
      await jobs.enqueue('outbox', id, 5_000, 700);
      await outbox.hurryRetries('sms', 800);
      expect(await jobs.plannedAt('outbox', sms)).toBe(800);
      expect(await jobs.plannedAt('outbox', id)).toBe(5_000);
      expect((await outbox.findById(sms))?.nextAttemptAt).toBe(800);
      expect((await outbox.findById(id))?.nextAttemptAt).toBe(400);
    });

    it('counts and pages the outbox by state and channel, both ways', async () => {
      const outbox = createOutboxRepo(opened.store);
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1)
        ids.push(
          await outbox.insert(message({ channel: i % 2 === 0 ? 'push' : 'fax', state: i < 3 ? 'sent' : 'queued' })),
        );
      expect(await outbox.count({ channel: 'push' })).toBe(3);
      expect(await outbox.count({ channel: 'push', state: 'sent' })).toBe(2);
      const total = await outbox.count();
      expect(total).toBeGreaterThanOrEqual(5);
      const first = await outbox.listPage({ isBackward: false, limit: 2 }, { channel: 'push' });
      expect(first.rows.map((row) => row.id)).toEqual([ids[4], ids[2]]);
      expect(first.hasMore).toBe(true);
      const second = await outbox.listPage(
        { after: first.lastValues, isBackward: false, limit: 2 },
        { channel: 'push' },
      );
      expect(second.rows.map((row) => row.id)).toEqual([ids[0]]);
      expect(second.hasMore).toBe(false);
      const back = await outbox.listPage(
        { after: second.firstValues, isBackward: true, limit: 1 },
        { channel: 'push' },
      );
      expect(back.rows.map((row) => row.id)).toEqual([ids[2]]);
      expect(back.hasMore).toBe(true);
      const sent = await outbox.listPage({ isBackward: false, limit: 10 }, { channel: 'fax', state: 'sent' });
      expect(sent.rows.map((row) => row.id)).toEqual([ids[1]]);
    });

    it('lists the messages an older version kept in clear, whatever the case of their text', async () => {
      const outbox = createOutboxRepo(opened.store);
      const before = (await outbox.listUnsealed()).map((row) => row.id);
      const clear = await outbox.insert(message({ text: 'Your code is 123456', html: '<p>123456</p>' }));
      // SQLite's LIKE ignores case: a clear text that begins "Sealed:" was never listed there, nor here.
      await outbox.insert(message({ text: 'Sealed: your contract is signed' }));
      const listed = (await outbox.listUnsealed()).filter((row) => !before.includes(row.id));
      expect(listed).toEqual([
        { id: clear, subject: 'Sign, please', text: 'Your code is 123456', html: '<p>123456</p>' },
      ]);
      await outbox.replaceTexts(clear, { subject: 'sealed:v1:s', text: 'sealed:v1:t', html: null });
      expect(await outbox.findById(clear)).toMatchObject({ subject: 'sealed:v1:s', text: 'sealed:v1:t', html: null });
      expect((await outbox.listUnsealed()).filter((row) => !before.includes(row.id))).toEqual([]);
    });

    it('keeps bulk sends and their rows, counted and paged per user', async () => {
      const bulk = createBulkSendRepo(opened.store);
      const ann = await addUser(opened.store, 'ann');
      const ben = await addUser(opened.store, 'ben');
      const contractId = await addContract(opened.store, ann);
      const batches = [];
      for (const createdBy of [ann, ben, ann])
        batches.push(await bulk.insert({ templateId: null, templateName: 'Lease', createdBy, createdAt: 10 }));
      const [first, , third] = batches;
      expect(await bulk.findById(first!.id)).toEqual(first);
      expect(await bulk.findById(9_999)).toBeUndefined();
      const rowA = await bulk.insertRow({
        bulkSendId: first!.id,
        line: 2,
        contractName: 'Lease A',
        parties: '[]',
        state: 'pending',
        error: null,
        contractId: null,
        updatedAt: 10,
      });
      const { id: _, ...fieldsA } = rowA;
      const rowB = await bulk.insertRow({ ...fieldsA, line: 3, contractName: 'Lease B' });
      await bulk.updateRow(rowA.id, { state: 'sent', contractId, updatedAt: 20 });
      expect(await bulk.findRow(rowA.id)).toMatchObject({ state: 'sent', contractId, updatedAt: 20, line: 2 });
      expect((await bulk.rowsOf(first!.id)).map((row) => row.id)).toEqual([rowA.id, rowB.id]);
      expect(await bulk.rowsOf(third!.id)).toEqual([]);
      expect(await bulk.count(undefined)).toBe(3);
      expect(await bulk.count(ann)).toBe(2);
      expect(await bulk.count(9_999)).toBe(0);
      const mine = await bulk.listPage({ isBackward: false, limit: 1 }, ann);
      expect(mine.rows.map((row) => row.id)).toEqual([third!.id]);
      expect(mine.hasMore).toBe(true);
      const older = await bulk.listPage({ after: mine.lastValues, isBackward: false, limit: 1 }, ann);
      expect(older.rows.map((row) => row.id)).toEqual([first!.id]);
      expect(older.hasMore).toBe(false);
      const all = await bulk.listPage({ after: older.firstValues, isBackward: true, limit: 5 }, undefined);
      expect(all.rows.map((row) => row.id)).toEqual([third!.id, batches[1]!.id]);
    });
  });
