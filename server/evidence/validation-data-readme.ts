import type { KeyOf } from '../../shared/i18n/catalogues';
import type { Translate } from '../../shared/i18n/translator';
import type { ValidationDataFacts } from './validation-data';

/** A moment as the README names it: ISO 8601 UTC, to the second. */
export const isoSeconds = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');

/** How README.txt writes: its words in the contract's language, prose wrapped, commands with what they print. */
export type ReadmeWriter = {
  t: Translate<KeyOf<'readme'>>;
  add: (...text: string[]) => void;
  say: (text: string, indent?: string) => void;
  run: (command: string, ...expected: string[]) => void;
};

/**
 * README.txt's step on the validation data (the DSS) and how the timestamps hold after every
 * certificate has expired: each CRL and OCSP answer about the timestamp authority's chain
 * checked with openssl at the moment it was issued (-attime). `stampsStep` is the number of the
 * step on the document timestamps, which cover the data.
 */
export function validationDataReadmeLines(
  facts: ValidationDataFacts,
  stampsStep: number,
  { t, add, say, run }: ReadmeWriter,
): void {
  say(t('validation.intro'));
  if (facts.certs.length === 0) {
    add('');
    say(t('validation.none'), '  ');
    return;
  }
  const coverage = (stamp: string | null) =>
    stamp ? t('validation.covered', { stamp, step: String(stampsStep) }) : t('validation.notCovered');
  add('');
  run(
    'for f in dss/cert-*.pem; do openssl x509 -in "$f" -noout -subject -nameopt utf8; done',
    t('expect.lines', { n: String(facts.certs.length) }),
  );
  for (const cert of facts.certs)
    say(t('validation.certificate', { file: cert.file, subject: cert.subject, until: cert.notAfter }), '  ');
  for (const check of facts.crls) {
    add('');
    say(
      `${t('validation.crl', { file: check.file, issued: check.issuedAt, subject: check.subject })} ${coverage(check.coveredBy)}`,
    );
    run(
      `openssl verify -attime ${check.attime} -CAfile TSA-ROOT.pem -untrusted dss/certificates.pem -crl_check -CRLfile ${check.file} ${check.cert}`,
      `${check.cert}: OK`,
    );
    say(t('validation.crlProves', { time: isoSeconds(check.attime), subject: check.subject }), '  ');
  }
  for (const check of facts.ocsps) {
    add('');
    say(
      `${t('validation.ocsp', { file: check.file, issued: check.issuedAt, subject: check.subject })} ${coverage(check.coveredBy)}`,
    );
    run(
      `openssl ocsp -respin ${check.file} -issuer ${check.issuer} -cert ${check.cert} -CAfile TSA-ROOT.pem -verify_other dss/certificates.pem -attime ${check.attime} -no_nonce`,
      '"Response verify OK"',
      `"${check.cert}: good"`,
    );
    say(t('validation.ocspProves', { time: isoSeconds(check.attime), subject: check.subject }), '  ');
  }
  if (facts.others > 0) {
    add('');
    say(t('validation.others', { n: String(facts.others) }));
  }
}

/** The walk through the timestamps once every certificate has expired (the end of step "Document timestamps"). */
export function timestampWalkLines({ t, add, say }: ReadmeWriter, hasArchive: boolean): void {
  add('');
  say(t('walk.intro'));
  if (hasArchive) say(t('walk.archive'));
}
