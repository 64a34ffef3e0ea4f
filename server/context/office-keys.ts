import type { AppContext } from './app-context';
import { loadAppSecret } from '../crypto/app-secret';
import { loadSigningIdentity, type SigningIdentity } from '../crypto/signing-identity';
import { createWebhookKeyring } from '../crypto/webhook-keys';

/** The seal identity, read (or made) on first use: a certificate is minted only when a contract is first signed. */
export function createSeal(ctx: AppContext): AppContext['seal'] {
  let identity: SigningIdentity | undefined;
  return {
    identity: async () =>
      (identity ??= loadSigningIdentity(ctx.paths.keys, {
        officeName: (await ctx.repos.office.get(ctx.now())).name || undefined,
      })),
    replace: (next) => {
      identity = next;
    },
  };
}

/**
 * After DATA_DIR/keys was replaced (a restored backup): everything held from those files is read
 * again. Whatever comes to be kept from DATA_DIR/keys must be reloaded here too.
 */
export function reloadKeys(ctx: AppContext): void {
  ctx.secret = loadAppSecret(ctx.paths.keys);
  ctx.webhooks.keyring = createWebhookKeyring(ctx.paths.keys);
  ctx.seal = createSeal(ctx);
}
