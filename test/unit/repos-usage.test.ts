import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/database';
import { createUsageRepo } from '../../server/db/repos/usage';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';

/** The plan's usage counters (contract_counts `sent:` and `sms:` scopes) and active users, on each dialect. */
for (const dialect of DIALECTS)
  describe(`the usage repository on ${dialect}`, () => {
    let opened: TestDatabase;
    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
    });
    afterAll(() => opened?.close());

    it('adds to a month by key, keeps months and kinds apart, and takes back what a rolled-back transaction added', async () => {
      const usage = createUsageRepo(opened.store);
      expect(await usage.monthCount('sent', '2026-12')).toBe(0);
      await usage.add('sent', '2026-12');
      await usage.add('sent', '2026-12', 2);
      await usage.add('sms', '2026-12', 5);
      await usage.add('sent', '2027-01');
      expect(await usage.monthCount('sent', '2026-12')).toBe(3);
      expect(await usage.monthCount('sms', '2026-12')).toBe(5);
      expect(await usage.monthCount('sent', '2027-01')).toBe(1);
      expect(await usage.monthCount('sms', '2027-01')).toBe(0);
      await expect(
        inTransaction(opened.db, async () => {
          await usage.add('sent', '2026-12', 10);
          expect(await usage.monthCount('sent', '2026-12')).toBe(13);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await usage.monthCount('sent', '2026-12')).toBe(3);
      // The contract list's own scopes in the same table are left alone.
      const rows = await opened.store
        .sql<{ scope: string; n: number }>('SELECT scope, n FROM contract_counts ORDER BY scope')
        .all();
      expect(rows.map((row) => [row.scope, Number(row.n)])).toEqual([
        ['sent:2026-12', 3],
        ['sent:2027-01', 1],
        ['sms:2026-12', 5],
      ]);
    });

    it('counts the active users, never the deleted or inactive ones', async () => {
      const usage = createUsageRepo(opened.store);
      const { orm, t } = opened.store;
      const user = (username: string, active: boolean, deletedAt: number | null = null) =>
        opened.store.run(
          orm.insert(t.users).values({
            username,
            email: `${username}@office.test`,
            permissionTemplate: 'CUSTOMER_USER',
            active,
            createdAt: 1,
            deletedAt,
          }),
        );
      expect(await usage.activeUsers()).toBe(0);
      await user('ada', true);
      await user('bo', true);
      await user('cy', false);
      await user('dee', false, 5);
      expect(await usage.activeUsers()).toBe(2);
    });
  });
