import type { ValidationDataFacts } from './validation-data';

/** A moment as the README names it: ISO 8601 UTC, to the second. */
export const isoSeconds = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * README.txt's step on the validation data (the DSS) and how the timestamps hold after every
 * certificate has expired: each CRL and OCSP answer about the timestamp authority's chain
 * checked with openssl at the moment it was issued (-attime), and the walk from the newest
 * archive timestamp back.
 */
export function validationDataReadmeLines(
  facts: ValidationDataFacts,
  run: (command: string, ...expected: string[]) => void,
  add: (...text: string[]) => void,
): void {
  add(
    'The PDF carries the certificates of the timestamp authority and their revocation data (its',
    'Document Security Store, PAdES B-LT), taken out into dss/: each certificate (cert-N.pem, all of',
    'them in certificates.pem), each CRL (crl-N.der) and each OCSP answer (ocsp-N.der). With them the',
    "checks hold when the authority's servers are long gone and its certificates have expired.",
    "openssl checks a certificate against today's clock unless -attime names another moment (in",
    'seconds since 1970 UTC): each check below is made at the moment its CRL or answer was issued.',
  );
  if (facts.certs.length === 0) {
    add(
      '',
      '  None: this PDF has no validation data yet (long-term validation had not run when the package was made).',
    );
    return;
  }
  add('');
  run(
    'for f in dss/cert-*.pem; do openssl x509 -in "$f" -noout -subject -nameopt utf8; done',
    `${facts.certs.length} lines`,
  );
  for (const cert of facts.certs) add(`  ${cert.file}: ${cert.subject}, valid until ${cert.notAfter}`);
  for (const check of facts.crls) {
    add(
      '',
      `${check.file}: a CRL issued ${check.issuedAt}, from the authority that issued "${check.subject}". ${coverage(check.coveredBy)}`,
    );
    run(
      `openssl verify -attime ${check.attime} -CAfile TSA-ROOT.pem -untrusted dss/certificates.pem -crl_check -CRLfile ${check.file} ${check.cert}`,
      `${check.cert}: OK`,
    );
    add(`  So at ${isoSeconds(check.attime)} "${check.subject}" led to TSA-ROOT.pem and was not revoked.`);
  }
  for (const check of facts.ocsps) {
    add(
      '',
      `${check.file}: an OCSP answer produced ${check.issuedAt} about "${check.subject}". ${coverage(check.coveredBy)}`,
    );
    run(
      `openssl ocsp -respin ${check.file} -issuer ${check.issuer} -cert ${check.cert} -CAfile TSA-ROOT.pem -verify_other dss/certificates.pem -attime ${check.attime} -no_nonce`,
      '"Response verify OK"',
      `"${check.cert}: good"`,
    );
    add(
      `  So at ${isoSeconds(check.attime)} the authority's responder said "${check.subject}" was good. Once the`,
      '  answer is older than its Next Update, openssl adds "WARNING: Status times invalid.": it compares',
      '  that with today, not with the moment of the check.',
    );
  }
  if (facts.others > 0)
    add(
      '',
      `${facts.others} more item(s) in dss/ speak of certificates outside the timestamp authority's chain (or cannot be`,
      "read as CRLs or OCSP answers): check those against their own authority's root.",
    );
}

/** The walk through the timestamps once every certificate has expired (the end of step "Document timestamps"). */
export function timestampWalkLines(add: (...text: string[]) => void, hasArchive: boolean): void {
  add(
    '',
    'Each timestamp above is checked at its own time (-attime), so these steps still hold after the',
    "authority's certificate has expired. Read them from the newest back: every document timestamp",
    'covers all bytes before it, the validation data of the next step included, so the newest proves',
    'that everything in the file existed at its time; each older one was made while its',
    "authority's certificate was valid (-attime) and not revoked (the next step's CRL and OCSP answers,",
    'which a later timestamp covers).',
  );
  if (hasArchive)
    add(
      "The newest archive timestamp rests on its own authority's certificate: valid at its time, and not",
      'revoked since. SignDesk renews the archive timestamp a year before that certificate expires (fresh',
      'revocation data and a new timestamp over everything); once renewals stop, the newest one can be',
      "trusted only as long as its authority's key is (PAdES-LTA works this way).",
    );
}

const coverage = (stamp: string | null) =>
  stamp ? `${stamp} (step 5) covers it: it existed by that timestamp's time.` : 'No document timestamp covers it yet.';
