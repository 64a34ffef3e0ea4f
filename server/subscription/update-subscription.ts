import type { TSubscriptionUpdate } from '../../shared/api/subscription';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';
import type { RequestOrigin } from '../activity/log-activity';
import { readSubscription, SUBSCRIPTION_KEY, subscriptionFields, type Subscription } from './subscription-record';

/** Who changed the plan, as the office log keeps it. */
export type PlanChanger = RequestOrigin & {
  /** The acting user (a partner token's owner, a signed-in administrator); null for the CLI. */
  userId: number | null;
  /** How: `partner token sdk_…`, `admin UI`, `cli (os user …)`. */
  via: string;
};

/**
 * Changes the fields given (null: unlimited, or no plan name or end date) and writes one office
 * log entry with who, what, and the subscription before and after, in one transaction: the
 * office anchors then cover every change. A change to nothing writes nothing.
 */
export async function updateSubscription(
  ctx: AppContext,
  input: TSubscriptionUpdate,
  by: PlanChanger,
): Promise<Subscription> {
  return inTransaction(ctx.db, async () => {
    const before = await readSubscription(ctx);
    const changed = (Object.keys(input) as (keyof TSubscriptionUpdate)[]).filter(
      (field) => input[field] !== undefined && input[field] !== before[field],
    );
    if (changed.length === 0) return before;
    const now = ctx.now();
    const after: Subscription = {
      ...before,
      ...Object.fromEntries(changed.map((f) => [f, input[f]])),
      updated_at: now,
    };
    await ctx.repos.settings.set(SUBSCRIPTION_KEY, JSON.stringify(after), now);
    await logOfficeEvent(ctx, {
      event: 'subscription.changed',
      subject: '/api/partner/subscription',
      userId: by.userId,
      userAgent: by.userAgent,
      ipAddress: by.ipAddress,
      details: {
        fields: changed.sort().join(','),
        before: JSON.stringify(subscriptionFields(before)),
        after: JSON.stringify(subscriptionFields(after)),
        via: by.via,
      },
    });
    return after;
  });
}
