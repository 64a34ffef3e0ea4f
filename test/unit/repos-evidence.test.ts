import { setImmediate as turn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_GENESIS, checkChain, hashEntry } from '../../server/activity/activity-chain';
import { chainActivity, chainEntryOf } from '../../server/activity/log-activity';
import { officeChainEntryOf } from '../../server/activity/office-log';
import { createActivityRepo, type ActivityRepo } from '../../server/db/repos/activity-log';
import { createOfficeEvidenceRepo, type OfficeEvidenceRepo } from '../../server/db/repos/office-evidence';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { addContract, addUser } from '../helpers/repo-rows';

const ORIGIN = { userAgent: 'test', ipAddress: '192.0.2.1' };

/** One entry appended as logActivity does: the head read and the entry written in one transaction. */
async function append(opened: TestDatabase, activity: ActivityRepo, contractId: number, event: string, time: number) {
  return opened.db.transaction(async () => {
    const head = await activity.head(contractId);
    // Another transaction's turn comes here if nothing holds it off: the chain would fork.
    await turn();
    const row = chainActivity({ ...ORIGIN, contractId, event, details: { n: time } }, time, head);
    await activity.insert(row);
    return row;
  });
}

/** One office-log entry, as logOfficeEvent writes it. */
async function appendOffice(opened: TestDatabase, evidence: OfficeEvidenceRepo, event: string, time: number) {
  return opened.db.transaction(async () => {
    const head = await evidence.officeHead();
    await turn();
    const row = {
      sequence: (head?.sequence ?? 0) + 1,
      event,
      subject: '',
      userId: null,
      ...ORIGIN,
      createdAt: time,
      details: '{}',
      previousHash: head?.hash ?? CHAIN_GENESIS,
    };
    await evidence.insertOfficeEntry({ ...row, hash: hashEntry(officeChainEntryOf({ ...row, hash: '' })) });
  });
}

/** The activity log and the office log (both hash chains) and the office anchors, on each dialect. */
for (const dialect of DIALECTS)
  describe(`evidence repositories on ${dialect}`, () => {
    let opened: TestDatabase;
    let userId: number;
    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      userId = await addUser(opened.store, 'clerk');
    });
    afterAll(() => opened?.close());

    it('appends a contract chain from concurrent transactions without a fork', async () => {
      const activity = createActivityRepo(opened.store);
      const contractId = await addContract(opened.store, userId);
      const other = await addContract(opened.store, userId);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          append(opened, activity, i % 3 === 0 ? other : contractId, 'e', 1_000 + i),
        ),
      );
      const chain = await activity.listChain(contractId);
      expect(chain.map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const check = checkChain(chain.map((row) => ({ ...chainEntryOf(row as never), hash: row.hash! })));
      expect(check).toMatchObject({ isIntact: true, entryCount: 8 });
      expect(await activity.head(contractId)).toEqual({ sequence: 8, hash: chain[7]!.hash });
      expect(await activity.countInContract(contractId)).toBe(8);
      expect(await activity.countInContract(other)).toBe(4);
    });

    it('reads the newest entry, pages both ways and chains entries written before the chain', async () => {
      const activity = createActivityRepo(opened.store);
      const contractId = await addContract(opened.store, userId);
      const first = await append(opened, activity, contractId, 'contract.created', 10);
      const second = await append(opened, activity, contractId, 'party.signed', 20);
      expect(await activity.newest(contractId)).toEqual({
        event: 'party.signed',
        partyId: null,
        details: second.details,
      });
      expect(await activity.newest(9_999)).toBeUndefined();
      expect(await activity.head(9_999)).toBeUndefined();

      const page = await activity.listPage(contractId, { isBackward: false, limit: 1 });
      expect(page.rows.map((row) => row.event)).toEqual(['party.signed']);
      expect(page.hasMore).toBe(true);
      const next = await activity.listPage(contractId, { after: page.lastValues, isBackward: false, limit: 1 });
      expect(next.rows.map((row) => row.hash)).toEqual([first.hash]);
      expect(next.hasMore).toBe(false);
      const back = await activity.listPage(contractId, { after: next.firstValues, isBackward: true, limit: 5 });
      expect(back.rows.map((row) => row.hash)).toEqual([second.hash]);
      expect(back.hasMore).toBe(false);

      // Entries from before the chain existed: found, then chained one by one.
      const old = await addContract(opened.store, userId);
      const { orm, t } = opened.store;
      for (const event of ['contract.created', 'contract.sent'])
        await opened.store.run(
          orm.insert(t.activityLog).values({ contractId: old, event, createdAt: 5, ...ORIGIN, partyId: 7 }),
        );
      expect(await activity.contractsWithUnchained()).toEqual([old]);
      const unchained = await activity.unchainedOf(old);
      expect(unchained.map((row) => [row.event, row.sequence, row.hash, row.partyId])).toEqual([
        ['contract.created', null, null, 7],
        ['contract.sent', null, null, 7],
      ]);
      await activity.setChain(unchained[0]!.id, 1, CHAIN_GENESIS, 'a'.repeat(64));
      expect(await activity.unchainedOf(old)).toHaveLength(1);
      expect(await activity.head(old)).toEqual({ sequence: 1, hash: 'a'.repeat(64) });
      await activity.setChain(unchained[1]!.id, 2, 'a'.repeat(64), 'b'.repeat(64));
      expect(await activity.contractsWithUnchained()).toEqual([]);
      expect((await activity.listChain(old)).map((row) => row.sequence)).toEqual([1, 2]);
    });

    it('appends the office log from concurrent transactions without a fork', async () => {
      const evidence = createOfficeEvidenceRepo(opened.store);
      expect(await evidence.officeHead()).toBeUndefined();
      await Promise.all(Array.from({ length: 8 }, (_, i) => appendOffice(opened, evidence, `user.created`, 100 + i)));
      const log = await evidence.listOfficeLog();
      expect(log.map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(checkChain(log.map(officeChainEntryOf))).toMatchObject({ isIntact: true, entryCount: 8 });
      expect(await evidence.officeHead()).toEqual({ id: log[7]!.id, sequence: 8, hash: log[7]!.hash });
    });

    it('finds the chains that changed since an anchor and keeps anchors with their heads', async () => {
      const activity = createActivityRepo(opened.store);
      const evidence = createOfficeEvidenceRepo(opened.store);
      const before = await evidence.maxActivityId();
      const a = await addContract(opened.store, userId);
      const b = await addContract(opened.store, userId);
      await append(opened, activity, a, 'one', 1);
      const middle = await evidence.maxActivityId();
      expect(middle).toBeGreaterThan(before);
      await append(opened, activity, a, 'two', 2);
      const bHead = await append(opened, activity, b, 'one', 3);
      const through = await evidence.maxActivityId();
      const aHead = await activity.head(a);
      expect(await evidence.changedContractHeads(before, through)).toEqual([
        { contractId: a, sequence: 2, hash: aHead!.hash },
        { contractId: b, sequence: 1, hash: bHead.hash },
      ]);
      // Only b's entry came after `middle`'s: but a changed too (its second entry).
      expect((await evidence.changedContractHeads(middle, through)).map((head) => head.contractId)).toEqual([a, b]);
      expect(await evidence.changedContractHeads(through, through)).toEqual([]);

      expect(await evidence.latestAnchor()).toBeUndefined();
      const token = Buffer.from([0x30, 0x82, 0x00, 0xff]);
      const anchor = {
        createdAt: 50,
        activityIdThrough: through,
        officeLogIdThrough: 0,
        headsRoot: 'c'.repeat(64),
        headCount: 2,
        previousHash: '0'.repeat(64),
        hash: 'd'.repeat(64),
        token,
        tokenTime: 49,
        tsaUrl: 'http://tsa.test/',
        clockOffsetMs: -1,
      };
      const heads = [
        { chain: `/api/contracts/${b}`, sequence: 1, hash: bHead.hash },
        { chain: `/api/contracts/${a}`, sequence: 2, hash: aHead!.hash },
      ];
      const firstId = await evidence.insertAnchor({ ...anchor, sequence: 1 }, heads);
      const secondId = await evidence.insertAnchor({ ...anchor, sequence: 2, hash: 'e'.repeat(64) }, []);
      const latest = await evidence.latestAnchor();
      expect(latest).toMatchObject({ id: secondId, sequence: 2, clockOffsetMs: -1 });
      expect(latest?.token.equals(token)).toBe(true);
      expect((await evidence.listAnchors()).map((row) => row.id)).toEqual([firstId, secondId]);
      const folded = await evidence.listAnchorHeads();
      expect([...folded.keys()]).toEqual([firstId]);
      expect(folded.get(firstId)).toEqual([...heads].sort((left, right) => (left.chain < right.chain ? -1 : 1)));
    });
  });
