import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkUpdatesAfterSeal } from '../../server/pdf/check-updates-after-seal';
import {
  byteRangeData,
  byteRangesOf,
  download,
  dumpSignatures,
  pdfsigBlocks,
  signedContract,
  trimDer,
} from '../helpers/evidence';
import { run } from '../helpers/pdf-tools';
import { makeTempDir, type TestServer } from '../helpers/server';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTestPki, type TestPki } from '../helpers/test-pki';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

const VALID = 'Signature Validation: Signature is Valid.';

async function waitFor(t: TestServer, contractPath: string, check: (body: Record<string, any>) => boolean) {
  let body: Record<string, any> = {};
  await vi.waitFor(
    async () => {
      body = (await t.api('GET', contractPath)).body;
      if (!check(body))
        throw new Error(
          `not yet: ${JSON.stringify({ ts: body.timestamp_status, ltv: body.ltv_status, error: body.ltv_error })}`,
        );
    },
    { timeout: 60_000, interval: 100 },
  );
  return body;
}

/** The DSS of a PDF, read with pdf-lib here in the test: each list's streams decoded, and the VRI keys. */
async function readDss(pdf: Buffer) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const streams = (key: string) =>
    (dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? []).map((ref) =>
      Buffer.from(decodePDFRawStream(doc.context.lookup(ref) as PDFRawStream).decode()),
    );
  const vri = dss.lookupMaybe(PDFName.of('VRI'), PDFDict);
  return {
    certs: streams('Certs').map((der) => new X509Certificate(der)),
    crls: streams('CRLs'),
    ocsps: streams('OCSPs'),
    vriKeys: vri ? vri.keys().map((key) => key.decodeText()) : [],
  };
}

describe('PAdES B-LT and B-LTA against a real PKI (CRL and OCSP served in the test)', () => {
  let pki: TestPki;
  let tsa: TsaServer;
  let env: SigningEnv;
  let dir: string;
  beforeAll(async () => {
    pki = await startTestPki();
    tsa = await startTsaServer({ authority: pki.authority });
    env = await startSigningEnv({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5] });
    dir = makeTempDir('signdesk-ltv-');
  });
  afterAll(async () => {
    await env?.close();
    await tsa?.close();
    await pki?.close();
  });

  it("a sealed contract gets a DSS with the chains' certificates, the intermediate's CRL and the TSA's OCSP response, and an archive timestamp", async () => {
    const { t } = env;
    const contract = await signedContract(t);
    const body = await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    expect(body).toMatchObject({ timestamp_status: 'signature', ltv_error: null });
    expect(body.archive_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.archive_expire_time).toMatch(/^\d{4}-\d{2}-\d{2} /);

    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const file = path.join(dir, 'lta.pdf');
    fs.writeFileSync(file, pdf);
    const [sealBlock, archiveBlock] = pdfsigBlocks(file);
    expect(sealBlock).toContain(VALID);
    expect(archiveBlock).toContain('Signer Certificate Common Name: Test PKI Timestamp Authority');
    expect(archiveBlock).toContain('Total document signed');

    const [sealRange, archiveRange] = byteRangesOf(pdf);
    const sealedLength = sealRange![2]! + sealRange![3]!;
    const rule = await checkUpdatesAfterSeal(pdf, sealedLength);
    expect(rule.problems).toEqual([]);
    expect(rule.updates.map((u) => [u.addedTimestamps, u.changesValidationData])).toEqual([[1, true]]);

    // The DSS carries the chains, the CRL served here and the OCSP responder's answer about the TSA certificate.
    const dss = await readDss(pdf);
    const tsaCert = new X509Certificate(fs.readFileSync(pki.authority.certFile));
    const intermediate = new X509Certificate(fs.readFileSync(pki.intermediateFile));
    const fingerprints = dss.certs.map((cert) => cert.fingerprint256);
    expect(fingerprints).toEqual(expect.arrayContaining([tsaCert.fingerprint256, intermediate.fingerprint256]));
    expect(dss.certs.some((cert) => cert.subject.includes('SignDesk') || cert.checkIssued(cert))).toBe(true);
    // The TSA certificate's CRL (the intermediate's) and the intermediate's (the root's), byte for byte as served.
    expect(dss.crls).toHaveLength(2);
    expect(dss.crls.some((crl) => crl.equals(pki.intermediateCrl))).toBe(true);
    expect(dss.crls.some((crl) => crl.equals(pki.rootCrl))).toBe(true);
    const issuers = dss.crls.map((der) =>
      pkijs.CertificateRevocationList.fromBER(new Uint8Array(der)).issuer.typesAndValues.map(
        (item) => item.value.valueBlock.value as string,
      ),
    );
    expect(issuers.flat()).toEqual(expect.arrayContaining(['Test PKI Intermediate', 'Test PKI Root']));
    expect(dss.ocsps).toHaveLength(1);
    const ocsp = pkijs.OCSPResponse.fromBER(new Uint8Array(dss.ocsps[0]!));
    expect(ocsp.responseStatus.valueBlock.valueDec).toBe(0);
    const basic = pkijs.BasicOCSPResponse.fromBER(ocsp.responseBytes!.response.valueBlock.valueHexView);
    const single = basic.tbsResponseData.responses[0]!;
    expect(Buffer.from(single.certID.serialNumber.valueBlock.valueHexView).toString('hex').toUpperCase()).toBe(
      tsaCert.serialNumber.toUpperCase(),
    );
    expect((single.certStatus as { idBlock: { tagNumber: number } }).idBlock.tagNumber).toBe(0);
    expect(pki.requests().ocsp).toBeGreaterThanOrEqual(1);

    // The VRI is keyed by the SHA-1 of the seal's /Contents (as written, padding included).
    const sealContents = Buffer.from(pdf.subarray(sealRange![1]! + 1, sealRange![2]! - 1).toString('latin1'), 'hex');
    expect(dss.vriKeys).toContain(createHash('sha1').update(sealContents).digest('hex').toUpperCase());

    // The archive timestamp covers everything, the DSS included, and verifies against the PKI's root.
    expect(archiveRange![2]! + archiveRange![3]!).toBe(pdf.length);
    const [, token] = dumpSignatures(file);
    fs.writeFileSync(`${file}.tst`, trimDer(token!));
    fs.writeFileSync(`${file}.data`, byteRangeData(pdf, archiveRange!));
    // prettier-ignore
    const verified = run('openssl', ['ts', '-verify', '-in', `${file}.tst`, '-token_in', '-data', `${file}.data`,
      '-CAfile', pki.rootFile, '-untrusted', pki.authority.certsFile]);
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');
  }, 180_000);

  it('with the CA\'s server down the contract is "ltv pending" with the cause, and is extended once it is back', async () => {
    const { t } = env;
    pki.down();
    const contract = await signedContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    const pending = await waitFor(t, contract.self, (b) => b.ltv_status === 'pending' && b.ltv_error !== null);
    expect(pending.timestamp_status).toBe('signature');
    expect(pending.ltv_error).toMatch(/(CRL|OCSP).*HTTP 503/);
    pki.up();
    await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    expect((await readDss(pdf)).crls).toHaveLength(2);
  }, 180_000);

  it('authority down at sealing: the document timestamp, then the DSS and the archive timestamp; the seal stays valid', async () => {
    const { t } = env;
    tsa.down();
    const contract = await signedContract(t, [{ name: 'Cai Lund', email: 'cai@example.test' }]);
    const sealed = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    tsa.up();
    await waitFor(t, contract.self, (b) => b.timestamp_status === 'document' && b.ltv_status === 'done');
    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    expect(pdf.subarray(0, sealed.length).equals(sealed)).toBe(true);
    const file = path.join(dir, 'outage-lta.pdf');
    fs.writeFileSync(file, pdf);
    const blocks = pdfsigBlocks(file);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toContain(VALID);
    const rule = await checkUpdatesAfterSeal(pdf, sealed.length);
    expect(rule.problems).toEqual([]);
    expect(rule.updates.map((u) => [u.addedTimestamps, u.changesValidationData])).toEqual([
      [1, false],
      [1, true],
    ]);
    expect(run('qpdf', ['--check', file]).status).toBe(0);
  }, 180_000);

  it("renews the archive timestamps on an admin's demand and in the daily check, with progress in the API", async () => {
    const { t } = env;
    const contract = await signedContract(t, [{ name: 'Dag Lind', email: 'dag@example.test' }]);
    await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    const before = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const stamps = (pdf: Buffer) => byteRangesOf(pdf).length;

    const started = await t.api('POST', '/api/settings/timestamps/archive_renewal');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ reason: 'admin', renew_before_days: 365 });
    expect(started.body.total).toBeGreaterThanOrEqual(1);
    await vi.waitFor(
      async () => {
        const progress = (await t.api('GET', '/api/settings/timestamps/archive_renewal')).body;
        expect(progress).toMatchObject({ pending: 0, renewed: progress.total, errors: [] });
      },
      { timeout: 60_000, interval: 200 },
    );
    const renewed = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    expect(renewed.subarray(0, before.length).equals(before)).toBe(true);
    expect(stamps(renewed)).toBe(stamps(before) + 1);
    const [sealRange] = byteRangesOf(renewed);
    const rule = await checkUpdatesAfterSeal(renewed, sealRange![2]! + sealRange![3]!);
    expect(rule.problems).toEqual([]);
    // The new archive timestamp's authority chain got fresh revocation data.
    expect((await readDss(renewed)).ocsps.length).toBeGreaterThan((await readDss(before)).ocsps.length);

    // A month on, the test authority's certificate (valid for days) expires within the year: the daily check renews.
    t.clock.shift(31 * 86_400_000);
    try {
      await vi.waitFor(
        async () => {
          const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
          expect(stamps(pdf)).toBe(stamps(renewed) + 1);
        },
        { timeout: 60_000, interval: 200 },
      );
      const progress = (await t.api('GET', '/api/settings/timestamps/archive_renewal')).body;
      expect(progress).toMatchObject({ reason: 'scheduled' });
      expect(progress.next_check_time).not.toBeNull();
    } finally {
      t.clock.reset();
    }
  }, 180_000);
});
