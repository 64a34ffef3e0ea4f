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
  documentTimestamps: { file: string; byteRange: [number, number, number, number]; genTime: string; authority: string; signatureIndex: number; tokenLength: number }[];
  chain: { entries: number; head: { sequence: number; hash: string } | null; sealedHead: { sequence: number; hash: string } | null; isIntact: boolean };
  hasTsaCertificate: boolean;
};

const ZERO_HASH = '0'.repeat(64);

/**
 * The package's README.txt: how to check everything in it offline, step by step, with pdfsig,
 * openssl and sha256sum (and head, tail, cmp and grep), each command with what it must print.
 * A test runs these very commands.
 */
export function evidenceReadme(facts: ReadmeFacts): string {
  const { seal } = facts;
  const [, b, c, d] = seal.byteRange;
  const lines: string[] = [];
  const add = (...text: string[]) => lines.push(...text);
  const step = (() => {
    let n = 0;
    return (title: string) => add('', `${(n += 1)}. ${title}`, '');
  })();
  add(
    `SignDesk evidence package: contract ${facts.contractId} (${facts.contractName})`,
    `Made ${facts.madeAt}.`,
    '',
    'This package lets anyone check the signed PDF and its history without trusting the PC',
    'that made it. Run the commands below in the folder where you unpacked it (a shell with',
    'pdfsig from poppler-utils, openssl, sha256sum, head, tail, cmp and grep). Each command is',
    'followed by what it must print.',
    '',
    'Files',
    `  ${facts.pdf}  the signed PDF, as the appliance serves it now`,
    '  activity-log.json       the contract\'s activity log with its hash chain',
    '  activity-chain/NNNN.json  each log entry exactly as it is hashed',
    '  activity-chain.sha256   the hash of each entry, for sha256sum -c',
    '  seal-certificate.pem    the certificate that sealed the PDF (taken from the PDF)',
    '  seal-chain.pem          every certificate in the seal',
    '  seal-signature.p7s      the seal itself (the CMS signature in the PDF)',
  );
  if (facts.signatureTimestamp) add('  seal-signature-value.bin  the seal\'s signature value', '  signature-timestamp.tst the RFC 3161 token over it (from the seal)');
  for (const stamp of facts.documentTimestamps) add(`  ${stamp.file}  a document timestamp's RFC 3161 token (from the PDF)`);
  if (facts.hasTsaCertificate) add('  tsa-certificate.pem     the timestamp authority\'s certificate(s), as its tokens carry them');
  add('  SHA256SUMS              the hash of every file above');

  step('The package is complete');
  add('  sha256sum -c SHA256SUMS', '  -> every line ends in ": OK"');

  step('The seal of the PDF is valid');
  add(
    `  pdfsig ${facts.pdf}`,
    '  -> Signature #1 shows "Signature Type: ETSI.CAdES.detached" and',
    '     "Signature Validation: Signature is Valid."',
    `     and "Signed Ranges: [0 - ${b}], [${c} - ${c + d}]"`,
  );
  if (seal.sealedLength === facts.pdfSize) add('     and "Total document signed".');
  else add('     and "Not total document signed": what follows the seal is the document timestamp (step 5).');
  add(
    `  "Certificate issuer is unknown" only means the seal's certificate was made by the office`,
    '  itself rather than bought from a certificate authority; step 3 ties it to this office.',
    '',
    'The seal in the PDF is the file seal-signature.p7s:',
    `  pdfsig -dump ${facts.pdf}`,
    `  head -c ${seal.cmsLength} ${facts.pdf}.sig0 | cmp - seal-signature.p7s`,
    '  -> cmp prints nothing (the files are the same)',
    '',
    'Check the seal with openssl too, over the bytes it covers:',
    `  head -c ${b} ${facts.pdf} > sealed-range.bin`,
    `  tail -c +${c + 1} ${facts.pdf} | head -c ${d} >> sealed-range.bin`,
    '  openssl cms -verify -binary -inform DER -in seal-signature.p7s -content sealed-range.bin -noverify -out /dev/null',
    '  -> "CMS Verification successful"',
    '',
    `The PDF as sealed is the first ${seal.sealedLength} bytes of the file:`,
    `  head -c ${seal.sealedLength} ${facts.pdf} | sha256sum`,
    `  -> ${seal.sealedSha256}  -`,
  );

  step('The seal certificate is the one the audit trail names');
  add(
    '  openssl x509 -in seal-certificate.pem -noout -subject -nameopt utf8 -fingerprint -sha256',
    `  -> subject=${seal.subject}`,
    `  -> sha256 Fingerprint=${seal.certificateSha256Colons}`,
    '  The audit trail page prints the same fingerprint (without colons) as "Seal certificate SHA-256".',
  );

  step('The seal\'s trusted timestamp');
  if (facts.signatureTimestamp) {
    const at = seal.signatureAt!;
    add(
      `The token is the seal's signature timestamp (PAdES B-T), from ${facts.signatureTimestamp.authority} at ${facts.signatureTimestamp.genTime}.`,
      'The value it stamps is the seal\'s signature value, which is in seal-signature.p7s:',
      '  openssl asn1parse -inform DER -in seal-signature.p7s',
      `  -> a line "${at.offset}:d=5  hl=${at.headerLength} l=${String(at.length).padStart(4)} prim: OCTET STRING" (the signature value)`,
      `  tail -c +${at.offset + at.headerLength + 1} seal-signature.p7s | head -c ${at.length} | cmp - seal-signature-value.bin`,
      '  -> cmp prints nothing',
      'Then check the token with the authority\'s root certificate, which you get from the',
      'authority itself (its website), never from this package (TSA-ROOT.pem below):',
      '  openssl ts -verify -in signature-timestamp.tst -token_in -data seal-signature-value.bin -CAfile TSA-ROOT.pem -untrusted tsa-certificate.pem',
      '  -> "Verification: OK"',
      '  openssl ts -reply -in signature-timestamp.tst -token_in -text',
      `  -> "Time stamp: ..." at ${facts.signatureTimestamp.genTime} (UTC)`,
    );
  } else if (facts.documentTimestamps.length > 0) {
    add('The timestamp authority did not answer when the PDF was sealed: its timestamp is the document timestamp of step 5.');
  } else {
    add('None. No timestamp authority was configured when this PDF was sealed, so every time in it', 'rests only on the clock of the PC that sealed it.');
  }

  step('Document timestamps');
  if (facts.documentTimestamps.length === 0) add('None.');
  for (const stamp of facts.documentTimestamps) {
    const [, sb, sc, sd] = stamp.byteRange;
    add(
      `${stamp.file}: from ${stamp.authority} at ${stamp.genTime}, over every byte of the file before it.`,
      `  pdfsig ${facts.pdf}   (and pdfsig -dump ${facts.pdf}, as in step 2)`,
      `  -> Signature #${stamp.signatureIndex + 1} is signed by the authority, "Signed Ranges: [0 - ${sb}], [${sc} - ${sc + sd}]", "Total document signed"`,
      `     (pdfsig of poppler 22 prints "Signature Type: unknown" for it; openssl checks it:)`,
      `  head -c ${sb} ${facts.pdf} > ${stamp.file}.data`,
      `  tail -c +${sc + 1} ${facts.pdf} | head -c ${sd} >> ${stamp.file}.data`,
      `  head -c ${stamp.tokenLength} ${facts.pdf}.sig${stamp.signatureIndex} | cmp - ${stamp.file}`,
      '  -> cmp prints nothing (the token is the one in the PDF)',
      `  openssl ts -verify -in ${stamp.file} -token_in -data ${stamp.file}.data -CAfile TSA-ROOT.pem -untrusted tsa-certificate.pem`,
      '  -> "Verification: OK"',
    );
  }

  step('The activity log is the chain the audit trail was sealed with');
  add(
    'Each file in activity-chain/ holds one log entry exactly as it is hashed: the JSON array',
    '["signdesk-activity-v1", contract, sequence, recorded_time, event, subject, user, user_agent,',
    'ip_address, details, previous_hash] written without spaces and with the keys of details sorted.',
    'activity-log.json holds the same entries as the API shows them.',
    '  sha256sum -c activity-chain.sha256',
    `  -> ${facts.chain.entries} lines, each ending in ": OK" (each entry's hash is the hash of its contents)`,
    'Each entry ends with the hash of the one before it (the first with 64 zeros):',
    `  prev=${ZERO_HASH}; for f in activity-chain/*.json; do grep -q "\\"$prev\\"]\\$" "$f" || echo "broken at $f"; prev=$(sha256sum "$f" | head -c 64); done; echo "$prev"`,
    `  -> no "broken at" line, then ${facts.chain.head?.hash ?? ZERO_HASH}`,
  );
  if (facts.chain.sealedHead) {
    const file = `activity-chain/${String(facts.chain.sealedHead.sequence).padStart(4, '0')}.json`;
    add(
      'The audit trail in the PDF prints the chain head it was sealed with ("Activity log hash chain"):',
      `  sha256sum ${file}`,
      `  -> ${facts.chain.sealedHead.hash}  ${file}`,
      `  and the audit trail page reads "#${facts.chain.sealedHead.sequence}  ${facts.chain.sealedHead.hash}".`,
      'Entries after it (the timestamp) were added after sealing.',
    );
  }
  add(
    '',
    facts.chain.isIntact
      ? 'When this package was made, the appliance found its log intact.'
      : 'WARNING: when this package was made, the appliance found its log NOT intact (see activity-log.json, "check").',
    '',
  );
  return lines.join('\n');
}
