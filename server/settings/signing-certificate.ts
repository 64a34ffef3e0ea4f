import type { ReadContext } from '../context/read-context';
import type { TSigningCertificate } from '../../shared/api/settings';
import type { AppContext } from '../context/app-context';
import { describeSigningIdentity, importPkcs12 } from '../crypto/signing-identity';
import { AppError } from '../core/errors';
import { logOfficeEvent } from '../activity/office-log';

function timestampOf(ctx: ReadContext, value: string): string | null {
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ctx.timestamp(ms) : null;
}

async function presentIdentity(ctx: ReadContext): Promise<TSigningCertificate> {
  const info = describeSigningIdentity(await ctx.seal.identity());
  return {
    is_available: true,
    subject: info.subject,
    issuer: info.issuer,
    fingerprint: info.fingerprintSha256,
    not_before: timestampOf(ctx, info.validFrom),
    not_after: timestampOf(ctx, info.validTo),
    is_self_signed: info.selfSigned,
    source: info.source,
    key_algorithm: info.keyAlgorithm,
  };
}

/** The certificate that seals signed PDFs (the appliance's own is made at first use). */
export async function describeSigningCertificate(ctx: ReadContext): Promise<TSigningCertificate> {
  return presentIdentity(ctx);
}

/** Imports an office's PKCS#12; from now on it seals signed PDFs. A refused file changes nothing. */
export async function importSigningCertificate(
  ctx: AppContext,
  p12: Uint8Array,
  passphrase: string,
): Promise<TSigningCertificate> {
  let identity;
  try {
    identity = await importPkcs12(ctx.keys, p12, passphrase);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('validation-failed', 'The certificate could not be imported.', {
      validationErrors: [
        `pkcs12: ${err instanceof Error ? err.message : 'not a PKCS#12 file, or the passphrase is wrong'}`,
      ],
    });
  }
  ctx.seal.replace(identity);
  const info = describeSigningIdentity(identity);
  await logOfficeEvent(ctx, {
    event: 'seal_certificate.changed',
    subject: '/api/settings/signing_certificate',
    details: { source: info.source, subject: info.subject, fingerprint: info.fingerprintSha256 },
  });
  return presentIdentity(ctx);
}
