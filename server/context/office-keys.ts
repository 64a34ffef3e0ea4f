import type { AppContext } from './app-context';
import { loadAppSecret } from '../crypto/app-secret';
import { loadSigningIdentity, type SigningIdentity } from '../crypto/signing-identity';
import { createWebhookKeyring } from '../crypto/webhook-keys';

/** The seal identity, read (or made) on first use: a certificate is minted only when a contract is first signed. */
export function createSeal(ctx: AppContext): AppContext['seal'] {
  let identity: SigningIdentity | undefined;
  return {
    identity: async () =>
      (identity ??= await loadSigningIdentity(ctx.keys, {
        officeName: (await ctx.repos.office.get(ctx.now())).name || undefined,
      })),
    replace: (next) => {
      identity = next;
    },
  };
}

/**
 * After the keys were replaced (a restored backup): everything held from the key store is read
 * again. Whatever comes to be kept from the key store must be reloaded here too.
 */
export async function reloadKeys(ctx: AppContext): Promise<void> {
  ctx.secret = await loadAppSecret(ctx.keys);
  ctx.webhooks.keyring = createWebhookKeyring(ctx.keys);
  ctx.seal = createSeal(ctx);
}
