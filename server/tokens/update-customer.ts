import type { TCustomerUpdate } from '../../shared/api/partner';
import type { AppContext } from '../context/app-context';
import type { OfficeChanges } from '../db/repos/office';

/** The office's profile as the partner API changes it: only the fields given. */
export async function updateCustomer(ctx: AppContext, input: TCustomerUpdate): Promise<void> {
  const changes: OfficeChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.email !== undefined) changes.email = input.email;
  if (input.default_rate_limit !== undefined) changes.defaultRateLimit = input.default_rate_limit;
  if (Object.keys(changes).length > 0) await ctx.repos.office.update(changes);
}
