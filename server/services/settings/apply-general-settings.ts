import type { AppContext } from '../../context';

/**
 * Makes the stored general settings the live ones: `ctx.config.publicBaseUrl` and
 * `ctx.config.timeZone` (and so `ctx.baseUrl()` and `ctx.timestamp()`) follow the admin's
 * settings, with the environment's values as the defaults under them.
 */
export function applyGeneralSettings(ctx: AppContext): void {
  const stored = ctx.repos.generalSettings.readAll();
  ctx.config.publicBaseUrl = stored.public_base_url ?? ctx.admin.envDefaults.publicBaseUrl;
  ctx.config.timeZone = stored.time_zone ?? ctx.admin.envDefaults.timeZone;
}
