import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSessionRepo } from '../../server/db/repos/admin-sessions';
import { createIdempotencyRepo } from '../../server/db/repos/idempotency';
import { createOfficeRepo } from '../../server/db/repos/office';
import { createTokenRepo } from '../../server/db/repos/tokens';
import { TtlCache } from '../../server/db/repos/ttl-cache';
import { createUserRepo } from '../../server/db/repos/users';
import { ACTIVE_ADMINISTRATOR } from '../../server/policies/actors';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { addUser } from '../helpers/repo-rows';

/** Users, API keys, admin sessions, the office row and idempotency keys, on each dialect. */
for (const dialect of DIALECTS)
  describe(`account repositories on ${dialect}`, () => {
    let opened: TestDatabase;
    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
    });
    afterAll(() => opened?.close());

    it('keeps users: insert, find, update, soft delete, counts, admins and pages both ways', async () => {
      const users = createUserRepo(opened.store);
      const ada = await users.insert({
        username: 'ada',
        email: 'ada@office.test',
        permissionTemplate: 'CUSTOMER_ADMIN_USER',
        active: true,
        createdAt: 10,
      });
      expect(ada).toMatchObject({ username: 'ada', active: true, deletedAt: null, firstname: '' });
      const bob = await users.insert({
        username: 'bob',
        email: 'bob@office.test',
        permissionTemplate: 'CUSTOMER_ADMIN_USER',
        active: false,
        createdAt: 20,
      });
      const cy = await users.insert({
        username: 'cy',
        email: 'cy@office.test',
        permissionTemplate: 'CUSTOMER_USER',
        active: true,
        createdAt: 30,
      });
      const dee = await users.insert({
        username: 'dee',
        email: 'dee@office.test',
        permissionTemplate: 'CUSTOMER_ADMIN_USER',
        active: true,
        createdAt: 40,
      });
      expect((await users.findById(bob.id))?.active).toBe(false);
      expect((await users.findByUsername('cy'))?.id).toBe(cy.id);
      expect(await users.findByUsername('nobody')).toBeUndefined();
      expect(await users.count()).toBe(4);
      expect(await users.countMatching(ACTIVE_ADMINISTRATOR)).toBe(2);
      expect((await users.firstMatching(ACTIVE_ADMINISTRATOR))?.id).toBe(ada.id);

      // The acting user's cache sees a change made through the repository at once.
      expect((await users.findActor(ada.id))?.firstname).toBe('');
      const renamed = await users.update(ada.id, { firstname: 'Ada', active: false });
      expect(renamed).toMatchObject({ firstname: 'Ada', active: false });
      expect((await users.findActor(ada.id))?.firstname).toBe('Ada');
      expect(await users.countMatching(ACTIVE_ADMINISTRATOR)).toBe(1);
      expect((await users.firstMatching(ACTIVE_ADMINISTRATOR))?.id).toBe(dee.id);

      await users.softDelete(cy.id, 50);
      expect(await users.findById(cy.id)).toBeUndefined();
      expect(await users.findActor(cy.id)).toBeUndefined();
      expect(await users.findByUsername('cy')).toBeUndefined();
      expect(await users.update(cy.id, { firstname: 'Gone' })).toBeUndefined();
      expect(await users.count()).toBe(3);

      // Newest first, deleted users left out; a page back from the second gives the first again.
      const first = await users.listPage({ isBackward: false, limit: 2 });
      expect(first.rows.map((row) => row.username)).toEqual(['dee', 'bob']);
      expect(first.hasMore).toBe(true);
      const second = await users.listPage({ after: first.lastValues, isBackward: false, limit: 2 });
      expect(second.rows.map((row) => row.username)).toEqual(['ada']);
      expect(second.hasMore).toBe(false);
      const back = await users.listPage({ after: second.firstValues, isBackward: true, limit: 2 });
      expect(back.rows.map((row) => row.username)).toEqual(['dee', 'bob']);
      expect(back.hasMore).toBe(false);
    });

    it('keeps API keys: insert, authentication reads, update, use, revocation, pages both ways', async () => {
      const tokens = createTokenRepo(opened.store);
      const owner = await addUser(opened.store, 'key-owner');
      const other = await addUser(opened.store, 'other-owner');
      const made = [];
      for (const [index, ownerUserId] of [owner, owner, other].entries())
        made.push(
          await tokens.insert({
            publicId: `pub${index}`,
            secretHash: `hash${index}`,
            name: `key ${index}`,
            kind: 'api',
            rateLimit: null,
            ownerUserId,
            createdAt: 100 + index,
          }),
        );
      const [a, b, c] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
      expect(a).toMatchObject({ publicId: 'pub0', lastUsedAt: null, revokedAt: null });
      expect(await tokens.findForAuth('pub1')).toEqual({
        id: b.id,
        secretHash: 'hash1',
        kind: 'api',
        rateLimit: null,
        revokedAt: null,
        ownerUserId: owner,
      });
      expect(await tokens.findForAuth('nope')).toBeUndefined();
      expect((await tokens.update(a.id, { name: 'renamed', rateLimit: 5 }))?.name).toBe('renamed');
      expect(await tokens.update(9_999, { name: 'x' })).toBeUndefined();
      await tokens.markUsed(a.id, 500);
      expect(await tokens.findById(a.id)).toMatchObject({ lastUsedAt: 500, rateLimit: 5 });

      // A revocation is seen by the next authentication, through the cache.
      expect((await tokens.findForAuth('pub0'))?.revokedAt).toBeNull();
      await tokens.revokeAllOf(owner, 600);
      expect((await tokens.findForAuth('pub0'))?.revokedAt).toBe(600);
      expect((await tokens.findById(b.id))?.revokedAt).toBe(600);
      expect((await tokens.findById(c.id))?.revokedAt).toBeNull();
      // Already revoked keys keep their time.
      await tokens.revokeAllOf(owner, 700);
      expect((await tokens.findById(a.id))?.revokedAt).toBe(600);

      expect(await tokens.count()).toBe(3);
      expect(await tokens.ownerUsername(other)).toBe('other-owner');
      expect(await tokens.ownerUsername(9_999)).toBeUndefined();
      const first = await tokens.listPage({ isBackward: false, limit: 2 });
      expect(first.rows.map((row) => row.id)).toEqual([c.id, b.id]);
      const second = await tokens.listPage({ after: first.lastValues, isBackward: false, limit: 2 });
      expect(second.rows.map((row) => row.id)).toEqual([a.id]);
      expect(second.hasMore).toBe(false);
      const back = await tokens.listPage({ after: second.firstValues, isBackward: true, limit: 1 });
      expect(back.rows.map((row) => row.id)).toEqual([b.id]);
      expect(back.hasMore).toBe(true);
    });

    it('keeps admin sessions: insert, find by hash, touch, expiry by either end, delete', async () => {
      const sessions = createAdminSessionRepo(opened.store);
      const userId = await addUser(opened.store, 'session-user');
      const make = (idHash: string, lastSeenAt: number, expiresAt: number) =>
        sessions.insert({ idHash, userId, createdAt: 0, lastSeenAt, expiresAt, userAgent: 'ua', ipAddress: '::1' });
      const fresh = await make('fresh', 900, 5_000);
      await make('idle', 100, 5_000);
      await make('old', 900, 500);
      const kept = await make('kept', 900, 5_000);
      expect(await sessions.findByHash('fresh')).toEqual(fresh);
      expect(await sessions.findByHash('missing')).toBeUndefined();
      await sessions.touch(fresh.id, 950);
      expect((await sessions.findByHash('fresh'))?.lastSeenAt).toBe(950);
      // At 1000 with 500 ms of idleness allowed: "idle" (seen at 100) and "old" (ended at 500) go.
      await sessions.deleteExpired(1_000, 500);
      expect(await sessions.findByHash('idle')).toBeUndefined();
      expect(await sessions.findByHash('old')).toBeUndefined();
      expect(await sessions.findByHash('fresh')).toBeDefined();
      await sessions.delete(kept.id);
      expect(await sessions.findByHash('kept')).toBeUndefined();
      expect(await sessions.findByHash('fresh')).toBeDefined();
      await sessions.deleteAll();
      expect(await sessions.findByHash('fresh')).toBeUndefined();
    });

    it('makes the office row on first read and keeps its changes', async () => {
      const office = createOfficeRepo(opened.store);
      expect(await office.get(42)).toMatchObject({
        id: 1,
        name: '',
        defaultRateLimit: 30,
        setUpAt: null,
        createdAt: 42,
      });
      await office.update({ name: 'Byrån', defaultRateLimit: 60, setUpAt: 43 });
      expect(await office.get(99)).toMatchObject({ name: 'Byrån', defaultRateLimit: 60, setUpAt: 43, createdAt: 42 });
      // Another repository over the same database (another process's view) reads the same row.
      expect(await createOfficeRepo(opened.store).get(100)).toMatchObject({ name: 'Byrån', createdAt: 42 });
    });

    it('claims idempotency keys once, keeps the answer, frees expired and unanswered keys', async () => {
      const keys = createIdempotencyRepo(opened.store);
      expect(await keys.claim('token:1', 'k1', 'fp1', 1_000, 0)).toBe(true);
      expect(await keys.claim('token:1', 'k1', 'fp1', 1_001, 0)).toBe(false);
      // The same key under another caller is another key.
      expect(await keys.claim('token:2', 'k1', 'fp2', 1_002, 0)).toBe(true);
      expect(await keys.find('token:1', 'k1')).toMatchObject({ fingerprint: 'fp1', status: null, body: null });
      const body = Buffer.from([0, 1, 2, 255]);
      await keys.record('token:1', 'k1', { status: 201, contentType: 'application/json', location: '/x', body });
      const answered = await keys.find('token:1', 'k1');
      expect(answered).toMatchObject({ status: 201, contentType: 'application/json', location: '/x' });
      expect(Buffer.isBuffer(answered?.body)).toBe(true);
      expect(answered?.body?.equals(body)).toBe(true);
      await keys.release('token:2', 'k1');
      expect(await keys.find('token:2', 'k1')).toBeUndefined();

      // An expired key is free again: the claim drops keys made before expiredBefore first.
      expect(await keys.claim('token:3', 'k3', 'fp3', 2_000, 0)).toBe(true);
      expect(await keys.claim('token:1', 'k1', 'fp1-again', 5_000, 1_500)).toBe(true);
      expect((await keys.find('token:1', 'k1'))?.fingerprint).toBe('fp1-again');
      expect(await keys.find('token:3', 'k3')).toBeDefined();

      // In flight when the process stopped: released at start; answered keys stay.
      await keys.record('token:1', 'k1', { status: 200, contentType: null, location: null, body: Buffer.alloc(0) });
      await keys.releaseUnanswered();
      expect(await keys.find('token:3', 'k3')).toBeUndefined();
      expect((await keys.find('token:1', 'k1'))?.body?.length).toBe(0);
      await keys.dropOlderThan(5_001);
      expect(await keys.find('token:1', 'k1')).toBeUndefined();
    });

    it('prunes at most a batch of expired keys per claim, oldest first', async () => {
      const keys = createIdempotencyRepo(opened.store);
      for (let i = 0; i < 105; i += 1) await keys.claim('batch', `old${i}`, 'fp', 10_000 + i, 0);
      await keys.claim('batch', 'new', 'fp', 20_000, 15_000);
      // The hundred oldest went; the last five stay until the next claim.
      expect(await keys.find('batch', 'old99')).toBeUndefined();
      expect(await keys.find('batch', 'old100')).toBeDefined();
      await keys.claim('batch', 'newer', 'fp', 20_001, 15_000);
      expect(await keys.find('batch', 'old104')).toBeUndefined();
      expect(await keys.find('batch', 'new')).toBeDefined();
    });
  });

describe('the read-through cache', () => {
  it('does not keep a row read before a write cleared the cache', async () => {
    const cache = new TtlCache<number, string>(60_000);
    let release: (value: string) => void = () => {};
    const slowLoad = cache.get(1, () => new Promise<string>((resolve) => (release = resolve)), 0);
    cache.clear();
    release('before the write');
    expect(await slowLoad).toBe('before the write');
    // The next read loads again instead of answering from the stale copy.
    expect(await cache.get(1, async () => 'after the write', 1)).toBe('after the write');
    expect(await cache.get(1, async () => 'not loaded', 2)).toBe('after the write');
  });
});
