import { anchorReadmeLines, type AnchorFacts } from './anchors/anchor-evidence';
import type { ValidationDataFacts } from './validation-data';
import { timestampWalkLines, validationDataReadmeLines } from './validation-data-readme';

/** What the offline instructions need to know about one package: its files, their offsets and the values to expect. */
export type ReadmeFacts = {
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
 * openssl and sha256sum (and head, tail, cmp and grep), each command with what it must print.
 * A test runs these very commands.
 */
export function evidenceReadme(facts: ReadmeFacts): string {
  const { seal, pdf } = facts;
  const [, b, c, d] = seal.byteRange;
  const lines: string[] = [];
  const add = (...text: string[]) => lines.push(...text);
  const run = (command: string, ...expected: string[]) =>
    add(`  $ ${command}`, ...expected.map((line) => `  -> ${line}`));
  let steps = 0;
  const step = (title: string) => add('', `${(steps += 1)}. ${title}`, '');

  add(
    `SignDesk evidence package: contract ${facts.contractId} (${facts.contractName})`,
    `Made ${facts.madeAt}.`,
    '',
    'This package lets anyone check the signed PDF and its history without trusting the PC that',
    'made it. Run the commands below (the lines starting with $) in the folder where you unpacked',
    'it, in a shell with pdfsig and pdftotext (poppler-utils), openssl, sha256sum, head, tail, cmp and grep. After',
    'each command, the lines starting with -> say what it must print.',
    '',
    'Files',
    `  ${pdf.padEnd(24)}the signed PDF, as the appliance serves it now`,
    '  activity-log.json       the activity log of the contract, with its hash chain',
    '  activity-chain/NNNN.json  each log entry exactly as it is hashed',
    '  activity-chain.sha256   the hash of each entry, for sha256sum -c',
    '  seal-certificate.pem    the certificate that sealed the PDF (taken from the PDF)',
    '  seal-chain.pem          every certificate in the seal',
    '  seal-signature.p7s      the seal itself: the CMS signature in the PDF',
  );
  if (facts.signatureTimestamp)
    add(
      '  seal-signature-value.bin  the signature value of the seal',
      '  signature-timestamp.tst the RFC 3161 token over it, from the seal',
    );
  for (const stamp of facts.documentTimestamps)
    add(`  ${stamp.file.padEnd(24)}the RFC 3161 token of a document timestamp, from the PDF`);
  if (facts.hasTsaCertificate)
    add("  tsa-certificate.pem     the timestamp authority's certificate(s), as its tokens carry them");
  if (facts.validationData.certs.length > 0)
    add('  dss/                    the validation data in the PDF: certificates, CRLs and OCSP answers');
  if (facts.anchors.held.length > 0)
    add("  office-anchors/         the office anchors holding this log, and the authority's tokens over them");
  if (facts.hasPartyFiles)
    add('  party-files/            the files parties attached to their fields (SHA-256 on the audit page)');
  add('  SHA256SUMS              the hash of every file above');
  if (facts.hasTsaCertificate) {
    add(
      '',
      'TSA-ROOT.pem below is the root certificate of the timestamp authority. Get it from the',
      'authority itself (its website), never from this package: trusting a file made by the',
      'appliance would defeat the point. If the office changed authorities over the years, put each',
      "authority's root in TSA-ROOT.pem, one after the other.",
    );
  }

  step('The package is complete');
  run('sha256sum -c SHA256SUMS', 'every line ends in ": OK"');

  step('The seal of the PDF is valid');
  run(
    `pdfsig ${pdf}`,
    '"Signature Type: ETSI.CAdES.detached"',
    '"Signature Validation: Signature is Valid."',
    `"Signed Ranges: [0 - ${b}], [${c} - ${c + d}]"`,
  );
  add(
    '  "Certificate issuer is unknown" only means that the office made the seal\'s certificate itself',
    '  instead of buying one from a certificate authority; step 3 ties it to the audit trail.',
    seal.sealedLength === facts.pdfSize
      ? '  The seal covers the whole file ("Total document signed").'
      : '  The seal does not cover the whole file ("Not total document signed"): what follows it is the document timestamp of step 5.',
    '',
    'The seal in the PDF is the file seal-signature.p7s (pdfsig -dump writes it with zeros after it):',
  );
  run(`pdfsig -dump ${pdf}`, `"Signature #0 (${(c - b - 2) / 2} bytes) => ${pdf}.sig0"`);
  run(`head -c ${seal.cmsLength} ${pdf}.sig0 | cmp - seal-signature.p7s`, 'prints nothing');
  add('', 'Check the seal with openssl as well, over the bytes it covers:');
  run(`head -c ${b} ${pdf} > sealed-range.bin`);
  run(`tail -c +${c + 1} ${pdf} | head -c ${d} >> sealed-range.bin`);
  run(
    'openssl cms -verify -binary -inform DER -in seal-signature.p7s -content sealed-range.bin -noverify -out /dev/null',
    '"CMS Verification successful"',
  );
  add('', `The PDF as it was sealed is the first ${seal.sealedLength} bytes of the file:`);
  run(`head -c ${seal.sealedLength} ${pdf} | sha256sum`, `${seal.sealedSha256}  -`);

  step('The seal certificate is the one the audit trail names');
  run(
    'openssl x509 -in seal-certificate.pem -noout -subject -nameopt utf8 -fingerprint -sha256',
    `subject=${seal.subject}`,
    `sha256 Fingerprint=${seal.certificateSha256Colons}`,
  );
  add('  The audit trail page prints the same fingerprint (lower case, without colons) as "Seal certificate SHA-256".');

  step("The seal's trusted timestamp");
  if (facts.signatureTimestamp) {
    const at = seal.signatureAt!;
    add(
      `The token is the seal's signature timestamp (PAdES B-T), from ${facts.signatureTimestamp.authority}`,
      `at ${facts.signatureTimestamp.genTime}. It stamps the seal's signature value, which is in seal-signature.p7s:`,
    );
    run(
      'openssl asn1parse -inform DER -in seal-signature.p7s',
      `a line "${at.offset}:d=5  hl=${at.headerLength} l=${String(at.length).padStart(4)} prim: OCTET STRING": the signature value`,
    );
    run(
      `tail -c +${at.offset + at.headerLength + 1} seal-signature.p7s | head -c ${at.length} | cmp - seal-signature-value.bin`,
      'prints nothing',
    );
    add(
      "  openssl checks the authority's certificate at the token's own time (-attime, seconds since 1970 UTC:",
      `  ${facts.signatureTimestamp.genTime}), so this holds after that certificate has expired.`,
    );
    run(
      `openssl ts -verify -in signature-timestamp.tst -token_in -data seal-signature-value.bin -CAfile TSA-ROOT.pem -untrusted tsa-certificate.pem -attime ${epochSeconds(facts.signatureTimestamp.genTime)}`,
      '"Verification: OK"',
    );
    run(
      'openssl ts -reply -in signature-timestamp.tst -token_in -text',
      `"Time stamp: ${opensslTime(facts.signatureTimestamp.genTime)}"`,
    );
  } else if (facts.documentTimestamps.length > 0) {
    add(
      'The timestamp authority did not answer when the PDF was sealed: its timestamp is the document timestamp of step 5.',
    );
  } else {
    add(
      'None. No timestamp authority was configured when this PDF was sealed, so every time in it',
      'rests only on the clock of the PC that sealed it.',
    );
  }

  step('Document timestamps');
  if (facts.documentTimestamps.length === 0) add('None.');
  for (const stamp of facts.documentTimestamps) {
    const [, sb, sc, sd] = stamp.byteRange;
    add(
      `${stamp.file}: from ${stamp.authority} at ${stamp.genTime}, over every byte of the file but its own token.`,
      `pdfsig lists it as signature #${stamp.signatureIndex + 1}, signed by the authority (poppler cannot check this kind; openssl does, below):`,
    );
    run(
      `pdfsig ${pdf}`,
      `"Signature #${stamp.signatureIndex + 1}:"`,
      `"Signed Ranges: [0 - ${sb}], [${sc} - ${sc + sd}]"`,
      '"Total document signed"',
    );
    run(`head -c ${stamp.tokenLength} ${pdf}.sig${stamp.signatureIndex} | cmp - ${stamp.file}`, 'prints nothing');
    run(`head -c ${sb} ${pdf} > ${stamp.file}.data`);
    run(`tail -c +${sc + 1} ${pdf} | head -c ${sd} >> ${stamp.file}.data`);
    run(
      `openssl ts -verify -in ${stamp.file} -token_in -data ${stamp.file}.data -CAfile TSA-ROOT.pem -untrusted tsa-certificate.pem -attime ${epochSeconds(stamp.genTime)}`,
      '"Verification: OK"',
    );
    run(`openssl ts -reply -in ${stamp.file} -token_in -text`, `"Time stamp: ${opensslTime(stamp.genTime)}"`);
  }
  if (facts.documentTimestamps.length > 0 || facts.signatureTimestamp)
    timestampWalkLines(add, facts.validationData.certs.length > 0 && facts.documentTimestamps.length > 0);

  step('The validation data: certificates, CRLs and OCSP answers');
  validationDataReadmeLines(facts.validationData, run, add);

  step('The activity log is the chain the audit trail was sealed with');
  add(
    'Each file in activity-chain/ holds one log entry exactly as it is hashed: the JSON array',
    '["signdesk-activity-v1", contract, sequence, recorded, event, subject, actor, user_agent,',
    'ip_address, details, previous_hash], written without spaces, with the keys of details sorted.',
    'recorded is the moment of recording in UTC with milliseconds (recorded_ms of activity-log.json);',
    'actor is the path of the user or party who acted, or empty for SignDesk itself.',
    'activity-log.json holds the same entries as the API shows them.',
  );
  run('sha256sum -c activity-chain.sha256', `${facts.chain.entries} lines`, 'every line ends in ": OK"');
  add('Each entry ends with the hash of the entry before it (the first with 64 zeros):');
  run(
    `prev=${ZERO_HASH}; for f in activity-chain/*.json; do grep -q "\\"$prev\\"]\\$" "$f" || echo "broken at $f"; prev=$(sha256sum "$f" | head -c 64); done; echo "$prev"`,
    'no line "broken at"',
    `the last line is ${facts.chain.head?.hash ?? ZERO_HASH}`,
  );
  if (facts.chain.sealedHead) {
    const file = `activity-chain/${String(facts.chain.sealedHead.sequence).padStart(4, '0')}.json`;
    add(
      'The audit trail in the PDF prints the head of the chain it was sealed with ("Activity log hash',
      'chain"). Read it from the PDF itself (not from this README or the appliance) and find it in the chain:',
    );
    run(
      `t=$(pdftotext ${pdf} - | grep -A4 'Chain head'); n=$(echo "$t" | grep -oE '^#[0-9]+$' | tr -d '#'); h=$(echo "$t" | grep -oE '^[0-9a-f]{64}$'); f=activity-chain/$(printf %04d "$n").json; if [ "$(sha256sum "$f" | head -c 64)" = "$h" ]; then echo "the PDF's head #$n is $f"; else echo "the PDF's head #$n $h is NOT in this chain"; fi`,
      `"the PDF's head #${facts.chain.sealedHead.sequence} is ${file}"`,
    );
    add('Entries after it (the timestamp) came after sealing: the office anchors below prove them.');
  }
  step('The office anchors: what the timestamp authority proves about the log');
  anchorReadmeLines(facts.anchors, run, add);
  add(
    '',
    facts.chain.isIntact
      ? 'When this package was made, the appliance found its log intact.'
      : 'WARNING: when this package was made, the appliance found its log NOT intact (see "check" in activity-log.json).',
    '',
  );
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
