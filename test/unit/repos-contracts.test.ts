import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/pg/open-postgres';
import { storeOf } from '../../server/db/stores';
import type { CursorValue } from '../../server/db/keyset';
import { createContractMetadataRepo } from '../../server/db/repos/contract-metadata';
import {
  contractOrdering,
  createContractRepo,
  type ContractFilter,
  type ContractRepo,
  type ContractRow,
  type ContractSortTerm,
} from '../../server/db/repos/contracts';
import { createPartyRepo } from '../../server/db/repos/parties';
import { databaseUrl, DIALECTS, openTestDatabase, testPostgresUrl, type TestDatabase } from '../helpers/databases';
import { repoRows } from '../helpers/repo-rows';

const terms = (sort: string): ContractSortTerm[] =>
  sort
    .split(',')
    .map((term) => ({ key: term.replace('-', '') as ContractSortTerm['key'], isDescending: term.startsWith('-') }));

for (const dialect of DIALECTS)
  describe(`the contract repository on ${dialect}`, () => {
    let opened: TestDatabase;
    let contracts: ContractRepo;
    let rows: ReturnType<typeof repoRows>;
    let pdf: number;

    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      contracts = createContractRepo(opened.store);
      rows = repoRows(opened.store);
      pdf = await rows.addPdf('contracts');
    });
    afterAll(() => opened?.close());

    /** Every contract of `filter` in `sort`'s order, page by page forward, then again backward from the end. */
    const walk = async (filter: ContractFilter, sort: string, limit = 3) => {
      const ordering = contractOrdering(terms(sort), filter);
      const forward: number[] = [];
      let after: CursorValue[] | undefined;
      let first: CursorValue[] | undefined;
      for (;;) {
        const page = await contracts.listPage(
          { isBackward: false, limit, ...(after ? { after } : {}) },
          filter,
          ordering,
        );
        forward.push(...page.rows.map((row) => row.id));
        if (!page.hasMore) {
          first = page.firstValues;
          break;
        }
        after = page.lastValues;
      }
      const lastPage = forward.slice(forward.length - (forward.length % limit || limit));
      const backward = [...lastPage];
      let before = first;
      while (before) {
        const page = await contracts.listPage({ isBackward: true, limit, after: before }, filter, ordering);
        backward.unshift(...page.rows.map((row) => row.id));
        before = page.hasMore ? page.firstValues : undefined;
      }
      return { forward, backward };
    };
    const idsOf = async (filter: ContractFilter) => (await walk(filter, '-id', 50)).forward;

    it('inserts a draft with its folded name, reads it back, renames it and moves updated_at forward only', async () => {
      const user = await rows.addUser('anna');
      const inserted = await rows.addContract(user, pdf, { name: 'Åsa Öberg HYRESAVTAL', isTest: true });
      expect(inserted).toMatchObject({
        name: 'Åsa Öberg HYRESAVTAL',
        nameFolded: 'åsa öberg hyresavtal',
        status: 'draft',
        isSigned: false,
        isUnsigned: true,
        isTest: true,
        isSilent: false,
        reminderMaxCount: 3,
        signedFileId: null,
        createdBy: user,
      });
      expect(await contracts.findById(inserted.id)).toEqual(inserted);
      const renamed = await contracts.update(inserted.id, { name: 'ÖVRIGT Avtal', expireAt: 99 });
      expect(renamed).toMatchObject({ name: 'ÖVRIGT Avtal', nameFolded: 'övrigt avtal', expireAt: 99, isTest: true });
      expect(await contracts.update(inserted.id + 1000, { name: 'x' })).toBeUndefined();
      await contracts.touch(inserted.id, 50);
      await contracts.touch(inserted.id, 40);
      expect((await contracts.findById(inserted.id))?.updatedAt).toBe(50);
      expect(await contracts.findById(inserted.id + 1000)).toBeUndefined();
    });

    it('keeps the counts through inserts, state changes and removals, and recount rebuilds them from the rows', async () => {
      const user = await rows.addUser('bo');
      const allBefore = await contracts.total({});
      const [a, b, c] = [
        await rows.addContract(user, pdf, { name: 'a' }),
        await rows.addContract(user, pdf, { name: 'b' }),
        await rows.addContract(user, pdf, { name: 'c' }),
      ] as [ContractRow, ContractRow, ContractRow];
      const sent = await contracts.changeStatus(a, 'sent', { sentAt: 5 });
      expect(sent).toMatchObject({ status: 'sent', sentAt: 5, isSigned: false });
      const signed = await contracts.changeStatus(b, 'signed', { signedAt: 6 });
      expect(signed).toMatchObject({ status: 'signed', isSigned: true, isUnsigned: false });
      await contracts.changeStatus(sent, 'rejected', { rejectedAt: 7 });
      expect(await contracts.countByStatus({ userId: user })).toEqual({
        all: 3,
        draft: 1,
        sent: 0,
        signed: 1,
        rejected: 1,
      });
      expect(await contracts.total({ userId: user, status: 'signed' })).toBe(1);
      expect(await contracts.total({})).toBe(allBefore + 3);
      await contracts.remove(c);
      await contracts.remove(c); // Gone already: counted once.
      expect(await contracts.findById(c.id)).toBeUndefined();
      const counts = await contracts.countByStatus({ userId: user });
      expect(counts).toEqual({ all: 2, draft: 0, sent: 0, signed: 1, rejected: 1 });
      const everyone = await contracts.countByStatus({});
      expect(everyone.all).toBe(allBefore + 2);

      await opened.store.sql("UPDATE contract_counts SET n = 99 WHERE scope <> '*'").run();
      await opened.store.sql("DELETE FROM contract_counts WHERE scope = '*'").run();
      expect(await contracts.total({})).toBe(0);
      await contracts.recount();
      expect(await contracts.countByStatus({ userId: user })).toEqual(counts);
      expect(await contracts.countByStatus({})).toEqual(everyone);
      const [{ n }] = (await opened.store.sql<{ n: number }>('SELECT count(*) AS n FROM contracts').all()) as [
        { n: number },
      ];
      expect(await contracts.total({})).toBe(n);
    });

    it('walks every ordering page by page, forward and backward, as JavaScript sorts the rows', async () => {
      const user = await rows.addUser('cecilia');
      const made: ContractRow[] = [];
      for (const [index, name] of ['b', 'A', 'c', 'Ä', 'a2', 'B2', 'ö', 'a', 'Zeta'].entries()) {
        const row = await rows.addContract(user, pdf, { name });
        made.push(index % 3 === 0 ? await contracts.changeStatus(row, 'signed', {}) : row);
      }
      const filter = { userId: user };
      const byKeys = (sort: string) => {
        const { keys } = contractOrdering(terms(sort), filter);
        return [...made]
          .sort((x, y) => {
            for (const key of keys) {
              const [p, q] = [key.valueOf(x), key.valueOf(y)];
              if (p !== q) return (p < q ? -1 : 1) * (key.isDescending ? -1 : 1);
            }
            return 0;
          })
          .map((row) => row.id);
      };
      for (const sort of [
        '-id',
        'id',
        'name',
        '-name',
        'is_signed',
        '-is_signed,name',
        'is_signed,-name',
        'name,-id',
      ]) {
        const { forward, backward } = await walk(filter, sort);
        expect(forward, sort).toEqual(byKeys(sort));
        expect(backward, sort).toEqual(forward);
      }
      expect((await walk({ userId: user, status: 'signed' }, 'name')).forward).toEqual(
        made
          .filter((row) => row.status === 'signed')
          .sort((x, y) => (x.nameFolded < y.nameFolded ? -1 : 1))
          .map((row) => row.id),
      );
    });

    it('filters by metadata and updated_since, and keeps metadata per contract', async () => {
      const metadata = createContractMetadataRepo(opened.store);
      const user = await rows.addUser('david');
      const [a, b] = [await rows.addContract(user, pdf), await rows.addContract(user, pdf)] as [
        ContractRow,
        ContractRow,
      ];
      await metadata.set(a.id, 'order', 'A-1');
      await metadata.set(a.id, 'batch', 'x');
      await metadata.set(b.id, 'order', 'A-2');
      await metadata.set(b.id, 'order', 'A-3');
      expect(await metadata.listOf(a.id)).toEqual({ batch: 'x', order: 'A-1' });
      expect(Object.keys(await metadata.listOf(a.id))).toEqual(['batch', 'order']);
      expect(await metadata.listOf(b.id)).toEqual({ order: 'A-3' });
      expect(await idsOf({ userId: user, metadata: [['order', 'A-1']] })).toEqual([a.id]);
      expect(await idsOf({ metadata: [['order', 'A-2']] })).toEqual([]);
      expect(
        await idsOf({
          metadata: [
            ['order', 'A-1'],
            ['batch', 'x'],
          ],
        }),
      ).toEqual([a.id]);
      expect(await contracts.total({ metadata: [['order', 'A-3']] })).toBe(1);
      await metadata.remove(a.id, 'batch');
      expect(await metadata.listOf(a.id)).toEqual({ order: 'A-1' });
      expect(await contracts.countByStatus({ metadata: [['batch', 'x']] })).toMatchObject({ all: 0 });

      await contracts.touch(b.id, 1_000_000);
      expect(await idsOf({ updatedSince: 999_999 })).toEqual([b.id]);
      expect(await idsOf({ updatedSince: 999_999, metadata: [['order', 'A-1']] })).toEqual([]);
      expect(await contracts.total({ updatedSince: 999_999, userId: user })).toBe(1);
    });

    it('searches the name, and the parties’ names, e-mails and phones, folding å and Ö as JavaScript does', async () => {
      const parties = createPartyRepo(opened.store);
      const user = await rows.addUser('erik');
      const storgatan = await rows.addContract(user, pdf, { name: 'Hyresavtal Storgatan' });
      const orjan = await rows.addParty(storgatan, {
        name: 'ÖRJAN Åberg',
        email: 'Orjan@Aberg.TEST',
        mobilePhone: '+46701234567',
      });
      const kop = await rows.addContract(user, pdf, { name: 'Köpeavtal' });
      await rows.addParty(kop, { name: 'Bo Ek', email: 'bo@ek.test' });
      const atag = await rows.addContract(user, pdf, { name: 'Övrigt ÅTAGANDE' });
      await contracts.changeStatus(kop, 'sent', {});
      const found = async (filter: ContractFilter) => {
        const scoped = { ...filter, userId: user };
        const ids = await idsOf(scoped);
        expect(await contracts.total(scoped), JSON.stringify(filter)).toBe(ids.length);
        expect((await contracts.countByStatus(scoped)).all, JSON.stringify(filter)).toBe(ids.length);
        expect(await contracts.isSearchPartial(scoped)).toBe(false);
        return ids;
      };
      expect(await found({ q: 'örjan' })).toEqual([storgatan.id]);
      expect(await found({ q: 'ÖRJAN å' })).toEqual([storgatan.id]);
      expect(await found({ q: 'aberg.t' })).toEqual([storgatan.id]);
      expect(await found({ q: '701234' })).toEqual([storgatan.id]);
      expect(await found({ q: 'STORG' })).toEqual([storgatan.id]);
      expect(await found({ q: 'åtag' })).toEqual([atag.id]);
      expect(await found({ q: 'avtal' })).toEqual([kop.id, storgatan.id]);
      expect(await found({ q: 'ek' })).toEqual([kop.id]);
      expect(await found({ q: 'e' })).toEqual([atag.id, kop.id, storgatan.id]);
      expect(await found({ name: 'ÖVRIG' })).toEqual([atag.id]);
      expect(await found({ name: 'avtal', q: 'bo@' })).toEqual([kop.id]);
      expect(await found({ name: 'avtal', q: 'åtag' })).toEqual([]);
      expect(await found({ q: 'nowhere' })).toEqual([]);
      expect(await found({ q: '%' })).toEqual([]);
      expect(await contracts.countByStatus({ userId: user, q: 'avtal' })).toEqual({
        all: 2,
        draft: 1,
        sent: 1,
        signed: 0,
        rejected: 0,
      });
      expect(await idsOf({ userId: user, q: 'avtal', status: 'sent' })).toEqual([kop.id]);
      expect((await walk({ userId: user, q: 'avtal' }, 'name', 1)).backward).toEqual([storgatan.id, kop.id]);

      // A party renamed or removed, and a contract renamed: found by what they hold now.
      await parties.update(orjan.id, { name: 'Zelda Nova' });
      expect(await found({ q: 'örjan' })).toEqual([]);
      expect(await found({ q: 'zelda' })).toEqual([storgatan.id]);
      await parties.remove(orjan.id);
      expect(await found({ q: 'zelda' })).toEqual([]);
      await contracts.update(atag.id, { name: 'Arbetsavtal' });
      expect(await found({ q: 'åtag' })).toEqual([]);
      expect(await found({ q: 'arbets' })).toEqual([atag.id]);
    });
  });

describe('the contract search on a PostgreSQL database whose own locale folds ASCII only', () => {
  it('still finds Örjan by örjan: the parties’ text is folded as JavaScript folds it', async () => {
    const name = `sd_test_c_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testPostgresUrl() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    } finally {
      await admin.end();
    }
    const db = await openPostgres(databaseUrl(name));
    try {
      const x = storeOf(db);
      expect(await x.sql<{ folded: string }>("SELECT lower('ÖRJAN') AS folded").get()).toEqual({ folded: 'Örjan' });
      const rows = repoRows(x);
      const user = await rows.addUser('anna');
      const contract = await rows.addContract(user, await rows.addPdf('c'), { name: 'Avtal' });
      await rows.addParty(contract, { name: 'ÖRJAN ÅBERG', email: 'ÅSA@EXAMPLE.SE' });
      const contracts = createContractRepo(x);
      const ordering = contractOrdering(undefined, {});
      for (const q of ['örjan åberg', 'ÖRJAN å', 'åsa@'])
        expect(
          (await contracts.listPage({ isBackward: false, limit: 5 }, { q }, ordering)).rows.map((row) => row.id),
          q,
        ).toEqual([contract.id]);
    } finally {
      await db.close();
    }
  });
});
