import type { AppContext } from '../context/app-context';
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
export function sealSecretsAtRest(ctx: AppContext): void {
  if (ctx.repos.settings.get(SEALED_MARK) !== undefined) return;
  const sqlite = ctx.db.$client;
  const now = ctx.now();
  let links = 0;
  let messages = 0;
  let settings = 0;
  sqlite.transaction(() => {
    links = migrateLinkTokens(ctx);
    const rows = sqlite
      .prepare("SELECT id, subject, text, html FROM outbox_messages WHERE text NOT LIKE 'sealed:%'")
      .all() as Array<{ id: number; subject: string | null; text: string; html: string | null }>;
    const update = sqlite.prepare('UPDATE outbox_messages SET subject = ?, text = ?, html = ? WHERE id = ?');
    const seal = (value: string | null) => (value === null || isSealed(value) ? value : sealBody(ctx, value));
    for (const row of rows) update.run(seal(row.subject), seal(row.text), seal(row.html), row.id);
    messages = rows.length;
    for (const key of SEALED_SETTING_KEYS) {
      const value = ctx.repos.settings.get(key);
      if (value === undefined || isSealed(value)) continue;
      ctx.repos.settings.set(key, sealSettingValue(ctx, value), now);
      settings += 1;
    }
    ctx.repos.settings.set(SEALED_MARK, '1', now);
  })();
  if (links + messages + settings > 0)
    ctx.logger.info({ links, messages, settings }, 'secrets kept in clear by an older version are now sealed');
}
