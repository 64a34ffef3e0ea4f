import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRepo } from '../../server/db/repos/jobs';
import { createWebhookConsumerRepo, WEBHOOK_QUEUE } from '../../server/db/repos/webhook-consumers';
import { createWebhookDeliveryRepo, HELD_RELEASE_WINDOW } from '../../server/db/repos/webhook-deliveries';
import { createWebhookLogRepo } from '../../server/db/repos/webhook-log';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { addUser } from '../helpers/repo-rows';

/** Webhook consumers, events and deliveries, and the event log, on each dialect. */
for (const dialect of DIALECTS)
  describe(`webhook repositories on ${dialect}`, () => {
    let opened: TestDatabase;
    let userId: number;
    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      userId = await addUser(opened.store, 'integrator');
    });
    afterAll(() => opened?.close());

    const repos = () => ({
      consumers: createWebhookConsumerRepo(opened.store),
      deliveries: createWebhookDeliveryRepo(opened.store),
      log: createWebhookLogRepo(opened.store),
      jobs: createJobRepo(opened.store),
    });
    const newConsumer = (url: string) =>
      createWebhookConsumerRepo(opened.store).insert({
        url,
        contactEmail: null,
        events: '[]',
        publicKey: Buffer.from([1, 2, 3]),
        sealedSecretKey: Buffer.from([4, 5, 6, 0]),
        createdBy: userId,
        createdAt: 1,
        updatedAt: 1,
      });

    it('keeps consumers: insert, update, errors in a row, disable, enable, pages, remove', async () => {
      const { consumers, deliveries, jobs } = repos();
      const countBefore = await consumers.count();
      const one = await newConsumer('https://one.test/hook');
      const two = await newConsumer('https://two.test/hook');
      expect(one).toMatchObject({ url: 'https://one.test/hook', permanentErrors: 0, disabledAt: null, events: '[]' });
      expect((await consumers.findById(one.id))?.sealedSecretKey.equals(Buffer.from([4, 5, 6, 0]))).toBe(true);
      expect(await consumers.update(one.id, { contactEmail: 'ops@one.test', updatedAt: 5 })).toMatchObject({
        contactEmail: 'ops@one.test',
        updatedAt: 5,
      });
      expect(await consumers.update(9_999, { updatedAt: 5 })).toBeUndefined();
      expect(await consumers.count()).toBe(countBefore + 2);
      const page = await consumers.listPage({ isBackward: false, limit: 1 });
      expect(page.rows.map((row) => row.id)).toEqual([two.id]);
      const next = await consumers.listPage({ after: page.lastValues, isBackward: false, limit: 1 });
      expect(next.rows.map((row) => row.id)).toEqual([one.id]);
      const back = await consumers.listPage({ after: next.firstValues, isBackward: true, limit: 1 });
      expect(back.rows.map((row) => row.id)).toEqual([two.id]);

      expect(await consumers.countPermanentError(one.id, 10)).toEqual({ errors: 1, disabledAt: null });
      expect(await consumers.countPermanentError(one.id, 11)).toEqual({ errors: 2, disabledAt: null });
      expect(await consumers.countPermanentError(9_999, 11)).toBeUndefined();
      await consumers.resetPermanentErrors(one.id);
      expect((await consumers.findById(one.id))?.permanentErrors).toBe(0);
      expect(await consumers.disable(one.id, 20)).toBe(true);
      expect(await consumers.disable(one.id, 21)).toBe(false);
      expect(await consumers.countPermanentError(one.id, 22)).toEqual({ errors: 1, disabledAt: 20 });

      // Enabling: a pending delivery without a job gets one due now; a queued job comes forward.
      const event = await deliveries.insertEvent('contract.signed', '{"a":1}', 30);
      const jobless = await deliveries.insertDelivery(event, one.id, 40, 30);
      const event2 = await deliveries.insertEvent('contract.signed', '{"a":2}', 31);
      const queued = await deliveries.insertDelivery(event2, one.id, 9_000, 31);
      await jobs.enqueue(WEBHOOK_QUEUE, queued, 9_000, 31);
      expect(await consumers.enable(one.id, 50)).toBe(1);
      expect(await consumers.findById(one.id)).toMatchObject({ disabledAt: null, permanentErrors: 0, updatedAt: 50 });
      expect(await jobs.plannedAt(WEBHOOK_QUEUE, jobless)).toBe(50);
      expect(await jobs.plannedAt(WEBHOOK_QUEUE, queued)).toBe(50);
      expect(await consumers.enable(one.id, 60)).toBe(0);

      // Removing takes its deliveries and their jobs along.
      expect(await opened.db.transaction(() => consumers.remove(one.id))).toBe(true);
      expect(await consumers.findById(one.id)).toBeUndefined();
      expect(await jobs.exists(WEBHOOK_QUEUE, jobless)).toBe(false);
      expect(await jobs.exists(WEBHOOK_QUEUE, queued)).toBe(false);
      expect(await deliveries.countInState(one.id, 'pending')).toBe(0);
      expect(await consumers.remove(one.id)).toBe(false);
    });

    it('writes events for the consumers that want them, held while a consumer is disabled', async () => {
      const { consumers, deliveries } = repos();
      expect(await deliveries.isInTransaction()).toBe(false);
      expect(await opened.db.transaction(() => deliveries.isInTransaction())).toBe(true);

      const live = await newConsumer('https://live.test/hook');
      const off = await newConsumer('https://off.test/hook');
      const waiting = await newConsumer('https://waiting.test/hook');
      await consumers.disable(off.id, 1);
      const event = await deliveries.insertEvent('contract.sent', '{"id":"/api/contracts/1"}', 2);
      await deliveries.insertDelivery(event, waiting.id, null, 2);
      const holding = new Map((await deliveries.recipients()).map((row) => [row.id, row.isHolding]));
      expect(holding.get(live.id)).toBe(false);
      expect(holding.get(off.id)).toBe(true);
      expect(holding.get(waiting.id)).toBe(true);
      expect(await deliveries.holdingConsumers()).toEqual(expect.arrayContaining([waiting.id]));
      expect(await deliveries.holdingConsumers()).not.toContain(live.id);

      const delivery = await deliveries.insertDelivery(event, live.id, 100, 2);
      const [row] = await deliveries.loadForDispatch([delivery]);
      expect(row).toMatchObject({
        deliveryId: delivery,
        state: 'pending',
        courseAttempts: 0,
        eventId: event,
        payload: '{"id":"/api/contracts/1"}',
        consumerId: live.id,
        url: 'https://live.test/hook',
        disabledAt: null,
        permanentErrors: 0,
        inOrder: 0,
      });
      expect(row?.publicKey.equals(Buffer.from([1, 2, 3]))).toBe(true);
      expect(await deliveries.loadForDispatch([])).toEqual([]);
      expect(await deliveries.loadForDispatch([9_999])).toEqual([]);

      // A retry of a consumer disabled meanwhile is held instead; otherwise it is due when asked.
      expect(await deliveries.settle(delivery, 'pending', 500, 3)).toBe('pending');
      expect((await deliveries.loadForDispatch([delivery]))[0]?.courseAttempts).toBe(1);
      await consumers.disable(live.id, 4);
      expect(await deliveries.settle(delivery, 'pending', 600, 5)).toBe('held');
      expect(await deliveries.countInState(live.id, 'held')).toBe(1);
      expect(await deliveries.settle(delivery, 'delivered', null, 6)).toBe('delivered');
      expect(await deliveries.settle(9_999, 'delivered', null, 6)).toBeUndefined();
      await deliveries.insertAttempt({
        deliveryId: delivery,
        attemptedAt: 6,
        statusCode: 200,
        error: null,
        durationMs: 12,
        responseExcerpt: 'ok',
        outcome: 'delivered',
      });
    });

    it('holds, releases a window at a time in event order, and restarts deliveries', async () => {
      const { consumers, deliveries, jobs } = repos();
      const consumer = await newConsumer('https://held.test/hook');
      const ids: number[] = [];
      for (let i = 0; i < HELD_RELEASE_WINDOW + 3; i += 1) {
        const event = await deliveries.insertEvent('contract.sent', `{"n":${i}}`, 10 + i);
        const id = await deliveries.insertDelivery(event, consumer.id, 1_000, 10 + i);
        await jobs.enqueue(WEBHOOK_QUEUE, id, 1_000, 10 + i);
        ids.push(id);
      }
      await deliveries.hold(ids[0]!, 20);
      expect(await deliveries.countInState(consumer.id, 'held')).toBe(1);
      await consumers.disable(consumer.id, 21);
      await deliveries.holdPendingOf(consumer.id, 21);
      expect(await deliveries.countInState(consumer.id, 'held')).toBe(ids.length);
      expect(await deliveries.countInState(consumer.id, 'pending')).toBe(0);
      expect(await jobs.exists(WEBHOOK_QUEUE, ids[1]!)).toBe(false);
      // Nothing goes while the consumer is disabled.
      expect(await deliveries.releaseHeld(consumer.id, 22)).toEqual([]);

      await consumers.enable(consumer.id, 23);
      const released = await deliveries.releaseHeld(consumer.id, 24);
      expect(released).toEqual(ids.slice(0, HELD_RELEASE_WINDOW));
      // Each released one has a job: a new one due now, or the one it kept while held by hand.
      expect(await jobs.plannedAt(WEBHOOK_QUEUE, ids[1]!)).toBe(24);
      expect(await jobs.plannedAt(WEBHOOK_QUEUE, ids[0]!)).toBe(1_000);
      const [first] = await deliveries.loadForDispatch([ids[0]!]);
      expect(first).toMatchObject({ state: 'pending', inOrder: 1, courseAttempts: 0 });
      // The window is full until one of them is attempted.
      expect(await deliveries.releaseHeld(consumer.id, 25)).toEqual([]);
      await deliveries.settle(ids[0]!, 'delivered', null, 26);
      expect((await deliveries.loadForDispatch([ids[0]!]))[0]?.inOrder).toBe(0);
      expect(await deliveries.releaseHeld(consumer.id, 27)).toEqual([ids[HELD_RELEASE_WINDOW]]);

      // A bulk retry starts every delivered one afresh, with a job each; a manual one restarts one.
      await deliveries.settle(ids[1]!, 'failed', null, 28);
      expect(await deliveries.restartAllInState(consumer.id, 'delivered', 30)).toBe(1);
      // Its queued job comes forward.
      expect(await jobs.plannedAt(WEBHOOK_QUEUE, ids[0]!)).toBe(30);
      expect((await deliveries.loadForDispatch([ids[0]!]))[0]).toMatchObject({ state: 'pending', courseAttempts: 0 });
      expect(await deliveries.restartAllInState(consumer.id, 'delivered', 31)).toBe(0);
      await deliveries.restart(ids[1]!, 32);
      expect((await deliveries.loadForDispatch([ids[1]!]))[0]).toMatchObject({ state: 'pending', inOrder: 0 });
      expect(await jobs.plannedAt(WEBHOOK_QUEUE, ids[1]!)).toBe(32);
    });

    it('pages the event log of a consumer both ways, with attempts, and purges old events', async () => {
      const { deliveries, log, jobs } = repos();
      const consumer = await newConsumer('https://log.test/hook');
      const other = await newConsumer('https://other.test/hook');
      const events: number[] = [];
      const byEvent = new Map<number, number>();
      for (let i = 0; i < 4; i += 1) {
        const event = await deliveries.insertEvent(
          i === 3 ? 'contract.signed' : 'contract.sent',
          `{"n":${i}}`,
          100 + i,
        );
        events.push(event);
        const id = await deliveries.insertDelivery(event, consumer.id, 200, 100 + i);
        byEvent.set(event, id);
        await jobs.enqueue(WEBHOOK_QUEUE, id, 200, 100 + i);
        await deliveries.insertDelivery(event, other.id, 200, 100 + i);
      }
      await deliveries.settle(byEvent.get(events[1]!)!, 'delivered', null, 150);
      expect(await log.count(consumer.id, undefined)).toBe(4);
      expect(await log.count(consumer.id, 'delivered')).toBe(1);
      const page = await log.listPage(consumer.id, undefined, { isBackward: false, limit: 3 });
      expect(page.rows.map((row) => row.eventId)).toEqual([events[3], events[2], events[1]]);
      expect(page.hasMore).toBe(true);
      expect(page.rows[0]).toEqual({
        deliveryId: byEvent.get(events[3]!),
        eventId: events[3],
        type: 'contract.signed',
        payload: '{"n":3}',
        state: 'pending',
        nextAttemptAt: 200,
        createdAt: 103,
      });
      const next = await log.listPage(consumer.id, undefined, { after: page.lastValues, isBackward: false, limit: 3 });
      expect(next.rows.map((row) => row.eventId)).toEqual([events[0]]);
      const back = await log.listPage(consumer.id, undefined, { after: next.firstValues, isBackward: true, limit: 2 });
      expect(back.rows.map((row) => row.eventId)).toEqual([events[2], events[1]]);
      expect(back.hasMore).toBe(true);
      const delivered = await log.listPage(consumer.id, 'delivered', { isBackward: false, limit: 10 });
      expect(delivered.rows.map((row) => row.eventId)).toEqual([events[1]]);
      expect((await log.find(consumer.id, events[2]!))?.deliveryId).toBe(byEvent.get(events[2]!));
      expect(await log.find(consumer.id, 9_999)).toBeUndefined();

      const target = byEvent.get(events[0]!)!;
      for (const [attemptedAt, outcome] of [
        [300, 'retry'],
        [301, 'delivered'],
      ] as const)
        await deliveries.insertAttempt({
          deliveryId: target,
          attemptedAt,
          statusCode: outcome === 'retry' ? 503 : 200,
          error: null,
          durationMs: 5,
          responseExcerpt: '',
          outcome,
        });
      expect((await log.attemptsOf([target, byEvent.get(events[1]!)!])).map((row) => row.outcome)).toEqual([
        'retry',
        'delivered',
      ]);
      expect(await log.attemptsOf([])).toEqual([]);

      // The two oldest of these events go, with their deliveries, attempts and queued jobs.
      const purged = await opened.db.transaction(() => log.purgeBefore(102, 100));
      expect(purged).toBeGreaterThanOrEqual(2);
      expect(await log.count(consumer.id, undefined)).toBe(2);
      expect(await log.count(other.id, undefined)).toBe(2);
      expect(await log.attemptsOf([target])).toEqual([]);
      expect(await jobs.exists(WEBHOOK_QUEUE, target)).toBe(false);
      expect(await jobs.exists(WEBHOOK_QUEUE, byEvent.get(events[2]!)!)).toBe(true);
      expect(await opened.db.transaction(() => log.purgeBefore(102, 100))).toBe(0);
    });
  });
