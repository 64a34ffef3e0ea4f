import { z } from 'zod';
import { shortText, ZTimestampSchema } from './common';

/**
 * The office's subscription, as its IT partner sets it through the partner API (or the office
 * itself, in the admin UI or with the CLI). Every limit may be null: unlimited. A new office,
 * and every office from before subscriptions, has no limits at all.
 */
export const PLAN_LIMITS = ['seats', 'contracts_per_month', 'sms_per_month'] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];

/** What a plan-limit problem and a warning name: a limit, or the plan's end. */
export const PLAN_CHECKS = [...PLAN_LIMITS, 'end_date'] as const;
export type PlanCheck = (typeof PLAN_CHECKS)[number];

/** The largest limit anyone would set; a guard against typing slips, not a product rule. */
export const MAX_PLAN_LIMIT = 10_000_000;

const limit = (description: string, minimum: number) =>
  z
    .number()
    .int()
    .min(minimum)
    .max(MAX_PLAN_LIMIT)
    .nullable()
    .meta({ description: `${description}; null: unlimited`, example: 100 });

const dateText = z.iso
  .date('must be a date of the form YYYY-MM-DD')
  .meta({ description: 'A date, YYYY-MM-DD', example: '2027-06-30' });

const fields = {
  plan_name: shortText()
    .nullable()
    .meta({ description: "The plan's name as the partner bills it; null: none", example: 'Small office' }),
  seats: limit('Users that may be active at once (administrators included)', 1),
  contracts_per_month: limit("Contracts that may be sent per calendar month in the office's time zone", 0),
  sms_per_month: limit("SMS that may be sent per calendar month in the office's time zone", 0),
  end_date: dateText.nullable().meta({
    description:
      "The last day the plan covers (in the office's time zone); from the next day sending stops until it is extended. null: no end",
    example: '2027-06-30',
  }),
};

export const ZSubscriptionSchema = z
  .object({
    self: z.literal('/api/partner/subscription'),
    ...fields,
    updated_time: ZTimestampSchema.nullable().meta({ description: 'When it was last changed; null: never set' }),
  })
  .meta({ id: 'PartnerSubscription' });

export const ZSubscriptionUpdateSchema = z
  .strictObject({
    plan_name: fields.plan_name.optional(),
    seats: fields.seats.optional(),
    contracts_per_month: fields.contracts_per_month.optional(),
    sms_per_month: fields.sms_per_month.optional(),
    end_date: fields.end_date.optional(),
  })
  .meta({ id: 'PartnerSubscriptionUpdate' });

const ZAllowanceSchema = z
  .object({
    used: z.number().int().min(0),
    allowed: z.number().int().nullable().meta({ description: 'The limit; null: unlimited' }),
  })
  .meta({ id: 'PartnerAllowance' });

export const ZPlanWarningSchema = z
  .object({
    check: z.enum(PLAN_CHECKS).meta({ description: 'The limit at 80 % or more of its use, or end_date' }),
    used: z.number().int().nullable().meta({ description: 'What is used of the limit; null for end_date' }),
    allowed: z.number().int().nullable().meta({ description: 'The limit; null for end_date' }),
    end_date: dateText.nullable().meta({ description: 'For end_date: the last day of the plan' }),
    days_left: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'For end_date: days until the plan ends (0: ends today; negative: ended)' }),
    is_reached: z
      .boolean()
      .meta({ description: 'The limit is used up, or the plan has ended: the next one is refused' }),
  })
  .meta({ id: 'PartnerPlanWarning' });

export const ZSubscriptionUsageSchema = z
  .object({
    self: z.literal('/api/partner/subscription/usage'),
    plan_name: z.string().nullable(),
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .meta({ description: "This calendar month in the office's time zone, YYYY-MM", example: '2026-12' }),
    month_start_time: ZTimestampSchema.meta({ description: 'When this month began' }),
    month_turns_time: ZTimestampSchema.meta({
      description: 'When the next month begins: the monthly allowances reset',
    }),
    contracts_sent: ZAllowanceSchema.meta({ description: 'Contracts sent this month, against contracts_per_month' }),
    sms: ZAllowanceSchema.meta({ description: 'SMS queued this month, against sms_per_month' }),
    seats: ZAllowanceSchema.meta({ description: 'Active users now, against seats' }),
    end_date: dateText.nullable(),
    is_ended: z.boolean().meta({ description: 'The end date has passed: sending is stopped' }),
    warnings: z.array(ZPlanWarningSchema).meta({
      description:
        'What the admin UI warns of on every page: a limit at 80 % or more of its use, an end date within 14 days or past',
    }),
  })
  .meta({ id: 'PartnerSubscriptionUsage' });

export const SUBSCRIPTION_READ_ONLY_FIELDS = ['self', 'updated_time'] as const;

export type TSubscription = z.infer<typeof ZSubscriptionSchema>;
export type TSubscriptionUpdate = z.infer<typeof ZSubscriptionUpdateSchema>;
export type TSubscriptionUsage = z.infer<typeof ZSubscriptionUsageSchema>;
export type TPlanWarning = z.infer<typeof ZPlanWarningSchema>;
