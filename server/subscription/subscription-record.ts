import { z } from 'zod';
import { ZSubscriptionUpdateSchema } from '../../shared/api/subscription';
import type { ReadContext } from '../context/read-context';

/** The settings key the subscription is kept under, as one JSON object. */
export const SUBSCRIPTION_KEY = 'subscription';

/** The subscription as stored: the API's fields, every limit null (unlimited) unless set. */
export type Subscription = {
  plan_name: string | null;
  seats: number | null;
  contracts_per_month: number | null;
  sms_per_month: number | null;
  end_date: string | null;
  /** When it was last changed (ms); null: never set. */
  updated_at: number | null;
};

/** What every office has until its partner sets a plan: no limits at all. */
export const NO_SUBSCRIPTION: Subscription = Object.freeze({
  plan_name: null,
  seats: null,
  contracts_per_month: null,
  sms_per_month: null,
  end_date: null,
  updated_at: null,
});

const ZStoredSchema = ZSubscriptionUpdateSchema.extend({ updated_at: z.number().int().nullable().optional() });

/**
 * The office's subscription, read afresh each time (one keyed read): a change made by the CLI
 * beside the running server counts at once. A stored value that does not read as one (edited
 * by hand) restricts nothing, as no subscription does, and says so in the log.
 */
export async function readSubscription(ctx: ReadContext): Promise<Subscription> {
  const text = await ctx.repos.settings.get(SUBSCRIPTION_KEY);
  if (text === undefined) return NO_SUBSCRIPTION;
  let parsed: ReturnType<typeof ZStoredSchema.safeParse>;
  try {
    parsed = ZStoredSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = ZStoredSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    ctx.logger.error({ key: SUBSCRIPTION_KEY }, 'the stored subscription cannot be read; no plan limits apply');
    return NO_SUBSCRIPTION;
  }
  return { ...NO_SUBSCRIPTION, ...parsed.data };
}

/** The subscription's fields without its time, for the office log's before and after. */
export function subscriptionFields(subscription: Subscription): Omit<Subscription, 'updated_at'> {
  const { updated_at: _updatedAt, ...fields } = subscription;
  return fields;
}
