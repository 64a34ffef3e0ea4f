import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { byteRangesOf, download, signedContract } from '../helpers/evidence';
import { expectProblem } from '../helpers/problems';
import type { TestServer } from '../helpers/server';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTestPki, type TestPki, type TestPkiOptions } from '../helpers/test-pki';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

type Authority = { pki: TestPki; tsa: TsaServer };

async function waitFor(t: TestServer, contractPath: string, check: (body: Record<string, any>) => boolean) {
  let body: Record<string, any> = {};
  await vi.waitFor(
    async () => {
      body = (await t.api('GET', contractPath)).body;
      if (!check(body)) throw new Error(`not yet: ${JSON.stringify({ ltv: body.ltv_status, error: body.ltv_error })}`);
    },
    { timeout: 60_000, interval: 100 },
  );
  return body;
}

/** The subjects of the DSS's certificates and the count of its OCSP answers and CRLs, read here with pdf-lib. */
async function dssOf(pdf: Buffer) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const streams = (key: string) =>
    (dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? []).map((ref) =>
      Buffer.from(decodePDFRawStream(doc.context.lookup(ref) as PDFRawStream).decode()),
    );
  return {
    subjects: streams('Certs').map((der) => new X509Certificate(der).subject.split('\n').at(-1)),
    ocsps: streams('OCSPs').length,
    crls: streams('CRLs').length,
  };
}

/** Keeps a PDF and its PKI's root for an independent validator (test-results/ is not committed). */
function keep(name: string, pdf: Buffer, pki: TestPki): void {
  const dir = path.resolve('test-results/evidence');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.pdf`), pdf);
  fs.copyFileSync(pki.rootFile, path.join(dir, `${name}-root.pem`));
}

/**
 * Long-term validation with the kinds of timestamp authority the review met (2026-12-07, F2
 * and F3): tokens that leave out their issuers, certificates that publish no revocation source,
 * and a renewal while the CA's servers are down. Each authority is a real openssl PKI and TSA.
 */
describe('long-term validation with authorities that leave out their issuers', () => {
  let env: SigningEnv;
  const authorities: Authority[] = [];
  beforeAll(async () => {
    env = await startSigningEnv({ tsaRetryScheduleS: [0.3, 0.5] });
  });
  afterAll(async () => {
    await env?.close();
    for (const { pki, tsa } of authorities) {
      await tsa.close();
      await pki.close();
    }
  });

  /** A new PKI and TSA, made the office's authority. */
  const useAuthority = async (options: TestPkiOptions): Promise<Authority> => {
    const pki = await startTestPki(options);
    const tsa = await startTsaServer({ authority: pki.authority });
    authorities.push({ pki, tsa });
    expect((await env.t.api('PUT', '/api/settings/timestamps', { body: { tsa_url: tsa.url } })).status).toBe(200);
    return { pki, tsa };
  };

  it("tokens that carry only the authority's own certificate: its issuers come from their CA Issuers addresses", async () => {
    const { t } = env;
    const { pki } = await useAuthority({ tokenCerts: 'tsa', intermediateRevocation: 'crl+ocsp', caIssuers: true });
    const contract = await signedContract(t);
    const body = await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    expect(body).toMatchObject({ ltv_error: null, ltv_note: null });
    expect(pki.requests().issuer).toBeGreaterThanOrEqual(2);
    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    keep('ltv-ca-issuers', pdf, pki);
    const dss = await dssOf(pdf);
    expect(dss.subjects).toEqual(
      expect.arrayContaining(['CN=Test PKI Timestamp Authority', 'CN=Test PKI Intermediate', 'CN=Test PKI Root']),
    );
    // The TSA's OCSP answer (asked of the intermediate) and the intermediate's (asked of the root).
    expect(dss.ocsps).toBe(2);
  }, 180_000);

  it('an issuer found nowhere waits with a cause that says what to add; the trusted root added in the settings completes it', async () => {
    const { t } = env;
    const { pki } = await useAuthority({ intermediateRevocation: 'ocsp' });
    const contract = await signedContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    const pending = await waitFor(t, contract.self, (b) => b.ltv_status === 'pending' && b.ltv_error !== null);
    expect(pending.ltv_error).toContain('the issuer of "O=Test PKI, CN=Test PKI Intermediate" is not in the token');
    expect(pending.ltv_error).toContain('add the authority');

    // Refused, and nothing changes: not PEM, not a CA, two at once.
    const roots = '/api/settings/timestamps/trusted_roots';
    const bad = async (certificate: string) => t.api('POST', roots, { body: { certificate } });
    expectProblem(await bad('hello'), 400, 'validation-failed');
    expectProblem(await bad(fs.readFileSync(pki.authority.certFile, 'utf8')), 400, 'validation-failed');
    const two = fs.readFileSync(pki.rootFile, 'utf8') + fs.readFileSync(pki.intermediateFile, 'utf8');
    expectProblem(await bad(two), 400, 'validation-failed');
    expect((await t.api('GET', roots)).body).toEqual({ roots: [] });

    const added = await t.api('POST', roots, { body: { certificate: fs.readFileSync(pki.rootFile, 'utf8') } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      subject: 'O=Test PKI, CN=Test PKI Root',
      is_self_signed: true,
      is_expired: false,
    });
    expectProblem(
      await t.api('POST', roots, { body: { certificate: fs.readFileSync(pki.rootFile, 'utf8') } }),
      409,
      'conflict',
    );
    await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    const dss = await dssOf((await download(t, `${contract.self}/signed_pdf`)).bytes);
    expect(dss.subjects).toContain('CN=Test PKI Root');
    expect(dss).toMatchObject({ ocsps: 2, crls: 1 });
    const log = (await t.api('GET', '/api/office_log?per_page=100')).body as any[];
    expect(log.find((entry) => entry.subject === roots)?.details).toMatchObject({ fields: 'trusted_roots' });

    expect((await t.api('DELETE', added.body.self)).status).toBe(204);
    expect((await t.api('GET', roots)).body).toEqual({ roots: [] });
    expectProblem(await t.api('DELETE', added.body.self), 404, 'not-found');
  }, 180_000);

  it('a certificate that publishes no revocation source: its chain goes into the DSS, and the contract says so', async () => {
    const { t } = env;
    const { pki } = await useAuthority({ tsaRevocation: false });
    const contract = await signedContract(t, [{ name: 'Cai Lund', email: 'cai@example.test' }]);
    const body = await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    expect(body.ltv_error).toBeNull();
    expect(body.ltv_note).toBe(
      'no revocation source: "O=Test PKI, CN=Test PKI Timestamp Authority" names no OCSP responder and no CRL; its certificates are in the PDF',
    );
    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    keep('ltv-no-revocation-source', pdf, pki);
    const dss = await dssOf(pdf);
    expect(dss.subjects).toEqual(
      expect.arrayContaining(['CN=Test PKI Timestamp Authority', 'CN=Test PKI Intermediate']),
    );
    // The intermediate's CRL (from the root) is there; nothing for the authority's own certificate.
    expect(dss).toMatchObject({ ocsps: 0, crls: 1 });
    const log = (await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[];
    expect(log[0]).toMatchObject({ event: 'contract.timestamped', details: { kind: 'archive' } });
    expect(log[0].details.revocation).toContain('no revocation source');
  }, 180_000);

  it('an archive renewal with the CA down renews nothing and says why; once the CA is back it renews with fresh data', async () => {
    const { t } = env;
    const { pki } = await useAuthority({});
    const contract = await signedContract(t, [{ name: 'Dag Lind', email: 'dag@example.test' }]);
    await waitFor(t, contract.self, (b) => b.ltv_status === 'done');
    const before = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    pki.down();
    const started = await t.api('POST', '/api/settings/timestamps/archive_renewal');
    expect(started.status).toBe(202);
    const id = contract.self;
    const waiting = await waitFor(t, id, (b) => b.ltv_status === 'done' || b.ltv_error !== null);
    // Not "renewed" from what an older signature failed to fetch: waiting, with the CA's answer.
    expect(waiting).toMatchObject({ ltv_status: 'pending', ltv_note: null });
    expect(waiting.ltv_error).toMatch(/HTTP 503/);
    const progress = (await t.api('GET', '/api/settings/timestamps/archive_renewal')).body;
    expect(progress.renewed).toBeLessThan(progress.total);
    expect(progress.errors).toContainEqual({ contract: id, error: waiting.ltv_error });
    expect((await download(t, `${id}/signed_pdf`)).bytes.equals(before)).toBe(true);

    pki.up();
    await waitFor(t, id, (b) => b.ltv_status === 'done');
    const renewed = (await download(t, `${id}/signed_pdf`)).bytes;
    keep('ltv-renewed', renewed, pki);
    expect(byteRangesOf(renewed)).toHaveLength(byteRangesOf(before).length + 1);
    expect((await dssOf(renewed)).ocsps).toBeGreaterThan((await dssOf(before)).ocsps);
  }, 180_000);
});
