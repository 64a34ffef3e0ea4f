import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  byteRangeData,
  byteRangesOf,
  download,
  dumpSignatures,
  pdfsigBlocks,
  sealTimestampParts,
  signedContract,
  trimDer,
  waitForLtvStatus,
  waitForTimestampStatus,
} from '../helpers/evidence';
import { run } from '../helpers/pdf-tools';
import { rawSql } from '../../server/db/raw-sql';
import { stampRentWaived } from '../helpers/tamper-pdf';
import { checkUpdatesAfterSeal } from '../../server/pdf/check-updates-after-seal';
import { makeTempDir } from '../helpers/server';
import { signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

const VALID = 'Signature Validation: Signature is Valid.';

describe('RFC 3161 timestamps against a real timestamp authority (openssl ts)', () => {
  let tsa: TsaServer;
  let env: SigningEnv;
  let dir: string;
  beforeAll(async () => {
    tsa = await startTsaServer();
    env = await startSigningEnv({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5], logLevel: 'info' });
    dir = makeTempDir('signdesk-ts-');
  });
  afterAll(async () => {
    await env?.close();
    await tsa?.close();
  });

  const write = (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  /** `openssl ts -verify` of a token (DER) over data, trusting only the test authority's root. */
  const tsVerify = (token: Buffer, data: Buffer, name: string) =>
    run('openssl', [
      'ts',
      '-verify',
      '-in',
      write(`${name}.tst`, token),
      '-token_in',
      '-data',
      write(`${name}.data`, data),
      '-CAfile',
      tsa.caFile,
      '-untrusted',
      tsa.certFile,
    ]);

  it('authority up at sealing: the seal carries a signature timestamp (PAdES B-T) that openssl verifies', async () => {
    const { t } = env;
    const contract = await signedContract(t);
    const body = await waitForTimestampStatus(t, contract.self, 'signature');
    expect(body.timestamp_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Then the validation data and the archive timestamp follow (long-term-validation.test.ts has their details).
    await waitForLtvStatus(t, contract.self, 'done');

    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const file = write('up.pdf', pdf);
    const [seal, archive] = pdfsigBlocks(file);
    expect(seal).toContain(VALID);
    expect(archive).toContain('Total document signed');
    expect(seal).toContain('Signature Type: ETSI.CAdES.detached');

    // The token is in the seal's CMS as id-aa-signatureTimeStampToken, over the signature value.
    const [cms] = dumpSignatures(file);
    const { signatureValue, token } = sealTimestampParts(trimDer(cms!));
    expect(token).toBeDefined();
    const verified = tsVerify(token!, signatureValue, 'up');
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');
    // A token over anything else fails: the check is real.
    const wrong = tsVerify(token!, Buffer.from(signatureValue).fill(1), 'up-wrong');
    expect(wrong.stdout + wrong.stderr).toContain('Verification: FAILED');

    const log = (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[];
    expect(log.slice(0, 2)).toMatchObject([
      { event: 'contract.timestamped', details: { kind: 'archive' } },
      {
        event: 'contract.timestamped',
        details: { kind: 'signature', clock_offset_s: expect.stringMatching(/^-?[0-2]$/) },
      },
    ]);
    const settings = await t.api('GET', '/api/settings/timestamps');
    expect(settings.body).toMatchObject({
      tsa_url: tsa.url,
      source: 'environment',
      is_clock_off: false,
      pending_count: 0,
    });
  }, 180_000);

  it('authority down at sealing, up later: signing completes, the contract is "timestamp pending", then a document timestamp is appended', async () => {
    const { t } = env;
    tsa.down();
    const contract = await signedContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    const pending = await t.api('GET', contract.self);
    expect(pending.body).toMatchObject({ is_signed: true, timestamp_status: 'pending', timestamp_time: null });
    const before = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    expect(pdfsigBlocks(write('pending.pdf', before))).toHaveLength(1);
    const settings = await t.api('GET', '/api/settings/timestamps');
    expect(settings.body.pending_count).toBeGreaterThanOrEqual(1);
    // The job keeps asking while the authority is down.
    const asked = tsa.queries();
    await vi.waitFor(() => expect(tsa.queries()).toBeGreaterThan(asked + 1), { timeout: 15_000, interval: 50 });
    expect((await t.api('GET', contract.self)).body.timestamp_status).toBe('pending');

    tsa.up();
    await waitForTimestampStatus(t, contract.self, 'document');
    await waitForLtvStatus(t, contract.self, 'done');
    const after = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);

    const file = write('document.pdf', after);
    const [seal, stamp, archive] = pdfsigBlocks(file);
    expect(seal).toContain(VALID);
    expect(seal).toContain('Not total document signed');
    expect(stamp).toContain('Signer Certificate Common Name: Test Timestamp Authority');
    expect(archive).toContain('Total document signed');
    expect(stamp).toMatch(/Signature Field Name: SignDesk timestamp \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\n/);
    expect(run('qpdf', ['--check', file]).status).toBe(0);

    // The update adds only the timestamp's field, its widget in the last page's /Annots and the
    // AcroForm entry: no page's content changes (the structural rule of what PAdES allows after the seal).
    const rule = await checkUpdatesAfterSeal(after, before.length);
    expect(rule).toMatchObject({ isAllowed: true, problems: [] });
    expect(rule.updates).toHaveLength(2);
    expect(rule.updates[0]).toMatchObject({ addedTimestamps: 1, changesValidationData: false });
    expect(rule.updates[1]).toMatchObject({ addedTimestamps: 1, changesValidationData: true });
    const changed = rule.updates[0]!.changes.filter((line) => !line.endsWith(': new'));
    expect(changed).toHaveLength(2);
    expect(changed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/: page \d+$/),
        expect.stringMatching(/: the interactive form \(AcroForm\)$|: the document catalog$/),
      ]),
    );

    // The document timestamp's token is an RFC 3161 token over its byte range: the whole file as it was but the token.
    const [, range, archiveRange] = byteRangesOf(after);
    expect(range![2]! + range![3]!).toBe(rule.updates[0]!.end);
    expect(archiveRange![2]! + archiveRange![3]!).toBe(after.length);
    const [, dumped] = dumpSignatures(file);
    const verified = tsVerify(trimDer(dumped!), byteRangeData(after, range!), 'document');
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');

    // The parties' download link serves the timestamped file too.
    const party = signingClient(contract.parties[0]!.contract_url);
    const served = await party.signedPdf();
    expect(Buffer.compare(served.body as Buffer, after)).toBe(0);

    const events = ((await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[]).map(
      (entry) => entry.event,
    );
    expect(events.slice(0, 4)).toEqual([
      'contract.timestamped',
      'contract.timestamped',
      'contract.timestamp_pending',
      'contract.signed',
    ]);
  }, 180_000);

  it('the timestamp after an outage and the archive timestamp within one second get field names no other field has', async () => {
    const { t } = env;
    // The clock stands still: the first try fails, and its retry is due only when the clock moves.
    const at = Date.now();
    t.clock.set(at);
    try {
      tsa.down();
      const asked = tsa.queries();
      const contract = await signedContract(t, [{ name: 'Dag Lind', email: 'dag@example.test' }]);
      await vi.waitFor(() => expect(tsa.queries()).toBeGreaterThan(asked + 1), { timeout: 15_000, interval: 50 });
      tsa.up();
      // Both timestamps are now made at this one moment: the document timestamp, then the archive timestamp.
      t.clock.set(at + 1_000);
      await waitForTimestampStatus(t, contract.self, 'document');
      await waitForLtvStatus(t, contract.self, 'done');
      const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
      const file = write('one-second.pdf', pdf);
      // Kept for an independent validator to judge (test-results/ is not committed).
      fs.mkdirSync(path.resolve('test-results/evidence'), { recursive: true });
      fs.copyFileSync(file, path.resolve('test-results/evidence/one-second.pdf'));
      fs.copyFileSync(tsa.caFile, path.resolve('test-results/evidence/one-second-tsa-root.pem'));
      const names = [...run('pdfsig', [file]).stdout.matchAll(/Signature Field Name: (.*)/g)].map((match) => match[1]);
      const second = new Date(at + 1_000).toISOString().replace(/\.\d+Z$/, 'Z');
      expect(names.slice(1)).toEqual([`SignDesk timestamp ${second}`, `SignDesk timestamp ${second} 2`]);
      expect(new Set(names).size).toBe(3);
    } finally {
      t.clock.reset();
    }
  }, 180_000);

  it('the timestamp after an outage is not appended to a signed PDF an insider changed meanwhile (the same guard as the archive timestamp)', async () => {
    const { t } = env;
    tsa.down();
    const asked = tsa.queries();
    const contract = await signedContract(t, [{ name: 'Eva Holm', email: 'eva@example.test' }]);
    await vi.waitFor(() => expect(tsa.queries()).toBeGreaterThan(asked), { timeout: 15_000, interval: 50 });
    // The insider stamps "RENT WAIVED" on the stored PDF (a well-formed update: the seal's own range still verifies).
    const sealed = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const forged = await stampRentWaived(sealed);
    const id = Number(contract.self.split('/').at(-1));
    await rawSql(t.server.ctx.db).run(
      // In the row itself on either engine (PostgreSQL would otherwise read the file's chunks).
      'UPDATE stored_files SET data = ?, size = ?, in_files = FALSE WHERE id = (SELECT signed_file_id FROM contracts WHERE id = ?)',
      forged,
      forged.length,
      id,
    );
    // An attempt under way may have read the file before the insider: the one after it reads the forgery.
    const queried = tsa.queries();
    await vi.waitFor(() => expect(tsa.queries()).toBeGreaterThanOrEqual(queried + 2), {
      timeout: 15_000,
      interval: 50,
    });
    const replies = tsa.replies();
    tsa.up();
    // The authority answers, and the stamped file is refused: the authority's time never covers the forgery.
    await vi.waitFor(() => expect(tsa.replies()).toBeGreaterThan(replies), { timeout: 30_000, interval: 50 });
    const logFile = path.join(t.dataDir, 'logs', 'signdesk.log');
    await vi.waitFor(
      () => {
        t.server.ctx.logger.flush();
        expect(fs.readFileSync(logFile, 'utf8')).toMatch(
          new RegExp(
            `"contractId":${id},.*it changes /(Contents|Resources) of page 1.*the signed PDF was NOT replaced`,
          ),
        );
      },
      { timeout: 30_000, interval: 100 },
    );
    expect((await t.api('GET', contract.self)).body).toMatchObject({
      timestamp_status: 'pending',
      timestamp_time: null,
    });
    const served = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    expect(served.equals(forged)).toBe(true);
    expect(pdfsigBlocks(write('forged.pdf', served))).toHaveLength(1);
  }, 180_000);

  it("warns (log and settings) when the PC's clock is more than a minute off the authority's", async () => {
    const { t } = env;
    const ctx = t.server.ctx;
    t.clock.shift(-5 * 60_000);
    try {
      const contract = await signedContract(t, [{ name: 'Cai Lund', email: 'cai@example.test' }]);
      await waitForTimestampStatus(t, contract.self, 'signature');
      const log = (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[];
      const offset = Number(log.find((entry) => entry.event === 'contract.timestamped').details.clock_offset_s);
      expect(offset).toBeGreaterThanOrEqual(298);
      expect(offset).toBeLessThanOrEqual(302);
    } finally {
      t.clock.reset();
    }
    const settings = await t.api('GET', '/api/settings/timestamps');
    expect(settings.body).toMatchObject({ is_clock_off: true });
    expect(settings.body.last_clock_offset_seconds).toBeGreaterThanOrEqual(298);
    ctx.logger.flush();
    const logFile = path.join(t.dataDir, 'logs', 'signdesk.log');
    await vi.waitFor(
      () =>
        expect(fs.readFileSync(logFile, 'utf8')).toMatch(
          /"level":40,.*"offsetSeconds":(29[89]|30[0-2]).*clock differs from the timestamp authority/,
        ),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
    // The admin's test of the authority says so too.
    t.clock.shift(3 * 60_000);
    try {
      const test = await t.api('POST', '/api/settings/timestamps/test');
      expect(test.body).toMatchObject({
        ok: true,
        is_clock_off: true,
        authority: 'O=Test Trust Services, CN=Test Timestamp Authority',
      });
      expect(test.body.clock_offset_seconds).toBeLessThanOrEqual(-178);
    } finally {
      t.clock.reset();
    }
  }, 180_000);
});
