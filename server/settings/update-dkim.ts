import { SECRET_MASK } from '../../shared/api/messaging-settings';
import type { TDkimSettings, TDkimSettingsUpdate } from '../../shared/api/dkim-settings';
import type { AppContext } from '../context/app-context';
import type { ReadContext } from '../context/read-context';
import { inTransaction } from '../db/open-database';
import { validationFailed } from '../core/errors';
import { logOfficeEvent } from '../activity/office-log';
import { checkDkimKey, DKIM_KEYS, dkimDnsRecord } from '../messages/mail/dkim';
import { openSettingValue, sealSettingValue } from '../messages/messaging-settings';

/** The DKIM settings as the API shows them: the private key masked, the DNS record to publish. */
export async function presentDkim(ctx: ReadContext): Promise<TDkimSettings> {
  const saved = await ctx.repos.settings.getMany(Object.values(DKIM_KEYS));
  const domain = saved.get(DKIM_KEYS.domain) ?? null;
  const selector = saved.get(DKIM_KEYS.selector) ?? null;
  const privateKey = openSettingValue(ctx, DKIM_KEYS.privateKey, saved.get(DKIM_KEYS.privateKey));
  return {
    domain,
    selector,
    private_key: privateKey ? SECRET_MASK : null,
    dns_record:
      domain && selector && privateKey
        ? dkimDnsRecord({ domainName: domain, keySelector: selector, privateKey })
        : null,
  };
}

/** Saves the fields sent (null removes one); a key that cannot sign is refused and nothing changes. */
export async function updateDkim(ctx: AppContext, input: TDkimSettingsUpdate): Promise<void> {
  const key = input.private_key === SECRET_MASK ? undefined : input.private_key;
  if (key) {
    const checked = checkDkimKey(key);
    if ('error' in checked) throw validationFailed([checked.error]);
  }
  await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    if (input.domain !== undefined) await ctx.repos.settings.write(DKIM_KEYS.domain, input.domain, now);
    if (input.selector !== undefined) await ctx.repos.settings.write(DKIM_KEYS.selector, input.selector, now);
    if (key !== undefined)
      await ctx.repos.settings.write(
        DKIM_KEYS.privateKey,
        key === null ? null : sealSettingValue(ctx, key.trim()),
        now,
      );
    const fields = (['domain', 'selector', 'private_key'] as const).filter((field) => input[field] !== undefined);
    if (fields.length > 0)
      await logOfficeEvent(ctx, {
        event: 'settings.changed',
        subject: '/api/settings/dkim',
        details: { fields: fields.join(',') },
      });
  });
}
