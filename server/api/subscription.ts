import type { Request } from 'express';
import {
  SUBSCRIPTION_READ_ONLY_FIELDS,
  ZSubscriptionSchema,
  ZSubscriptionUpdateSchema,
  ZSubscriptionUsageSchema,
  type TSubscription,
} from '../../shared/api/subscription';
import type { Principal } from '../core/actor';
import type { Actor } from '../core/actor';
import type { RouteContext } from '../http/route';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { requestOrigin } from '../activity/log-activity';
import { readPlanUsage } from '../subscription/plan-usage';
import { readSubscription, type Subscription } from '../subscription/subscription-record';
import { updateSubscription, type PlanChanger } from '../subscription/update-subscription';

export function presentSubscription(ctx: RouteContext, plan: Subscription): TSubscription {
  return {
    self: '/api/partner/subscription',
    plan_name: plan.plan_name,
    seats: plan.seats,
    contracts_per_month: plan.contracts_per_month,
    sms_per_month: plan.sms_per_month,
    end_date: plan.end_date,
    updated_time: ctx.timestampOrNull(plan.updated_at),
  };
}

/** Who changes the plan, for the office log: the acting user, their address, and the token or session used. */
export async function planChangerOf(
  ctx: RouteContext,
  req: Request,
  principal: Principal,
  actor: Actor,
): Promise<PlanChanger> {
  const token = principal.tokenId === undefined ? undefined : await ctx.repos.tokens.findById(principal.tokenId);
  const via = token ? `${token.kind} token ${token.publicId}` : 'admin UI';
  return { ...requestOrigin(req), userId: actor.id, via };
}

const tag = 'Partner';

export const subscriptionRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/partner/subscription',
    operationId: 'getSubscription',
    summary: "The office's subscription: plan name, limits (null: unlimited) and end date",
    tag,
    access: 'partner',
    responses: { 200: { description: 'The subscription', schema: ZSubscriptionSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, presentSubscription(ctx, await readSubscription(ctx))),
  }),
  defineRoute({
    method: 'put',
    path: '/api/partner/subscription',
    operationId: 'updateSubscription',
    summary: 'Change the plan: only the fields sent change; null makes a limit unlimited',
    description:
      "Limits count the office's calendar month in its time zone: contracts sent and SMS queued; seats are the users active at once. Lowering a limit below what is used refuses the next send or activation and takes nothing back. Every change is in the office log with who made it and the plan before and after.",
    tag,
    access: 'partner',
    body: ZSubscriptionUpdateSchema,
    readOnlyFields: SUBSCRIPTION_READ_ONLY_FIELDS,
    example: {
      body: {
        plan_name: 'Small office',
        seats: 5,
        contracts_per_month: 100,
        sms_per_month: 50,
        end_date: '2027-06-30',
      },
    },
    responses: { 200: { description: 'The subscription', schema: ZSubscriptionSchema } },
    handler: async ({ req, res, ctx, body, act, principal, actor }) => {
      const changer = await planChangerOf(ctx, req, principal, actor);
      sendJson(res, 200, presentSubscription(ctx, await act(updateSubscription, body, changer)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/partner/subscription/usage',
    operationId: 'getSubscriptionUsage',
    summary: "This month's use of the plan: contracts sent, SMS, active users, and when the month turns",
    tag,
    access: 'partner',
    responses: { 200: { description: 'The usage', schema: ZSubscriptionUsageSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await readPlanUsage(ctx)),
  }),
];
