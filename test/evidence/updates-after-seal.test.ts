import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUpdatesAfterSeal } from '../../server/pdf/check-updates-after-seal';
import { prepareDocumentTimestamp } from '../../server/pdf/document-timestamp';
import { download, pdfsigBlocks, signedContract } from '../helpers/evidence';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import {
  addEmptySignatureField,
  moveSealWidget,
  rewriteDssListedPage,
  shadowCatalog,
  stampRentWaived,
} from '../helpers/tamper-pdf';

const VALID = 'Signature Validation: Signature is Valid.';

/**
 * The structural rule of what may follow the seal (docs/decisions.md): document timestamps and
 * validation data pass, and every change an attacker or a careless tool makes to a sealed PDF
 * by a well-formed incremental update (so that the seal's own byte range still verifies) fails.
 */
describe('the structural rule: what may be appended after the seal', () => {
  let t: TestServer;
  let sealed: Buffer;
  let dir: string;
  beforeAll(async () => {
    t = await startTestServer();
    dir = makeTempDir('signdesk-rule-');
    const contract = await signedContract(t);
    sealed = (await download(t, `${contract.self}/signed_pdf`)).bytes;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A document timestamp with a DSS, its token left as zeros (the rule judges structure, not the token). */
  const extend = async (bytes: Buffer, name: string, item: number) => {
    const prepared = await prepareDocumentTimestamp({
      bytes,
      fieldName: name,
      room: 64,
      dss: {
        certs: [Buffer.from([0x30, 0x03, 0x02, 0x01, item])],
        crls: [Buffer.from([0x30, 0x03, 0x02, 0x01, item + 1])],
        ocsps: [],
        vri: [{ key: 'AB'.repeat(20), certs: [0], crls: [0], ocsps: [] }],
      },
    });
    return Buffer.from(prepared.bytes);
  };

  it('passes the sealed file itself, a document timestamp with a DSS (B-LTA) and a second renewal on top', async () => {
    expect(await checkUpdatesAfterSeal(sealed, sealed.length)).toEqual({ isAllowed: true, updates: [], problems: [] });
    const once = await extend(sealed, 'Archive 1', 1);
    const twice = await extend(once, 'Archive 2', 3);
    const rule = await checkUpdatesAfterSeal(twice, sealed.length);
    expect(rule.problems).toEqual([]);
    expect(rule.isAllowed).toBe(true);
    expect(rule.updates.map((update) => [update.addedTimestamps, update.changesValidationData])).toEqual([
      [1, true],
      [1, true],
    ]);
    expect(rule.updates[0]!.start).toBe(sealed.length);
    expect(rule.updates[1]!.start).toBe(once.length);
    // The seal still verifies for an independent reader.
    const file = path.join(dir, 'lta.pdf');
    fs.writeFileSync(file, twice);
    expect(pdfsigBlocks(file)[0]).toContain(VALID);
  });

  it('fails a stamped "RENT WAIVED" (a page content change), although the seal itself still verifies', async () => {
    const stamped = await stampRentWaived(sealed);
    const file = path.join(dir, 'stamped.pdf');
    fs.writeFileSync(file, stamped);
    expect(pdfsigBlocks(file)[0]).toContain(VALID);
    const rule = await checkUpdatesAfterSeal(stamped, sealed.length);
    expect(rule.isAllowed).toBe(false);
    expect(rule.problems.join('\n')).toMatch(/update 1: it changes \/(Contents|Resources) of page 1/);
  });

  it('fails an empty signature field, a changed existing annotation and an object the cross-reference section hides', async () => {
    const field = await checkUpdatesAfterSeal(await addEmptySignatureField(sealed), sealed.length);
    expect(field.isAllowed).toBe(false);
    expect(field.problems.join('\n')).toContain('an empty signature field (the seal permits no further signature)');

    const moved = await checkUpdatesAfterSeal(await moveSealWidget(sealed), sealed.length);
    expect(moved.isAllowed).toBe(false);
    expect(moved.problems.join('\n')).toMatch(/it changes an annotation on page \d+/);

    const shadow = await checkUpdatesAfterSeal(shadowCatalog(sealed), sealed.length);
    expect(shadow.isAllowed).toBe(false);
    expect(shadow.problems.join('\n')).toContain('its cross-reference section is not in the update');

    const garbage = await checkUpdatesAfterSeal(
      Buffer.concat([sealed, Buffer.from('% trailing words\n')]),
      sealed.length,
    );
    expect(garbage).toMatchObject({
      isAllowed: false,
      problems: ['bytes were added after the seal that are not an incremental update'],
    });
  });

  it("fails a page rewrite whose content stream an earlier update listed under the DSS (the review's shadow rewrite)", async () => {
    const once = await extend(sealed, 'Archive 1', 1);
    const { listed, rewritten } = await rewriteDssListedPage(once);
    // Listing the stream changes only the DSS: allowed (pyHanko too calls it a signature-maintenance update).
    const listing = await checkUpdatesAfterSeal(listed, sealed.length);
    expect(listing.problems).toEqual([]);
    expect(listing.updates[1]).toMatchObject({ changesValidationData: true });
    const rule = await checkUpdatesAfterSeal(rewritten, sealed.length);
    expect(rule.isAllowed).toBe(false);
    expect(rule.problems).toEqual(['update 3: it changes the content of page 1']);
    expect(rule.updates[2]!.changesValidationData).toBe(false);
    const file = path.join(dir, 'dss-shadow.pdf');
    fs.writeFileSync(file, rewritten);
    expect(pdfsigBlocks(file)[0]).toContain(VALID);
  });

  it('fails a timestamp update whose body carries a second, unlisted copy of an object', async () => {
    const once = await extend(sealed, 'Archive 1', 1);
    const text = once.toString('latin1');
    const xrefAt = Math.max(text.lastIndexOf('\nxref'), text.lastIndexOf(' obj\n<< /Type /XRef'));
    const extra = Buffer.from('\n1 0 obj\n<< /Evil true >>\nendobj\n', 'latin1');
    // Inserted before the cross-reference section: the offsets it lists stay right, since they all come before.
    const at = text.lastIndexOf('\n', xrefAt - 1);
    const smuggled = Buffer.concat([once.subarray(0, at), extra, once.subarray(at)]);
    const fixed = Buffer.from(
      smuggled
        .toString('latin1')
        .replace(
          /startxref\n(\d+)\n%%EOF\n$/,
          (_, offset: string) => `startxref\n${Number(offset) + extra.length}\n%%EOF\n`,
        ),
      'latin1',
    );
    const rule = await checkUpdatesAfterSeal(fixed, sealed.length);
    expect(rule.isAllowed).toBe(false);
    expect(rule.problems.join('\n')).toContain('object 1 is written where no cross-reference entry points');
  });

  it('says no to a hostile update (inflating stops at its bound): a cross-reference stream claiming a billion entries over a deflate bomb', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(sealed.toString('latin1'))![1];
    const at = sealed.length;
    const head = Buffer.from(
      `999 0 obj\n<< /Type /XRef /Size 1000 /Root 1 0 R /Prev ${startxref} /W [1 8 8] /Index [0 1000000000] /Filter /FlateDecode /Length ${bomb.length} >>\nstream\n`,
      'latin1',
    );
    const hostile = Buffer.concat([
      sealed,
      head,
      bomb,
      Buffer.from(`\nendstream\nendobj\nstartxref\n${at}\n%%EOF\n`, 'latin1'),
    ]);
    const rule = await checkUpdatesAfterSeal(hostile, sealed.length);
    expect(rule.isAllowed).toBe(false);
    expect(rule.problems.join('\n')).toMatch(/cross-reference section cannot be read/);
  });
});
