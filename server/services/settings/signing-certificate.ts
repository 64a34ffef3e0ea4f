import type { TSigningCertificate } from '../../../shared/api/settings';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';

/*
 * SEAM(signed-pdf): the signed-pdf branch provides server/crypto/signing-identity.ts with
 * loadSigningIdentity(keysDir, { officeName }), describeSigningIdentity(identity) and
 * importPkcs12(keysDir, p12, passphrase) -> identity. Until it is merged the module is absent
 * and the admin UI's certificate panel says "not available yet". After the merge, replace this
 * dynamic import with a static one.
 */
type SigningIdentityModule = {
  loadSigningIdentity?: (keysDir: string, options?: { officeName?: string }) => unknown;
  describeSigningIdentity?: (identity: unknown) => unknown;
  importPkcs12?: (keysDir: string, p12: Uint8Array, passphrase: string) => unknown;
};

const MODULE_SPECIFIER = '../../crypto/signing-identity';

async function loadSigningIdentityModule(): Promise<SigningIdentityModule | undefined> {
  try {
    return (await import(/* @vite-ignore */ MODULE_SPECIFIER)) as SigningIdentityModule;
  } catch (err) {
    const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}

const NOT_AVAILABLE: TSigningCertificate = {
  is_available: false,
  subject: null,
  issuer: null,
  fingerprint: null,
  not_before: null,
  not_after: null,
  is_self_signed: null,
  source: null,
  key_algorithm: null,
};

const text = (value: unknown): string | null => {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' && value !== '' ? value : null;
};

function timestampOf(ctx: AppContext, value: unknown): string | null {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ctx.timestamp(ms) : null;
}

function presentIdentity(ctx: AppContext, described: unknown): TSigningCertificate {
  const info = (described ?? {}) as Record<string, unknown>;
  const isSelfSigned = info.selfSigned ?? info.isSelfSigned;
  return {
    is_available: true,
    subject: text(info.subject),
    issuer: text(info.issuer),
    fingerprint: text(info.fingerprintSha256 ?? info.fingerprint),
    not_before: timestampOf(ctx, info.validFrom ?? info.notBefore),
    not_after: timestampOf(ctx, info.validTo ?? info.notAfter),
    is_self_signed: typeof isSelfSigned === 'boolean' ? isSelfSigned : null,
    source: text(info.source),
    key_algorithm: text(info.keyAlgorithm),
  };
}

export async function describeSigningCertificate(ctx: AppContext): Promise<TSigningCertificate> {
  const module = await loadSigningIdentityModule();
  if (!module?.describeSigningIdentity || !module.loadSigningIdentity) return NOT_AVAILABLE;
  const identity = await module.loadSigningIdentity(ctx.paths.keys, { officeName: ctx.repos.office.get(ctx.now()).name || undefined });
  return presentIdentity(ctx, await module.describeSigningIdentity(identity));
}

export async function importSigningCertificate(ctx: AppContext, p12: Uint8Array, passphrase: string): Promise<TSigningCertificate> {
  const module = await loadSigningIdentityModule();
  if (!module?.importPkcs12 || !module.describeSigningIdentity) {
    throw new AppError('service-unavailable', 'Importing a signing certificate is not available in this version yet.');
  }
  let identity: unknown;
  try {
    identity = await module.importPkcs12(ctx.paths.keys, p12, passphrase);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('validation-failed', 'The certificate could not be imported.', {
      validationErrors: [`pkcs12: ${err instanceof Error ? err.message : 'not a PKCS#12 file, or the passphrase is wrong'}`],
    });
  }
  return presentIdentity(ctx, await module.describeSigningIdentity(identity));
}
