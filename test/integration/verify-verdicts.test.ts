import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTimestampQuery } from '../../server/crypto/rfc3161';
import { prepareDocumentTimestamp } from '../../server/pdf/document-timestamp';
import { byteRangesOf, download, signedContract, waitForLtvStatus } from '../helpers/evidence';
import { makePdf } from '../helpers/pdfs';
import { run } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { rewriteDssListedPage, stampRentWaived } from '../helpers/tamper-pdf';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

const OFFICE = 'Fastighetsbyrån Storgatan AB';

/**
 * Every verdict of the public verify page's check (POST /verify/check), each on a file made the
 * way a party, an archive or an attacker would make it, and the office's name on each.
 */
describe('the verify check: one verdict for each kind of copy', () => {
  let tsa: TsaServer;
  let env: SigningEnv;
  let dir: string;
  let sealed: Buffer;
  let issued: Buffer;
  beforeAll(async () => {
    tsa = await startTsaServer();
    env = await startSigningEnv({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5] });
    dir = makeTempDir('signdesk-verdicts-');
    expect((await env.t.api('PUT', '/api/settings/general', { body: { office_name: OFFICE } })).status).toBe(200);
    tsa.down();
    const contract = await signedContract(env.t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
    sealed = (await download(env.t, `${contract.self}/signed_pdf`)).bytes;
    tsa.up();
    await waitForLtvStatus(env.t, contract.self, 'done');
    issued = (await download(env.t, `${contract.self}/signed_pdf`)).bytes;
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await tsa?.close();
  });

  const check = async (bytes: Uint8Array) => {
    const response = await fetch(`${env.t.url}/verify/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: bytes,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, any>;
  };

  it('intact: the file exactly as sealed, named with the office', async () => {
    expect(await check(sealed)).toMatchObject({
      verdict: 'intact',
      office: { name: OFFICE },
      contract: { name: 'Hyresavtal Storgatan 1' },
      added_bytes: 0,
      additions: [],
      has_newer_copy: true,
    });
  });

  it("extended: the office's own copy (document timestamp, then DSS and archive timestamp), each addition signed by the authority", async () => {
    const result = await check(issued);
    expect(result).toMatchObject({
      verdict: 'extended',
      office: { name: OFFICE },
      contract: { name: 'Hyresavtal Storgatan 1' },
      changes: [],
      has_newer_copy: false,
    });
    expect(result.additions).toEqual([
      {
        timestamps: 1,
        validation_data: false,
        signed_by: expect.stringContaining('Test Timestamp Authority'),
        signed_time: expect.any(String),
      },
      {
        timestamps: 1,
        validation_data: true,
        signed_by: expect.stringContaining('Test Timestamp Authority'),
        signed_time: expect.any(String),
      },
    ]);
    expect(result.timestamps.map((stamp: { kind: string }) => stamp.kind)).toEqual(['document', 'document']);
  });

  it('extended: a copy another tool extended (a DSS and a document timestamp built here), and validation data no timestamp covers', async () => {
    const prepared = await prepareDocumentTimestamp({
      bytes: sealed,
      fieldName: 'Archive by another tool',
      room: 8192,
      dss: { certs: [fs.readFileSync(tsa.certFile)], crls: [], ocsps: [], vri: [] },
    });
    const bytes = Buffer.from(prepared.bytes);
    const digest = await crypto.subtle.digest(
      'SHA-256',
      Buffer.concat([bytes.subarray(0, prepared.start), bytes.subarray(prepared.end)]),
    );
    const query = makeTimestampQuery(new Uint8Array(digest));
    const reply = Buffer.from(
      await (
        await fetch(tsa.url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query' },
          body: query.der,
        })
      ).arrayBuffer(),
    );
    // The token is the reply's second element: cut it out as the PDF wants it.
    const der = tokenOf(reply);
    bytes.write(der.toString('hex').toUpperCase(), prepared.start + 1, 'latin1');
    const result = await check(bytes);
    expect(result).toMatchObject({
      verdict: 'extended',
      office: { name: OFFICE },
      contract: { name: 'Hyresavtal Storgatan 1' },
    });
    expect(result.additions).toEqual([
      {
        timestamps: 1,
        validation_data: true,
        signed_by: expect.stringContaining('Test Timestamp Authority'),
        signed_time: expect.any(String),
      },
    ]);

    const unsigned = await prepareDocumentTimestamp({
      bytes: sealed,
      fieldName: 'Unsigned',
      room: 16,
      dss: { certs: [fs.readFileSync(tsa.certFile)], crls: [], ocsps: [], vri: [] },
    });
    const zeros = await check(unsigned.bytes);
    expect(zeros.verdict).toBe('extended');
    expect(zeros.additions).toEqual([{ timestamps: 1, validation_data: true, signed_by: null, signed_time: null }]);
  });

  it('changed: a stamped "RENT WAIVED", with what changed in words', async () => {
    const result = await check(await stampRentWaived(sealed));
    expect(result).toMatchObject({ verdict: 'changed', office: { name: OFFICE }, seal: { is_valid: true } });
    expect(result.changes.join('\n')).toMatch(/changes \/(Contents|Resources) of page 1/);
    // A changed copy does not learn which contract it came from, nor who signed it.
    expect(result.contract).toBeNull();
    expect(JSON.stringify(result)).not.toMatch(/Hyresavtal|Åsa/);
  });

  it("changed, not extended: a page rewritten in two steps, its content stream first listed under the DSS (the review's F1)", async () => {
    const { listed, rewritten } = await rewriteDssListedPage(issued);
    // Kept for an independent validator to judge (test-results/ is not committed).
    fs.mkdirSync(path.resolve('test-results/evidence'), { recursive: true });
    fs.writeFileSync(path.resolve('test-results/evidence/dss-listed.pdf'), listed);
    fs.writeFileSync(path.resolve('test-results/evidence/dss-shadow-rewrite.pdf'), rewritten);
    fs.writeFileSync(path.resolve('test-results/evidence/issued.pdf'), issued);
    expect((await check(listed)).verdict).toBe('extended');
    const result = await check(rewritten);
    expect(result).toMatchObject({ verdict: 'changed', office: { name: OFFICE }, seal: { is_valid: true } });
    expect(result.changes).toContain('update 4: it changes the content of page 1');
  });

  it('same-pages: the sealed PDF saved again by qpdf (its /ByteRange stale)', async () => {
    const input = path.join(dir, 'sealed.pdf');
    const output = path.join(dir, 'resaved.pdf');
    fs.writeFileSync(input, sealed);
    expect(run('qpdf', [input, output]).status).toBe(0);
    const resaved = fs.readFileSync(output);
    expect(resaved.equals(sealed)).toBe(false);
    expect(await check(resaved)).toMatchObject({
      verdict: 'same-pages',
      office: { name: OFFICE },
      contract: { name: 'Hyresavtal Storgatan 1' },
      seal: { is_valid: false },
    });
    // Saved again with a page changed: the seal is the office's, but it no longer holds.
    const stamped = path.join(dir, 'stamped.pdf');
    fs.writeFileSync(stamped, await stampRentWaived(sealed));
    expect(run('qpdf', [stamped, output]).status).toBe(0);
    expect(await check(fs.readFileSync(output))).toMatchObject({ verdict: 'broken', contract: null });
  });

  it('damaged: one hex digit of the seal container flipped; what it seals is intact', async () => {
    const [[, start]] = byteRangesOf(sealed) as [number[]];
    const damaged = Buffer.from(sealed);
    const at = start! + 1 + 40; // inside the CMS's DER, not its zero padding
    damaged[at] = damaged[at] === 0x30 ? 0x31 : 0x30;
    expect(await check(damaged)).toMatchObject({
      verdict: 'damaged',
      office: { name: OFFICE },
      contract: { name: 'Hyresavtal Storgatan 1' },
      seal: { is_valid: false },
    });
  });

  it('not-sealed-here and not-pdf name the office too', async () => {
    expect(await check(await makePdf({ pages: 1 }))).toMatchObject({
      verdict: 'not-sealed-here',
      office: { name: OFFICE },
    });
    expect(await check(Buffer.from('not a pdf'))).toMatchObject({ verdict: 'not-pdf', office: { name: OFFICE } });
  });
});

/** The TimeStampToken of a TimeStampResp (RFC 3161 2.4.2): the SEQUENCE after the status. */
function tokenOf(reply: Buffer): Buffer {
  const lengthAt = (at: number): [number, number] => {
    const first = reply[at + 1]!;
    if (first < 0x80) return [2, first];
    const count = first & 0x7f;
    return [2 + count, reply.subarray(at + 2, at + 2 + count).reduce((sum, byte) => sum * 256 + byte, 0)];
  };
  const [outerHeader] = lengthAt(0);
  const [statusHeader, statusLength] = lengthAt(outerHeader);
  const tokenAt = outerHeader + statusHeader + statusLength;
  const [tokenHeader, tokenLength] = lengthAt(tokenAt);
  return reply.subarray(tokenAt, tokenAt + tokenHeader + tokenLength);
}
