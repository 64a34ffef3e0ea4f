import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/database';
import { createAnnotationRepo } from '../../server/db/repos/annotations';
import { createAttachmentRepo } from '../../server/db/repos/attachments';
import { createContractRepo } from '../../server/db/repos/contracts';
import { createContractSealRepo, type ContractSealRow } from '../../server/db/repos/contract-seals';
import { createFileRepo, type FileRepo } from '../../server/db/repos/files';
import { createTemplateRepo } from '../../server/db/repos/templates';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { repoRows } from '../helpers/repo-rows';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

for (const dialect of DIALECTS)
  describe(`stored files and seals on ${dialect}`, () => {
    let opened: TestDatabase;
    let rows: ReturnType<typeof repoRows>;
    let files: FileRepo;
    let user: number;

    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      rows = repoRows(opened.store);
      files = createFileRepo(opened.store);
      user = await rows.addUser('office');
    });
    afterAll(() => opened?.close());

    const exists = async (id: number) => (await files.getSha256(id)) !== undefined;
    const unclaimed = async () =>
      (await opened.store.sql<{ sha256: string }>('SELECT sha256 FROM unclaimed_files ORDER BY sha256').all()).map(
        (row) => row.sha256,
      );

    it('keeps the same bytes of the same type once, and reads them back whole', async () => {
      const bytes = Buffer.from([0, 1, 2, 255, 0x25, 0x50]);
      const id = await files.putFile(bytes, 'application/octet-stream', 42);
      expect(await files.putFile(new Uint8Array(bytes), 'application/octet-stream')).toBe(id);
      const asText = await files.putFile(bytes, 'text/plain');
      expect(asText).not.toBe(id);
      const stored = {
        id,
        sha256: sha256(bytes),
        contentType: 'application/octet-stream',
        size: 6,
        data: bytes,
        createdAt: 42,
      };
      expect(await files.getFile(id)).toEqual(stored);
      expect(await files.readFile(id)).toEqual(stored);
      expect(await files.getSha256(id)).toBe(sha256(bytes));
      const empty = await files.putFile(Buffer.alloc(0), 'text/plain');
      expect((await files.getFile(empty))?.data).toEqual(Buffer.alloc(0));
      expect(await files.getFile(id + 1000)).toBeUndefined();
      expect(await files.readFile(id + 1000)).toBeUndefined();
      expect(await files.getSha256(id + 1000)).toBeUndefined();
    });

    it('claims a placed file in the transaction that stores its row, and gives it back when the row goes', async () => {
      const hash = sha256(Buffer.from('an upload'));
      // What FileStore.place records before it moves the file into place.
      await opened.store.sql('INSERT INTO unclaimed_files (sha256, since) VALUES (?, ?)').run([hash, 1]);
      const id = await inTransaction(opened.db, () => files.putPlacedFile(hash, 9, 'application/pdf', 5));
      expect(await unclaimed()).not.toContain(hash);
      expect(await files.getSha256(id)).toBe(hash);
      // Its bytes are a file of DATA_DIR/files: nothing to read them with here.
      await expect(files.getFile(id)).rejects.toThrow(/no file store/);
      expect(await files.putPlacedFile(hash, 9, 'application/pdf')).toBe(id);
      await inTransaction(opened.db, () => files.releaseFile(id, 6));
      expect(await exists(id)).toBe(false);
      expect(await unclaimed()).toContain(hash);
    });

    it('releases a file only when nothing refers to it, without failing the transaction it runs in', async () => {
      const contracts = createContractRepo(opened.store);
      const pdf = await rows.addPdf('original');
      const contract = await rows.addContract(user, pdf);
      const signed = await rows.addPdf('signed');
      await contracts.update(contract.id, { signedFileId: signed });
      const attachment = await files.putFile(Buffer.from('bilaga'), 'application/pdf');
      await createAttachmentRepo(opened.store).insert({
        contractId: contract.id,
        name: 'a.pdf',
        contentType: 'application/pdf',
        size: 6,
        fileId: attachment,
        createdBy: user,
        createdAt: 1,
      });
      const answer = await files.putFile(Buffer.from('svar'), 'image/png');
      const annotations = createAnnotationRepo(opened.store);
      const party = await rows.addParty(contract);
      const field = await annotations.insert({
        contractId: contract.id,
        partyId: party.id,
        pdfPage: 1,
        posX: 1,
        posY: 1,
        width: 1,
        height: 1,
        type: 'ATTACHMENT',
        createdBy: user,
        createdAt: 1,
        updatedAt: 1,
      });
      await annotations.saveFile(field.id, answer);
      const templatePdf = await rows.addPdf('template');
      const template = await createTemplateRepo(opened.store).insert({
        name: 'Mall',
        isPublished: false,
        header: '',
        content: '',
        footer: '',
        footerType: 'SIMPLE',
        roleNames: '[]',
        createdBy: user,
        createdAt: 1,
        updatedAt: 1,
      });
      await createTemplateRepo(opened.store).update(template.id, { pdfFileId: templatePdf });
      const loose = await files.putFile(Buffer.from('loose'), 'text/plain');

      const referred = [pdf, signed, attachment, answer, templatePdf];
      await inTransaction(opened.db, async () => {
        for (const id of referred) await files.releaseFile(id);
        await files.releaseFile(loose);
        // The transaction goes on after each refusal (a statement PostgreSQL refused would end it).
        await files.putFile(Buffer.from('after'), 'text/plain');
      });
      for (const id of referred) expect(await exists(id), `file ${id}`).toBe(true);
      expect(await exists(loose)).toBe(false);
      await files.releaseFile(loose + 1000); // No such file: nothing happens.

      // Once the contract is gone, its files go with their last reference.
      await contracts.remove(contract);
      await inTransaction(opened.db, async () => {
        for (const id of [pdf, signed, attachment, answer]) await files.releaseFile(id);
      });
      for (const id of [pdf, signed, attachment, answer]) expect(await exists(id)).toBe(false);
      expect(await exists(templatePdf)).toBe(true);
    });

    it('keeps seals: find them by hash, follow timestamps and archive renewals', async () => {
      const seals = createContractSealRepo(opened.store);
      const contracts = createContractRepo(opened.store);
      const pdf = await rows.addPdf('seals');
      const made = [];
      for (let index = 0; index < 5; index += 1) made.push(await rows.addContract(user, pdf));
      const [a, b, c, d, unsealed] = made as [
        (typeof made)[0],
        (typeof made)[0],
        (typeof made)[0],
        (typeof made)[0],
        (typeof made)[0],
      ];
      const seal = (contractId: number, row: Partial<ContractSealRow> = {}) => ({
        contractId,
        sealedSha256: `sealed-${contractId}`,
        sealedSize: 100,
        createdAt: 1,
        updatedAt: 1,
        ...row,
      });
      await seals.insert(seal(a.id, { timestampStatus: 'signature', timestampTime: 100, sealedContentSha256: 'same' }));
      await seals.insert(seal(b.id, { timestampStatus: 'document', timestampTime: null, sealedContentSha256: 'same' }));
      await seals.insert(
        seal(c.id, { timestampStatus: 'document', timestampTime: 100, sealCertificateSha256: 'cert' }),
      );
      await seals.insert(seal(d.id, { timestampStatus: 'pending', tsaUrl: 'https://user:pw@tsa.test/' }));
      expect(await seals.find(a.id)).toMatchObject({
        sealedSha256: `sealed-${a.id}`,
        timestampStatus: 'signature',
        ltvStatus: 'none',
        timestampAttempts: 0,
        chainHeadHash: null,
      });
      expect(await seals.find(unsealed.id)).toBeUndefined();
      expect((await seals.findBySealedSha256(`sealed-${b.id}`)).map((row) => row.contractId)).toEqual([b.id]);
      expect((await seals.findBySealedContent('same')).map((row) => row.contractId).sort()).toEqual(
        [a.id, b.id].sort(),
      );
      expect(await seals.findBySealedContent('other')).toEqual([]);
      // A seal without the authority's time is not the latest, whatever its contract's id.
      expect((await seals.latestTimestamped())?.contractId).toBe(c.id);
      expect(await seals.countPending()).toBe(1);
      expect(await seals.pendingContractIds()).toEqual([d.id]);
      expect(await seals.isSealCertificate('cert')).toBe(true);
      expect(await seals.isSealCertificate('other')).toBe(false);

      expect(await seals.listTsaUrlsWithCredentials()).toEqual([{ id: d.id, url: 'https://user:pw@tsa.test/' }]);
      await seals.setTsaUrl(d.id, 'https://tsa.test/');
      expect(await seals.listTsaUrlsWithCredentials()).toEqual([]);
      await seals.update(d.id, { tsaUrl: 'https://tsa.test/?key=1', timestampStatus: 'signature', timestampTime: 50 });
      expect(await seals.listTsaUrlsWithCredentials()).toEqual([{ id: d.id, url: 'https://tsa.test/?key=1' }]);
      expect(await seals.countPending()).toBe(0);

      // Archive timestamps: every timestamped seal, or those due for renewal.
      await seals.update(a.id, { archiveExpiresAt: 1_000, archiveTime: 10 });
      await seals.update(b.id, { archiveExpiresAt: 1_000, archiveTime: 500 });
      await seals.update(c.id, { archiveExpiresAt: 9_000, archiveTime: 10, ltvStatus: 'done', updatedAt: 700 });
      await seals.update(d.id, { ltvStatus: 'pending', ltvError: 'no answer', updatedAt: 800 });
      const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
      expect(sorted(await seals.archivable())).toEqual([a.id, b.id, c.id]);
      expect(sorted(await seals.archivable({ expiringBefore: 2_000, renewedBefore: 100 }))).toEqual([a.id]);
      expect(await seals.renewalProgress(600)).toEqual({
        renewed: 1,
        pending: 1,
        errors: [{ contractId: d.id, error: 'no answer' }],
      });
      expect(await seals.renewalProgress(900)).toMatchObject({ renewed: 0, pending: 1 });

      // A contract signed before seals were kept: found, until it has its row.
      const signedFile = await rows.addPdf('old signed');
      await contracts.changeStatus(unsealed, 'signed', { signedFileId: signedFile, signedAt: 3 });
      await contracts.changeStatus(a, 'signed', { signedFileId: signedFile, signedAt: 4 });
      expect(await seals.signedWithout()).toEqual([{ contractId: unsealed.id, signedFileId: signedFile, signedAt: 3 }]);
      await seals.insert(seal(unsealed.id));
      expect(await seals.signedWithout()).toEqual([]);
    });
  });
