import type { TGeneralSettingsUpdate } from '../../shared/api/settings';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { OfficeChanges } from '../db/repos/office';
import { applyGeneralSettings } from './apply-general-settings';
import { writeFrameOrigins } from './frame-origins';
import { logOfficeEvent } from '../activity/office-log';
import { renewSealIfDue } from './renew-seal';

/** Saves the fields sent; the office counts as set up once it has a name and an e-mail. */
export async function updateGeneralSettings(ctx: AppContext, input: TGeneralSettingsUpdate): Promise<void> {
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    const changes: OfficeChanges = {};
    if (input.office_name !== undefined) changes.name = input.office_name;
    if (input.office_email !== undefined) changes.email = input.office_email;
    const office = await ctx.repos.office.get(now);
    const name = changes.name ?? office.name;
    const email = changes.email ?? office.email;
    if (office.setUpAt === null && name !== '' && email !== '') changes.setUpAt = now;
    if (Object.keys(changes).length > 0) await ctx.repos.office.update(changes);
    if (input.public_base_url !== undefined) {
      await ctx.repos.settings.write('public_base_url', input.public_base_url?.replace(/\/+$/, '') ?? null, now);
    }
    if (input.time_zone !== undefined) await ctx.repos.settings.write('time_zone', input.time_zone, now);
    if (input.signing_frame_origins !== undefined)
      await writeFrameOrigins(
        ctx,
        input.signing_frame_origins.map((origin) => new URL(origin).origin),
        now,
      );
    const fields = Object.keys(input).filter((key) => input[key as keyof TGeneralSettingsUpdate] !== undefined);
    if (fields.length > 0)
      await logOfficeEvent(ctx, {
        event: 'settings.changed',
        subject: '/api/settings/general',
        details: { fields: fields.sort().join(','), office_name: input.office_name },
      });
  });
  await applyGeneralSettings(ctx);
  // A new office name gets a seal certificate that carries it.
  if (input.office_name !== undefined) await renewSealIfDue(ctx);
}
