import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeysetPage, KeysetRequest } from '../../server/db/keyset';
import { createAnnotationRepo, type NewAnnotation } from '../../server/db/repos/annotations';
import { createAttachmentRepo } from '../../server/db/repos/attachments';
import type { ContractRow } from '../../server/db/repos/contracts';
import { createFileRepo } from '../../server/db/repos/files';
import { createPartyCodeRepo } from '../../server/db/repos/party-codes';
import { createPartyMarkRepo } from '../../server/db/repos/party-marks';
import { createPartyRepo, type PartyRepo } from '../../server/db/repos/parties';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { repoRows } from '../helpers/repo-rows';

/** Every row of a keyset list, newest first, three at a time forward; then the same backward from the oldest. */
async function walkPages<Row extends { id: number }>(
  listPage: (request: KeysetRequest) => Promise<KeysetPage<Row>>,
): Promise<{ forward: number[]; backward: number[] }> {
  const forward: number[] = [];
  let page = await listPage({ isBackward: false, limit: 3 });
  forward.push(...page.rows.map((row) => row.id));
  while (page.hasMore) {
    page = await listPage({ isBackward: false, limit: 3, after: page.lastValues! });
    forward.push(...page.rows.map((row) => row.id));
  }
  const backward = page.rows.map((row) => row.id);
  while (page.firstValues) {
    page = await listPage({ isBackward: true, limit: 3, after: page.firstValues });
    backward.unshift(...page.rows.map((row) => row.id));
    if (!page.hasMore) break;
  }
  return { forward, backward };
}

for (const dialect of DIALECTS)
  describe(`parties and what hangs on them, on ${dialect}`, () => {
    let opened: TestDatabase;
    let rows: ReturnType<typeof repoRows>;
    let parties: PartyRepo;
    let contract: ContractRow;

    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      rows = repoRows(opened.store);
      parties = createPartyRepo(opened.store);
      const user = await rows.addUser('office');
      contract = await rows.addContract(user, await rows.addPdf('parties'), { name: 'Avtal' });
    });
    afterAll(() => opened?.close());

    it('keeps parties: insert, find, update, e-mail flags, links, order and pages', async () => {
      const other = await rows.addContract(contract.createdBy, contract.originalFileId);
      const first = await parties.insert(rows.party(contract, { name: 'Åsa', email: 'asa@x.se', signOrder: 2 }));
      expect(first).toMatchObject({
        contractId: contract.id,
        name: 'Åsa',
        email: 'asa@x.se',
        signOrder: 2,
        isAccept: false,
        emailSent: false,
        deliveryMethod: 'EMAIL',
        role: null,
      });
      expect(await parties.findById(first.id)).toEqual(first);
      expect(await parties.findInContract(contract.id, first.id)).toEqual(first);
      expect(await parties.findInContract(other.id, first.id)).toBeUndefined();
      expect(await parties.findBySignTokenHash(first.signTokenHash)).toEqual(first);
      expect(await parties.findBySignTokenHash('none')).toBeUndefined();
      expect(await parties.maxSignOrder(contract.id)).toBe(2);
      expect(await parties.maxSignOrder(other.id)).toBe(0);

      const updated = await parties.update(first.id, { isAccept: true, signTime: 30, mobilePhone: '070' });
      expect(updated).toMatchObject({ isAccept: true, signTime: 30, mobilePhone: '070', name: 'Åsa' });
      expect(await parties.update(first.id + 1000, { name: 'x' })).toBeUndefined();

      expect(await parties.markEmailStatus(first.id, { emailSent: true, emailOpened: true })).toBe(true);
      expect(await parties.markEmailStatus(first.id, { emailBounced: true })).toBe(true);
      expect(await parties.markEmailStatus(first.id, {})).toBe(true);
      expect(await parties.markEmailStatus(first.id + 1000, { emailSent: true })).toBe(false);
      expect(await parties.findById(first.id)).toMatchObject({
        emailSent: true,
        emailOpened: true,
        emailBounced: true,
        emailSpam: false,
      });

      await parties.replaceLink(first.id, { hash: 'new-hash', nonce: 'new-nonce' }, 77);
      expect(await parties.findBySignTokenHash(first.signTokenHash)).toBeUndefined();
      expect(await parties.findBySignTokenHash('new-hash')).toMatchObject({
        id: first.id,
        signNonce: 'new-nonce',
        signTokenSealed: null,
        updatedAt: 77,
      });

      // A link from before tokens were derived: its token in clear, until replaced by its hash and sealed copy.
      const legacy = await parties.insert(rows.party(other, { signTokenHash: 'clear-token', signNonce: null }));
      expect(await parties.listLegacyLinkTokens()).toEqual([{ id: legacy.id, token: 'clear-token' }]);
      await parties.replaceLegacyLinkToken(legacy.id, 'its-hash', 'sealed');
      expect(await parties.listLegacyLinkTokens()).toEqual([]);
      expect(await parties.findById(legacy.id)).toMatchObject({ signTokenHash: 'its-hash', signTokenSealed: 'sealed' });

      const more = [
        await rows.addParty(contract, { signOrder: 1 }),
        await rows.addParty(contract, { signOrder: 2 }),
        await rows.addParty(contract, { signOrder: 0 }),
        await rows.addParty(contract, { signOrder: 1 }),
      ];
      const all = [first, ...more];
      expect((await parties.listInContract(contract.id)).map((row) => row.id)).toEqual(
        [...all].sort((a, b) => a.signOrder - b.signOrder || a.id - b.id).map((row) => row.id),
      );
      expect(await parties.countInContract(contract.id)).toBe(5);
      const newestFirst = all.map((row) => row.id).sort((a, b) => b - a);
      expect(await walkPages((request) => parties.listPage(contract.id, request))).toEqual({
        forward: newestFirst,
        backward: newestFirst,
      });

      expect(await parties.remove(more[0]!.id)).toBe(true);
      expect(await parties.remove(more[0]!.id)).toBe(false);
      expect(await parties.countInContract(contract.id)).toBe(4);
    });

    it('keeps annotations, the file a party attached to one, and pages of them', async () => {
      const annotations = createAnnotationRepo(opened.store);
      const files = createFileRepo(opened.store);
      const [anna, bo] = [await rows.addParty(contract), await rows.addParty(contract)];
      const field = (partyId: number, row: Partial<NewAnnotation> = {}): NewAnnotation => ({
        contractId: contract.id,
        partyId,
        pdfPage: 1,
        posX: 0.25,
        posY: 10.5,
        width: 100,
        height: 20,
        type: 'TEXT',
        createdBy: contract.createdBy,
        createdAt: 1,
        updatedAt: 1,
        ...row,
      });
      const first = await annotations.insert(field(anna.id, { label: 'Namn', options: null }));
      expect(first).toMatchObject({ posX: 0.25, posY: 10.5, inputRequired: true, renderWhenSigned: true, value: null });
      expect(await annotations.findInContract(contract.id, first.id)).toEqual(first);
      expect(await annotations.findInContract(contract.id + 1000, first.id)).toBeUndefined();
      expect(await annotations.update(first.id, { value: 'Åsa', inputRequired: false })).toMatchObject({
        value: 'Åsa',
        inputRequired: false,
      });
      expect(await annotations.update(first.id + 1000, { value: 'x' })).toBeUndefined();
      const made = [
        first,
        await annotations.insert(field(bo.id, { type: 'ATTACHMENT' })),
        await annotations.insert(field(anna.id)),
        await annotations.insert(field(bo.id)),
      ];
      expect(await annotations.countInContract(contract.id)).toBe(4);
      expect((await annotations.listInContract(contract.id)).map((row) => row.id)).toEqual(made.map((row) => row.id));
      expect((await annotations.listOfParty(bo.id)).map((row) => row.id)).toEqual([made[1]!.id, made[3]!.id]);
      const newestFirst = made.map((row) => row.id).reverse();
      expect(await walkPages((request) => annotations.listPage(contract.id, request))).toEqual({
        forward: newestFirst,
        backward: newestFirst,
      });

      const attached = made[1]!.id;
      expect(await annotations.fileIdOf(attached)).toBeUndefined();
      const [one, two] = [
        await files.putFile(Buffer.from('one'), 'text/plain'),
        await files.putFile(Buffer.from('two'), 'text/plain'),
      ];
      await annotations.saveFile(attached, one);
      await annotations.saveFile(attached, two);
      expect(await annotations.fileIdOf(attached)).toBe(two);

      expect(await annotations.remove(made[3]!.id)).toBe(true);
      expect(await annotations.remove(made[3]!.id)).toBe(false);
      expect(await annotations.countInContract(contract.id)).toBe(3);
    });

    it('keeps attachments and pages of them', async () => {
      const attachments = createAttachmentRepo(opened.store);
      const file = await createFileRepo(opened.store).putFile(Buffer.from('bilaga'), 'application/pdf');
      const made = [];
      for (const name of ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'])
        made.push(
          await attachments.insert({
            contractId: contract.id,
            name,
            contentType: 'application/pdf',
            size: 6,
            fileId: file,
            createdBy: contract.createdBy,
            createdAt: 3,
          }),
        );
      expect(made[0]).toMatchObject({ name: 'a.pdf', size: 6, fileId: file });
      expect(await attachments.findInContract(contract.id, made[0]!.id)).toEqual(made[0]);
      expect(await attachments.findInContract(contract.id + 1000, made[0]!.id)).toBeUndefined();
      expect(await attachments.countInContract(contract.id)).toBe(4);
      expect((await attachments.listInContract(contract.id)).map((row) => row.name)).toEqual([
        'a.pdf',
        'b.pdf',
        'c.pdf',
        'd.pdf',
      ]);
      const newestFirst = made.map((row) => row.id).reverse();
      expect(await walkPages((request) => attachments.listPage(contract.id, request))).toEqual({
        forward: newestFirst,
        backward: newestFirst,
      });
      expect(await attachments.remove(made[1]!.id)).toBe(true);
      expect(await attachments.remove(made[1]!.id)).toBe(false);
      expect(await attachments.countInContract(contract.id)).toBe(3);
    });

    it('keeps a party’s one-time code and its signature mark', async () => {
      const codes = createPartyCodeRepo(opened.store);
      const marks = createPartyMarkRepo(opened.store);
      const [anna, bo] = [await rows.addParty(contract), await rows.addParty(contract)];
      const code = {
        partyId: anna.id,
        codeHash: 'h1',
        expiresAt: 500,
        failedAttempts: 0,
        sentAt: 100,
        sendsInWindow: 1,
        windowStartedAt: 100,
      };
      expect(await codes.find(anna.id)).toBeUndefined();
      await codes.save(code);
      await codes.countFailure(anna.id);
      await codes.countFailure(anna.id);
      await codes.countFailure(bo.id); // No code: nothing to count.
      expect(await codes.find(anna.id)).toEqual({ ...code, failedAttempts: 2 });
      expect(await codes.find(bo.id)).toBeUndefined();
      await codes.spend(anna.id, 200);
      expect(await codes.find(anna.id)).toMatchObject({ expiresAt: 200 });
      await codes.save({ ...code, codeHash: 'h2', sendsInWindow: 2 });
      expect(await codes.find(anna.id)).toEqual({ ...code, codeHash: 'h2', sendsInWindow: 2 });

      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 1]);
      const mark = {
        partyId: anna.id,
        kind: 'drawn',
        face: 'Caveat',
        signaturePng: png,
        initialsPng: null,
        createdAt: 9,
      };
      await marks.save(mark);
      expect(await marks.find(anna.id)).toEqual(mark);
      await marks.save({ ...mark, kind: 'typed', signaturePng: null });
      await marks.save({ ...mark, partyId: bo.id, initialsPng: Buffer.from([1, 2]) });
      expect(await marks.find(anna.id)).toEqual({ ...mark, kind: 'typed', signaturePng: null });
      const listed = await marks.listOf([anna.id, bo.id, bo.id + 1000]);
      expect(listed.map((row) => row.partyId).sort((a, b) => a - b)).toEqual([anna.id, bo.id]);
      expect(listed.find((row) => row.partyId === bo.id)?.initialsPng).toEqual(Buffer.from([1, 2]));
      expect(await marks.listOf([])).toEqual([]);
      expect(await marks.find(bo.id + 1000)).toBeUndefined();
    });
  });
