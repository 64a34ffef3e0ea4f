import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../server/db/open-database';
import { createPreparedInsert } from '../../server/db/prepared-insert';
import { createFileRepo } from '../../server/db/repos/files';
import { contracts, users } from '../../server/db/schema';
import { storeOf } from '../../server/db/stores';
import { makeTempDir } from '../helpers/server';

describe('prepared inserts', () => {
  let opened: OpenedDatabase | undefined;
  afterEach(() => opened?.close());

  it('store the same row as drizzle’s own insert, for each set of columns given', async () => {
    opened = openDatabase(path.join(makeTempDir(), 'p.sqlite'));
    const db = opened.db.orm;
    const user = db
      .insert(users)
      .values({ username: 'u', email: 'u@x.se', permissionTemplate: 'CUSTOMER_USER', createdAt: 1 })
      .returning()
      .get();
    const x = storeOf(opened.db);
    const fileId = await createFileRepo(x).putFile(Buffer.from('%PDF-1.7'), 'application/pdf', 1);
    const insert = createPreparedInsert(x, x.t.contracts);
    const base = {
      source: 'upload',
      originalFileId: fileId,
      pageSizes: '[[1,1]]',
      createdBy: user.id,
      createdAt: 5,
      updatedAt: 6,
    };
    const shapes = [
      base,
      { ...base, name: 'Å', nameFolded: 'å', partyOrderDefined: true, showIdentityNumber: false, expireAt: null },
      { ...base, partyOrderDefined: false, requireAuth: 'EMAIL_CODE', expireAt: 99 },
      { ...base, name: 'Å', nameFolded: 'å', partyOrderDefined: true, showIdentityNumber: false, expireAt: null },
    ];
    for (const shape of shapes) {
      const { id: preparedId, ...prepared } = await insert(shape);
      const { id: plainId, ...plain } = db.insert(contracts).values(shape).returning().get();
      expect(preparedId).not.toBe(plainId);
      expect(prepared).toEqual(plain);
    }
  });
});
