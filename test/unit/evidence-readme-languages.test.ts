import { describe, expect, it } from 'vitest';
import { evidenceReadme, type ReadmeFacts } from '../../server/evidence/evidence-readme';
import { LANGUAGES, type Language } from '../../shared/api/enums';

const hash = (digit: string) => digit.repeat(64);
/** A package as it is after long-term validation and an archive timestamp: every part of README.txt has its words. */
const facts = (language: Language): ReadmeFacts => ({
  language,
  contractId: 7,
  contractName: 'Hyresavtal',
  madeAt: '2026-12-07T10:00:00Z',
  pdf: 'signed.pdf',
  pdfSize: 90_000,
  seal: {
    byteRange: [0, 1000, 41_000, 40_000],
    sealedLength: 81_000,
    sealedSha256: hash('a'),
    cmsLength: 20_000,
    certificateSha256Colons: 'AB:CD',
    subject: 'CN=Berg och Partners',
    signatureAt: { offset: 1200, headerLength: 4, length: 256 },
  },
  signatureTimestamp: { genTime: '2026-12-07T09:59:00Z', authority: 'CN=Test TSA' },
  documentTimestamps: [
    {
      file: 'document-timestamp-1.tst',
      byteRange: [0, 82_000, 90_000, 0],
      genTime: '2026-12-07T09:59:30Z',
      authority: 'CN=Test TSA',
      signatureIndex: 1,
      tokenLength: 4000,
    },
  ],
  chain: {
    entries: 3,
    head: { sequence: 3, hash: hash('b') },
    sealedHead: { sequence: 3, hash: hash('b') },
    isIntact: true,
  },
  hasTsaCertificate: true,
  anchors: { chain: 'activity', held: [], provenThrough: 0, entries: 3, latest: null },
  validationData: {
    certs: [{ file: 'dss/cert-1.pem', subject: 'CN=Test TSA', notAfter: '2036-12-07T00:00:00Z' }],
    crls: [
      {
        file: 'dss/crl-1.der',
        cert: 'dss/cert-1.pem',
        subject: 'CN=Test TSA',
        issuedAt: '2026-12-07T09:00:00Z',
        attime: 1_796_634_000,
        coveredBy: 'document-timestamp-1.tst',
      },
    ],
    ocsps: [
      {
        file: 'dss/ocsp-1.der',
        cert: 'dss/cert-1.pem',
        issuer: 'dss/cert-2.pem',
        subject: 'CN=Test TSA',
        issuedAt: '2026-12-07T09:00:00Z',
        attime: 1_796_634_000,
        coveredBy: null,
      },
    ],
    others: 2,
  },
});

/** The README's prose: every line but the commands, what they print and the formats' JSON, file names taken out. */
const proseOf = (readme: string) =>
  readme
    .split('\n')
    .filter((line) => !/^ {2}(\$|->) /.test(line) && !line.trimStart().startsWith('["signdesk-'))
    .map((line) => line.replace(/[\w./-]+\.(pem|der|tst|pdf|json|sha256|p7s|bin)\b/g, '').trim())
    .filter((line) => /\p{L}{4,}/u.test(line));

describe('the evidence package README in the contract’s language', () => {
  const english = evidenceReadme(facts('en'));

  it('has every step in English for an English contract, the validation data and the walk after expiry among them', () => {
    expect(english).toContain('The validation data: certificates, CRLs and OCSP answers');
    expect(english).toContain('“CN=Test TSA” led to TSA-ROOT.pem and was not revoked.');
    expect(english).toContain('document-timestamp-1.tst (step 5) covers it');
    expect(english).toContain('Further items in dss/ (2)');
    expect(english).toContain('The newest archive timestamp rests on');
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    'leaves no English sentence in %s, with the same commands',
    (language) => {
      const readme = evidenceReadme(facts(language));
      const englishLines = new Set(proseOf(english));
      expect(proseOf(readme).filter((line) => englishLines.has(line))).toEqual([]);
      const commands = (text: string) => text.split('\n').filter((line) => line.startsWith('  $ '));
      expect(commands(readme)).toEqual(commands(english));
    },
  );
});
