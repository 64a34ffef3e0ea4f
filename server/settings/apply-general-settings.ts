import type { ReadContext } from '../context/read-context';
import type { AppContext } from '../context/app-context';

const GENERAL_SETTING_KEYS = ['public_base_url', 'time_zone'] as const;
type GeneralSettingKey = (typeof GENERAL_SETTING_KEYS)[number];

/** The general settings the admin saved; a missing key means the environment's default applies. */
export async function readGeneralSettings(ctx: ReadContext): Promise<Partial<Record<GeneralSettingKey, string>>> {
  return Object.fromEntries(await ctx.repos.settings.getMany(GENERAL_SETTING_KEYS));
}

/**
 * Makes the stored general settings the live ones: `ctx.config.publicBaseUrl` and
 * `ctx.config.timeZone` (and so `ctx.baseUrl()` and `ctx.timestamp()`) follow the admin's
 * settings, with the environment's values as the defaults under them.
 */
export async function applyGeneralSettings(ctx: AppContext): Promise<void> {
  const stored = await readGeneralSettings(ctx);
  ctx.config.publicBaseUrl = stored.public_base_url ?? ctx.admin.envDefaults.publicBaseUrl;
  ctx.config.timeZone = stored.time_zone ?? ctx.admin.envDefaults.timeZone;
}
