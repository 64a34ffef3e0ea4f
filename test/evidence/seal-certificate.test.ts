import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, signedContract } from '../helpers/evidence';
import { cli, makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

async function verdictOf(t: TestServer, pdf: Buffer): Promise<string> {
  const answer = await fetch(`${t.url}/verify/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: pdf,
  });
  return ((await answer.json()) as { verdict: string }).verdict;
}

const certificateOf = async (t: TestServer) => (await t.api('GET', '/api/settings/signing_certificate')).body;
const sealedPdf = async (t: TestServer) => {
  const contract = await signedContract(t);
  return (await download(t, `${contract.self}/signed_pdf`)).bytes;
};

describe('the seal certificate names the office, is renewed in time, and old seals keep verifying', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an office set up by the CLI gets a certificate with its name once the name is set, and old seals stay its own', async () => {
    const before = await sealedPdf(t);
    const anonymous = await certificateOf(t);
    expect(anonymous.subject).toBe('CN=SignDesk document seal');

    expect((await t.api('PUT', '/api/settings/general', { body: { office_name: 'Advokatbyrån Ek AB' } })).status).toBe(
      200,
    );
    const named = await certificateOf(t);
    expect(named.subject).toBe('O=Advokatbyrån Ek AB, CN=SignDesk Advokatbyrån Ek AB document seal');
    expect(named.fingerprint).not.toBe(anonymous.fingerprint);
    const after = await sealedPdf(t);
    // The seal's certificate (in the CMS, hex in /Contents) carries the name; the one before did not.
    const nameHex = Buffer.from('SignDesk Advokatbyrån Ek AB document seal', 'utf8').toString('hex').toUpperCase();
    expect(after.includes(nameHex)).toBe(true);
    expect(before.includes(nameHex)).toBe(false);

    // Both seals are this office's; both certificates are kept.
    expect(await verdictOf(t, before)).toBe('intact');
    expect(await verdictOf(t, after)).toBe('intact');
    // Kept with the office's keys: DATA_DIR/keys/seal-certificates, or sealed rows on PostgreSQL.
    const kept = await t.server.ctx.keys.list();
    expect(kept).toEqual(
      expect.arrayContaining(
        [anonymous.fingerprint, named.fingerprint].map(
          (fingerprint: string) => `seal-certificates/${fingerprint.replaceAll(':', '').toLowerCase()}.pem`,
        ),
      ),
    );
    const office = (await t.api('GET', '/api/office_log')).body as Array<{ event: string; details: any }>;
    expect(office.find((entry) => entry.event === 'seal_certificate.renewed')?.details).toMatchObject({
      subject: named.subject,
      previous_fingerprint: anonymous.fingerprint,
    });

    // Within 30 days of its expiry, the next seal comes with a new certificate; the old seals still verify.
    t.clock.shift(Date.parse(named.not_after.replace(' ', 'T')) - Date.now() - 20 * 24 * 3600 * 1000);
    const late = await sealedPdf(t);
    const renewed = await certificateOf(t);
    expect(renewed.fingerprint).not.toBe(named.fingerprint);
    expect(renewed.subject).toBe(named.subject);
    expect(Date.parse(renewed.not_after.replace(' ', 'T')) - t.clock.now()).toBeGreaterThan(9 * YEAR_MS);
    for (const pdf of [before, after, late]) expect(await verdictOf(t, pdf)).toBe('intact');
    t.clock.reset();
  }, 180_000);

  it('`user create --office-name` names the office and its seal on the command line', async () => {
    const dataDir = makeTempDir();
    const made = await cli(dataDir, [
      'user',
      'create',
      '--username',
      'admin',
      '--password',
      'correct horse',
      '--email',
      'admin@office.test',
      '--admin',
      '--office-name',
      'Kontoret i Lund',
    ]);
    expect(made.code, made.err.join('\n')).toBe(0);
    const server = await startTestServer({}, dataDir);
    try {
      expect((await certificateOf(server)).subject).toBe(
        'O=Kontoret i Lund, CN=SignDesk Kontoret i Lund document seal',
      );
      expect((await server.api('GET', '/api/settings/general')).body.office_name).toBe('Kontoret i Lund');
    } finally {
      await server.close();
    }
    const refused = await cli(dataDir, [
      'user',
      'create',
      '--username',
      'b',
      '--password',
      'correct horse 2',
      '--email',
      'b@office.test',
      '--office-name',
      ' ',
    ]);
    expect(refused.code).not.toBe(0);
  }, 120_000);
});

describe("the PC's clock is compared with the authority's at every timestamp", () => {
  let tsa: TsaServer;
  let t: TestServer;
  beforeAll(async () => {
    tsa = await startTsaServer();
    t = await startTestServer({ tsaUrl: tsa.url });
  });
  afterAll(async () => {
    await t?.close();
    await tsa?.close();
  });

  it('a clock more than a minute off is shown at once, and right again after the next timestamp', async () => {
    const settings = () => t.api('GET', '/api/settings/timestamps');
    t.clock.shift(5 * 60_000);
    expect((await t.api('POST', '/api/settings/timestamps/test')).body.ok).toBe(true);
    const off = (await settings()).body;
    expect(off.is_clock_off).toBe(true);
    expect(off.last_clock_offset_seconds).toBeLessThanOrEqual(-295);
    expect(off.last_clock_offset_seconds).toBeGreaterThanOrEqual(-310);

    t.clock.reset();
    expect((await t.api('POST', '/api/settings/timestamps/test')).body.ok).toBe(true);
    expect((await settings()).body).toMatchObject({ is_clock_off: false });
  }, 60_000);
});
