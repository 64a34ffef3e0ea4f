import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/database';
import { isSealed } from '../crypto/app-secret';
import { sealBody } from './message-bodies';
import { migrateLinkTokens } from '../secrets/link-tokens';
import { SEALED_SETTING_KEYS, sealSettingValue } from './messaging-settings';

/**
 * Set once a database's secrets are all sealed. Its own database carries it (a backup too): a
 * database from before sealing, or an older backup restored, has none and is sealed on its
 * first start, while a sealed one is not scanned again (every writer of this version seals).
 */
const SEALED_MARK = 'secrets.sealed_at_rest';

/**
 * Seals what a database from before sealing began (an upgrade, or an older backup restored)
 * still holds in clear: signing-link tokens, outbox subjects and bodies (links and one-time
 * codes), passwords in the SMTP and SMS gateway URLs. SQL cannot do it (it has no key), so it
 * runs at start-up, once per row, in one transaction that also sets the mark; a database with
 * the mark costs one small query.
 */
export async function sealSecretsAtRest(ctx: AppContext): Promise<void> {
  if ((await ctx.repos.settings.get(SEALED_MARK)) !== undefined) return;
  const now = ctx.now();
  let links = 0;
  let messages = 0;
  let settings = 0;
  await inTransaction(ctx.db, async () => {
    links = await migrateLinkTokens(ctx);
    const rows = await ctx.repos.outbox.listUnsealed();
    const seal = (value: string | null) => (value === null || isSealed(value) ? value : sealBody(ctx, value));
    for (const row of rows)
      await ctx.repos.outbox.replaceTexts(row.id, {
        subject: seal(row.subject),
        text: seal(row.text)!,
        html: seal(row.html),
      });
    messages = rows.length;
    for (const key of SEALED_SETTING_KEYS) {
      const value = await ctx.repos.settings.get(key);
      if (value === undefined || isSealed(value)) continue;
      await ctx.repos.settings.set(key, sealSettingValue(ctx, value), now);
      settings += 1;
    }
    await ctx.repos.settings.set(SEALED_MARK, '1', now);
  });
  if (links + messages + settings > 0)
    ctx.logger.info({ links, messages, settings }, 'secrets kept in clear by an older version are now sealed');
}
