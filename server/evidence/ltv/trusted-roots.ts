import { X509Certificate } from 'node:crypto';
import { MAX_TRUSTED_ROOTS, type TTrustedRoot, type TTrustedRoots } from '../../../shared/api/trusted-roots';
import { logOfficeEvent } from '../../activity/office-log';
import type { AppContext } from '../../context/app-context';
import type { ReadContext } from '../../context/read-context';
import { AppError, notFound, validationFailed } from '../../core/errors';
import { inTransaction } from '../../db/open-database';
import { isSelfSigned, nameOf } from './find-issuers';
import { LTV_QUEUE } from './ltv-queue';

/** The office's trusted roots, in the settings table: `{ next_id, roots: [{ id, pem, added_at }] }`. */
const KEY = 'timestamps.trusted_roots';
const SUBJECT = '/api/settings/timestamps/trusted_roots';

type StoredRoot = { id: number; pem: string; added_at: number };
type Stored = { next_id: number; roots: StoredRoot[] };

async function readStored(ctx: ReadContext): Promise<Stored> {
  const value = await ctx.repos.settings.get(KEY);
  if (value === undefined) return { next_id: 1, roots: [] };
  try {
    const parsed = JSON.parse(value) as Stored;
    if (Array.isArray(parsed.roots) && Number.isInteger(parsed.next_id)) return parsed;
  } catch {
    // Fall through: a damaged setting counts as none, and says so in the log.
  }
  ctx.logger.warn({ key: KEY }, 'timestamps: the saved trusted roots cannot be read and are ignored');
  return { next_id: 1, roots: [] };
}

/** The trusted roots' certificates, for completing a chain (a stored one that no longer parses is left out). */
export async function readTrustedCertificates(ctx: ReadContext): Promise<X509Certificate[]> {
  return (await readStored(ctx)).roots.flatMap((root) => {
    try {
      return [new X509Certificate(root.pem)];
    } catch {
      return [];
    }
  });
}

export async function presentTrustedRoots(ctx: ReadContext): Promise<TTrustedRoots> {
  const stored = await readStored(ctx);
  return { roots: stored.roots.flatMap((root) => presentOne(ctx, root)) };
}

/**
 * Adds a CA certificate (a root, or an intermediate) to the trusted roots: one PEM certificate,
 * a CA's (basicConstraints CA:TRUE), valid today. Contracts whose validation data waits are
 * tried again at once, as they may have waited for it.
 */
export async function addTrustedRoot(ctx: AppContext, pem: string): Promise<TTrustedRoot> {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length !== 1)
    throw validationFailed([
      `certificate: ${blocks.length === 0 ? 'is not a PEM certificate (-----BEGIN CERTIFICATE-----)' : 'holds more than one certificate: add them one at a time'}`,
    ]);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(blocks[0]!);
  } catch {
    throw validationFailed(['certificate: cannot be read as an X.509 certificate']);
  }
  if (!cert.ca) throw validationFailed(["certificate: is not a certificate authority's (basicConstraints CA:TRUE)"]);
  const now = ctx.now();
  if (Date.parse(cert.validTo) <= now) throw validationFailed([`certificate: expired on ${cert.validTo}`]);
  if (Date.parse(cert.validFrom) > now) throw validationFailed([`certificate: is not valid before ${cert.validFrom}`]);
  return inTransaction(ctx.db, async () => {
    const stored = await readStored(ctx);
    if (stored.roots.some((root) => fingerprintOf(root.pem) === sha256Of(cert)))
      throw new AppError('conflict', 'That certificate is already among the trusted roots.');
    if (stored.roots.length >= MAX_TRUSTED_ROOTS)
      throw new AppError('conflict', `At most ${MAX_TRUSTED_ROOTS} trusted roots: remove one first.`);
    const root: StoredRoot = { id: stored.next_id, pem: cert.toString(), added_at: now };
    await ctx.repos.settings.write(
      KEY,
      JSON.stringify({ next_id: root.id + 1, roots: [...stored.roots, root] } satisfies Stored),
      now,
    );
    await logOfficeEvent(ctx, {
      event: 'settings.changed',
      subject: SUBJECT,
      details: { fields: 'trusted_roots', added: `${nameOf(cert)} (SHA-256 ${sha256Of(cert)})` },
    });
    for (const contractId of await ctx.repos.seals.pendingLtvContractIds())
      await ctx.repos.jobs.requeue(LTV_QUEUE, contractId, now);
    return presentOne(ctx, root)[0]!;
  });
}

export async function removeTrustedRoot(ctx: AppContext, id: number): Promise<void> {
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    const stored = await readStored(ctx);
    const root = stored.roots.find((item) => item.id === id);
    if (!root) throw notFound('trusted root');
    const roots = stored.roots.filter((item) => item !== root);
    await ctx.repos.settings.write(KEY, JSON.stringify({ ...stored, roots } satisfies Stored), now);
    await logOfficeEvent(ctx, {
      event: 'settings.changed',
      subject: SUBJECT,
      details: { fields: 'trusted_roots', removed: `SHA-256 ${fingerprintOf(root.pem) ?? '(unreadable)'}` },
    });
  });
}

function presentOne(ctx: ReadContext, root: StoredRoot): TTrustedRoot[] {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(root.pem);
  } catch {
    return [];
  }
  const notAfter = Date.parse(cert.validTo);
  return [
    {
      self: `${SUBJECT}/${root.id}`,
      subject: nameOf(cert),
      issuer: cert.issuer.replaceAll('\n', ', '),
      sha256: sha256Of(cert),
      not_before: ctx.timestamp(Date.parse(cert.validFrom)),
      not_after: ctx.timestamp(notAfter),
      is_self_signed: isSelfSigned(cert),
      is_expired: notAfter <= ctx.now(),
      added_time: ctx.timestamp(root.added_at),
    },
  ];
}

const sha256Of = (cert: X509Certificate) => cert.fingerprint256.replaceAll(':', '').toLowerCase();

function fingerprintOf(pem: string): string | undefined {
  try {
    return sha256Of(new X509Certificate(pem));
  } catch {
    return undefined;
  }
}
