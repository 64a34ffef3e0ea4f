import type { TCustomerUpdate } from '../../shared/api/partner';
import type { AppContext } from '../context/app-context';
import type { OfficeChanges } from '../db/repos/office';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';
import { PARTNER_CONTACT_KEY, readPartnerContact } from '../subscription/partner-contact';
import type { PlanChanger } from '../subscription/update-subscription';

/**
 * The office's profile as the partner API changes it: only the fields given. The partner's
 * contact is kept beside it in the settings (one JSON value); a change to it is in the office log.
 */
export async function updateCustomer(ctx: AppContext, input: TCustomerUpdate, by?: PlanChanger): Promise<void> {
  const changes: OfficeChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.email !== undefined) changes.email = input.email;
  if (input.default_rate_limit !== undefined) changes.defaultRateLimit = input.default_rate_limit;
  await inTransaction(ctx.db, async () => {
    if (Object.keys(changes).length > 0) await ctx.repos.office.update(changes);
    const before = await readPartnerContact(ctx);
    const after = {
      name: input.partner_name === undefined ? before.name : input.partner_name,
      email: input.partner_email === undefined ? before.email : input.partner_email,
      phone: input.partner_phone === undefined ? before.phone : input.partner_phone,
    };
    if (after.name === before.name && after.email === before.email && after.phone === before.phone) return;
    await ctx.repos.settings.set(PARTNER_CONTACT_KEY, JSON.stringify(after), ctx.now());
    await logOfficeEvent(ctx, {
      event: 'partner_contact.changed',
      subject: '/api/partner/customer',
      userId: by?.userId ?? null,
      ...(by ? { userAgent: by.userAgent, ipAddress: by.ipAddress } : {}),
      details: { before: JSON.stringify(before), after: JSON.stringify(after), via: by?.via },
    });
  });
}
