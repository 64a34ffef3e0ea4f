import os from 'node:os';
import { parseArgs } from 'node:util';
import { ZSubscriptionUpdateSchema, type TSubscriptionUsage } from '../../shared/api/subscription';
import { APP_VERSION } from '../core/version';
import type { AppContext } from '../context/app-context';
import { readPlanUsage } from '../subscription/plan-usage';
import { readSubscription } from '../subscription/subscription-record';
import { updateSubscription } from '../subscription/update-subscription';
import { UsageError } from './run-cli';

const LIMIT_OPTIONS = {
  'plan-name': 'plan_name',
  seats: 'seats',
  'contracts-per-month': 'contracts_per_month',
  'sms-per-month': 'sms_per_month',
  'end-date': 'end_date',
} as const;

/** `unlimited` and `none` clear a limit, a name or an end date; a number is a limit; anything else is text. */
function optionValue(option: keyof typeof LIMIT_OPTIONS, text: string): unknown {
  if (text === 'unlimited' || text === 'none') return null;
  if (option === 'plan-name' || option === 'end-date') return text;
  return /^[0-9]+$/.test(text) ? Number(text) : text;
}

const limitText = (allowance: { used: number; allowed: number | null }) =>
  allowance.allowed === null ? `${allowance.used} (unlimited)` : `${allowance.used} of ${allowance.allowed}`;

/** The OS account that ran the command: the office log's "who" for a change made on the PC itself. */
function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // An account with no name (a container's bare uid): say which.
    return process.env.USER ?? String(process.getuid?.() ?? 'unknown');
  }
}

/** The plan and this month's usage as lines an office reads on a terminal. */
export function usageLines(usage: TSubscriptionUsage): string[] {
  const lines = [
    `Plan: ${usage.plan_name ?? '(no name)'}`,
    `Seats (active users): ${limitText(usage.seats)}`,
    `Contracts sent in ${usage.month}: ${limitText(usage.contracts_sent)}`,
    `SMS in ${usage.month}: ${limitText(usage.sms)}`,
    `End date: ${usage.end_date ?? 'none'}${usage.is_ended ? ' (ended: sending is stopped)' : ''}`,
    `The month turns at ${usage.month_turns_time}.`,
  ];
  for (const warning of usage.warnings) {
    lines.push(
      warning.check === 'end_date'
        ? `Warning: the plan ${warning.is_reached ? 'ended' : 'ends'} on ${warning.end_date}.`
        : `Warning: ${warning.check} ${warning.used} of ${warning.allowed}${warning.is_reached ? ' (used up)' : ''}.`,
    );
  }
  return lines;
}

/** `subscription show [--json]`: the plan, its limits and this month's usage. */
export async function subscriptionShow(ctx: AppContext, args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
  const usage = await readPlanUsage(ctx);
  if (values.json) {
    const plan = await readSubscription(ctx);
    const { updated_at: updatedAt, ...fields } = plan;
    out(JSON.stringify({ ...fields, updated_time: ctx.timestampOrNull(updatedAt), usage }, null, 2));
    return;
  }
  for (const line of usageLines(usage)) out(line);
}

/**
 * `subscription set --seats 5 --contracts-per-month 100 …`: changes the fields given, in the
 * office log as made by the CLI and the OS account that ran it.
 */
export async function subscriptionSet(ctx: AppContext, args: string[], out: (line: string) => void): Promise<void> {
  const { values } = parseArgs({
    args,
    options: Object.fromEntries(Object.keys(LIMIT_OPTIONS).map((name) => [name, { type: 'string' as const }])),
  });
  const body: Record<string, unknown> = {};
  for (const [option, field] of Object.entries(LIMIT_OPTIONS) as [keyof typeof LIMIT_OPTIONS, string][]) {
    const text = values[option];
    if (typeof text === 'string') body[field] = optionValue(option, text);
  }
  if (Object.keys(body).length === 0)
    throw new UsageError(
      'subscription set needs at least one of --plan-name, --seats, --contracts-per-month, --sms-per-month, --end-date',
    );
  const parsed = ZSubscriptionUpdateSchema.safeParse(body);
  if (!parsed.success) {
    const option = (field: string) => Object.entries(LIMIT_OPTIONS).find(([, name]) => name === field)?.[0] ?? field;
    const lines = parsed.error.issues.map((issue) => `--${option(String(issue.path[0]))}: ${issue.message}`);
    throw new UsageError(`subscription set: ${lines.join('; ')}`);
  }
  await updateSubscription(ctx, parsed.data, {
    userId: null,
    userAgent: `SignDesk CLI ${APP_VERSION}`,
    ipAddress: '',
    via: `cli (os user ${osUser()})`,
  });
  for (const line of usageLines(await readPlanUsage(ctx))) out(line);
}
