import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { describeSigningIdentity, loadSigningIdentity, needsNewSeal } from '../crypto/signing-identity';
import { logOfficeEvent } from '../activity/office-log';

/**
 * Makes the appliance's own seal certificate anew when it no longer fits: within 30 days of
 * its expiry, or when the office's name was set or changed (so that a seal says whose it is,
 * however the office was set up: CLI, API or the first-run page). The old certificate is kept in
 * the archive of seal certificates (DATA_DIR/keys/seal-certificates), and every seal records the certificate that made it, so old
 * seals keep verifying. Cheap when nothing is due: run at start, after the office name changes,
 * and before each seal (a server running for months still renews in time).
 */
export async function renewSealIfDue(ctx: AppContext): Promise<void> {
  const now = new Date(ctx.now());
  const officeName = (await ctx.repos.office.get(now.getTime())).name || undefined;
  const current = await ctx.seal.identity();
  if (!needsNewSeal(current, officeName, now)) return;
  const next = await loadSigningIdentity(ctx.keys, { officeName, now });
  ctx.seal.replace(next);
  const before = describeSigningIdentity(current);
  const after = describeSigningIdentity(next);
  if (before.fingerprintSha256 === after.fingerprintSha256) return;
  await inTransaction(ctx.db, async () =>
    logOfficeEvent(ctx, {
      event: 'seal_certificate.renewed',
      subject: '/api/settings/signing_certificate',
      details: {
        subject: after.subject,
        fingerprint: after.fingerprintSha256,
        valid_to: ctx.timestamp(Date.parse(after.validTo)),
        previous_fingerprint: before.fingerprintSha256,
      },
    }),
  );
  ctx.logger.info(
    { subject: after.subject, validTo: after.validTo, previous: before.fingerprintSha256 },
    'seal: a new self-signed seal certificate was made (the office name changed, or the old one expires soon)',
  );
}
