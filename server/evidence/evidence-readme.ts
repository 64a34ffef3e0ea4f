import type { Language } from '../../shared/api/enums';
import { translatorFor } from '../../shared/i18n/catalogues';
import { anchorReadmeLines, type AnchorFacts } from './anchors/anchor-evidence';
import type { ValidationDataFacts } from './validation-data';
import { timestampWalkLines, validationDataReadmeLines } from './validation-data-readme';
import { wrapParagraph } from './readme-text';

/** What the offline instructions need to know about one package: its files, their offsets and the values to expect. */
export type ReadmeFacts = {
  /** The contract's language: the README's words (its commands and what they print are the tools' own). */
  language?: Language;
  contractId: number;
  contractName: string;
  madeAt: string;
  pdf: string;
  pdfSize: number;
  seal: {
    byteRange: [number, number, number, number];
    sealedLength: number;
    sealedSha256: string;
    cmsLength: number;
    certificateSha256Colons: string;
    subject: string;
    /** The signature value inside seal-signature.p7s: its element's offset, header length and length. */
    signatureAt: { offset: number; headerLength: number; length: number } | null;
  };
  signatureTimestamp: { genTime: string; authority: string } | null;
  documentTimestamps: {
    file: string;
    byteRange: [number, number, number, number];
    genTime: string;
    authority: string;
    signatureIndex: number;
    tokenLength: number;
  }[];
  chain: {
    entries: number;
    head: { sequence: number; hash: string } | null;
    sealedHead: { sequence: number; hash: string } | null;
    isIntact: boolean;
  };
  hasTsaCertificate: boolean;
  /** Files parties attached to ATTACHMENT fields are in party-files/. */
  hasPartyFiles?: boolean;
  anchors: AnchorFacts;
  /** The DSS, taken out into dss/. */
  validationData: ValidationDataFacts;
};

const ZERO_HASH = '0'.repeat(64);
/**
 * The package's README.txt: how to check everything in it offline, step by step, with pdfsig,
 * openssl and sha256sum (and head, tail, cmp and grep), each command with what it must print,
 * in the contract's language. A test runs these very commands.
 */
export function evidenceReadme(facts: ReadmeFacts): string {
  const t = translatorFor(facts.language ?? 'en', 'readme');
  const auditT = translatorFor(facts.language ?? 'en', 'audit');
  const { seal, pdf } = facts;
  const [, b, c, d] = seal.byteRange;
  const lines: string[] = [];
  const add = (...text: string[]) => lines.push(...text);
  const say = (text: string, indent = '') => add(...wrapParagraph(text, indent));
  const run = (command: string, ...expected: string[]) =>
    add(`  $ ${command}`, ...expected.map((line) => `  -> ${line}`));
  const file = (name: string, what: string) => add(`  ${name.padEnd(24)}${what}`);
  let steps = 0;
  const step = (title: string) => add('', `${(steps += 1)}. ${title}`, '');
  const allOk = t('expect.allOk');
  const nothing = t('expect.nothing');

  add(t('title', { id: String(facts.contractId), name: facts.contractName }), t('made', { time: facts.madeAt }), '');
  say(t('intro'));
  add('', t('files'));
  file(pdf, t('file.pdf'));
  file('activity-log.json', t('file.log'));
  add(`  activity-chain/NNNN.json  ${t('file.chain')}`);
  file('activity-chain.sha256', t('file.chainSums'));
  file('seal-certificate.pem', t('file.sealCertificate'));
  file('seal-chain.pem', t('file.sealChain'));
  file('seal-signature.p7s', t('file.sealSignature'));
  if (facts.signatureTimestamp) {
    add(`  seal-signature-value.bin  ${t('file.signatureValue')}`);
    file('signature-timestamp.tst', t('file.signatureTimestamp'));
  }
  for (const stamp of facts.documentTimestamps) file(stamp.file, t('file.documentTimestamp'));
  if (facts.hasTsaCertificate) file('tsa-certificate.pem', t('file.tsaCertificate'));
  if (facts.validationData.certs.length > 0) file('dss/', t('file.validationData'));
  if (facts.anchors.held.length > 0) file('office-anchors/', t('file.anchors'));
  if (facts.hasPartyFiles) file('party-files/', t('file.partyFiles'));
  file('SHA256SUMS', t('file.sums'));
  if (facts.hasTsaCertificate) {
    add('');
    say(t('tsaRoot'));
  }

  step(t('step.complete'));
  run('sha256sum -c SHA256SUMS', allOk);

  step(t('step.seal'));
  run(
    `pdfsig ${pdf}`,
    '"Signature Type: ETSI.CAdES.detached"',
    '"Signature Validation: Signature is Valid."',
    `"Signed Ranges: [0 - ${b}], [${c} - ${c + d}]"`,
  );
  say(t('seal.unknownIssuer'), '  ');
  say(seal.sealedLength === facts.pdfSize ? t('seal.whole') : t('seal.notWhole'), '  ');
  add('');
  say(t('seal.dump'));
  run(`pdfsig -dump ${pdf}`, `"Signature #0 (${(c - b - 2) / 2} bytes) => ${pdf}.sig0"`);
  run(`head -c ${seal.cmsLength} ${pdf}.sig0 | cmp - seal-signature.p7s`, nothing);
  add('');
  say(t('seal.openssl'));
  run(`head -c ${b} ${pdf} > sealed-range.bin`);
  run(`tail -c +${c + 1} ${pdf} | head -c ${d} >> sealed-range.bin`);
  run(
    'openssl cms -verify -binary -inform DER -in seal-signature.p7s -content sealed-range.bin -noverify -out /dev/null',
    '"CMS Verification successful"',
  );
  add('');
  say(t('seal.prefix', { bytes: String(seal.sealedLength) }));
  run(`head -c ${seal.sealedLength} ${pdf} | sha256sum`, `${seal.sealedSha256}  -`);

  step(t('step.certificate'));
  run(
    'openssl x509 -in seal-certificate.pem -noout -subject -nameopt utf8 -fingerprint -sha256',
    `subject=${seal.subject}`,
    `sha256 Fingerprint=${seal.certificateSha256Colons}`,
  );
  say(t('certificate.note', { label: auditT('sealFingerprint') }), '  ');

  step(t('step.signatureTimestamp'));
  if (facts.signatureTimestamp) {
    const at = seal.signatureAt!;
    say(
      t('signatureTimestamp.intro', {
        authority: facts.signatureTimestamp.authority,
        time: facts.signatureTimestamp.genTime,
      }),
    );
    run(
      'openssl asn1parse -inform DER -in seal-signature.p7s',
      t('expect.line', {
        line: `${at.offset}:d=5  hl=${at.headerLength} l=${String(at.length).padStart(4)} prim: OCTET STRING`,
      }),
    );
    run(
      `tail -c +${at.offset + at.headerLength + 1} seal-signature.p7s | head -c ${at.length} | cmp - seal-signature-value.bin`,
      nothing,
    );
    say(t('signatureTimestamp.attime', { time: facts.signatureTimestamp.genTime }), '  ');
    run(
      `openssl ts -verify -in signature-timestamp.tst -token_in -data seal-signature-value.bin -CAfile TSA-ROOT.pem -untrusted tsa-certificate.pem -attime ${epochSeconds(facts.signatureTimestamp.genTime)}`,
      '"Verification: OK"',
    );
    run(
      'openssl ts -reply -in signature-timestamp.tst -token_in -text',
      `"Time stamp: ${opensslTime(facts.signatureTimestamp.genTime)}"`,
    );
  } else if (facts.documentTimestamps.length > 0) {
    say(t('signatureTimestamp.inDocument'));
  } else {
    say(t('signatureTimestamp.none'));
  }

  step(t('step.documentTimestamps'));
  const stampsStep = steps;
  if (facts.documentTimestamps.length === 0) add(t('none'));
  for (const stamp of facts.documentTimestamps) {
    const [, sb, sc, sd] = stamp.byteRange;
    say(
      t('documentTimestamp.intro', {
        file: stamp.file,
        authority: stamp.authority,
        time: stamp.genTime,
        n: String(stamp.signatureIndex + 1),
      }),
    );
    run(
      `pdfsig ${pdf}`,
      `"Signature #${stamp.signatureIndex + 1}:"`,
      `"Signed Ranges: [0 - ${sb}], [${sc} - ${sc + sd}]"`,
      '"Total document signed"',
    );
    run(`head -c ${stamp.tokenLength} ${pdf}.sig${stamp.signatureIndex} | cmp - ${stamp.file}`, nothing);
    run(`head -c ${sb} ${pdf} > ${stamp.file}.data`);
    run(`tail -c +${sc + 1} ${pdf} | head -c ${sd} >> ${stamp.file}.data`);
    run(
      `openssl ts -verify -in ${stamp.file} -token_in -data ${stamp.file}.data -CAfile TSA-ROOT.pem -untrusted tsa-certificate.pem -attime ${epochSeconds(stamp.genTime)}`,
      '"Verification: OK"',
    );
    run(`openssl ts -reply -in ${stamp.file} -token_in -text`, `"Time stamp: ${opensslTime(stamp.genTime)}"`);
  }
  const writer = { t, add, say, run };
  if (facts.documentTimestamps.length > 0 || facts.signatureTimestamp)
    timestampWalkLines(writer, facts.validationData.certs.length > 0 && facts.documentTimestamps.length > 0);

  step(t('step.validationData'));
  validationDataReadmeLines(facts.validationData, stampsStep, writer);

  step(t('step.chain'));
  say(
    t('chain.format', {
      format:
        '["signdesk-activity-v1", contract, sequence, recorded, event, subject, actor, user_agent, ip_address, details, previous_hash]',
    }),
  );
  run('sha256sum -c activity-chain.sha256', t('expect.lines', { n: String(facts.chain.entries) }), allOk);
  say(t('chain.links'));
  run(
    `prev=${ZERO_HASH}; for f in activity-chain/*.json; do grep -q "\\"$prev\\"]\\$" "$f" || echo "broken at $f"; prev=$(sha256sum "$f" | head -c 64); done; echo "$prev"`,
    t('expect.noBroken'),
    t('expect.lastLine', { value: facts.chain.head?.hash ?? ZERO_HASH }),
  );
  if (facts.chain.sealedHead) {
    const file = `activity-chain/${String(facts.chain.sealedHead.sequence).padStart(4, '0')}.json`;
    say(t('chain.sealedHead', { label: `${auditT('chain')} · ${auditT('chainHead')}` }));
    // The head is the only line of the audit page holding "#<entry>" and a whole SHA-256: found by
    // its shape, in any language (pdftotext -layout keeps the two on one line).
    run(
      `t=$(pdftotext -layout ${pdf} - | grep -oE '#[0-9]+ +[0-9a-f]{64}' | tail -n 1); n=$(echo "$t" | grep -oE '^#[0-9]+' | tr -d '#'); h=$(echo "$t" | grep -oE '[0-9a-f]{64}$'); f=activity-chain/$(printf %04d "$n").json; if [ "$(sha256sum "$f" | head -c 64)" = "$h" ]; then echo "the PDF's head #$n is $f"; else echo "the PDF's head #$n $h is NOT in this chain"; fi`,
      `"the PDF's head #${facts.chain.sealedHead.sequence} is ${file}"`,
    );
    say(t('chain.after'));
  }
  step(t('step.anchors'));
  anchorReadmeLines(facts.anchors, run, add, facts.language ?? 'en');
  add('');
  say(facts.chain.isIntact ? t('intact') : t('notIntact'));
  add('');
  return lines.join('\n');
}

/** A time as openssl's -attime takes it: whole seconds since 1970 UTC. */
export const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A genTime as `openssl ts -reply -text` prints it, to the second: "Nov 24 00:37:55 2026". */
function opensslTime(iso: string): string {
  const date = new Date(iso);
  const month = date.toLocaleString('en', { month: 'short', timeZone: 'UTC' });
  const time = date.toISOString().slice(11, 19);
  return `${month} ${String(date.getUTCDate()).padStart(2, ' ')} ${time}`;
}
