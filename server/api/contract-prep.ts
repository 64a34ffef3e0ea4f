import {
  ZContractCountsQuerySchema,
  ZContractCountsSchema,
  ZContractDuplicateSchema,
  ZContractWithdrawSchema,
} from '../../shared/api/contract-actions';
import { ZContractSchema } from '../../shared/api/contracts';
import { ZReminderSettingsUpdateSchema } from '../../shared/api/reminders';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { markPartialSearch } from '../http/pagination';
import { duplicateContract } from '../contracts/duplicate-contract';
import { requestOrigin } from '../activity/log-activity';
import { withdrawContract } from '../signing/withdraw-contract';
import { changeReminders } from '../signing/change-reminders';
import { presentContract } from './contract-presenters';
import { contractListUser, NOBODY } from '../policies/contracts';

const tag = 'Contracts';

/** Preparing and managing contracts beyond the interface: copies, withdrawal, reminders, counts. */
export const contractPrepRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/duplicate',
    operationId: 'duplicateContract',
    summary: 'Copy a contract as a new draft, with its parties, fields and attachments',
    description:
      'Works in any state. The copy has the same PDF, settings and reminders, its parties with new links and no answers, their fields without values, and the attachments; an `expire_time` already past is dropped. The acting user is its author. Answers 201 with the new draft.',
    tag,
    access: 'user',
    body: ZContractDuplicateSchema,
    example: { body: { name: 'Lease agreement (copy)' } },
    isBodyOptional: true,
    responses: { 201: { description: 'The new draft', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      sendJson(
        res,
        201,
        await presentContract(
          ctx,
          await act(duplicateContract, ids.contract_id, body ?? {}, actor, requestOrigin(req)),
        ),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/withdraw',
    operationId: 'withdrawContract',
    summary: 'Withdraw a contract that is out for signing: its links close at once',
    description:
      'Only a sent contract that is not signed, rejected or withdrawn (409 otherwise; delete a draft instead). Signing and rejecting through the links answer 409 from then on and the signing page says the document was withdrawn; reminders stop. Every party that was sent the contract is told by its delivery method (with the `reason`), unless `silent`. The status stays `sent`; `withdrawn_time`, `withdrawn_by` and `withdraw_reason` are set, and `contract.withdrawn` is logged. No webhook event is sent.',
    tag,
    access: 'user',
    body: ZContractWithdrawSchema,
    example: { body: { reason: 'The terms changed; a new contract follows.' } },
    isBodyOptional: true,
    responses: { 200: { description: 'The contract, withdrawn', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      sendJson(
        res,
        200,
        await presentContract(ctx, await act(withdrawContract, ids.contract_id, body ?? {}, actor, requestOrigin(req))),
      );
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contracts/:contract_id/reminders',
    operationId: 'changeContractReminders',
    summary: "Change a contract's automatic reminders and expiry warning, also while it is out for signing",
    description:
      'The one change a sent contract takes. Only the fields sent change; null turns reminders (or the warning) off. The next reminder is planned again at once (`next_reminder_time`). 409 once the contract is signed, rejected, withdrawn or expired.',
    tag,
    access: 'user',
    body: ZReminderSettingsUpdateSchema,
    example: { body: { reminder_interval_days: 3, reminder_max_count: 3, expiry_warning_days: 2 } },
    responses: { 200: { description: 'The contract', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      sendJson(
        res,
        200,
        await presentContract(ctx, await act(changeReminders, ids.contract_id, body, actor, requestOrigin(req))),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contract_counts',
    operationId: 'countContracts',
    summary: 'How many contracts the list holds under each status filter',
    description:
      'Takes the list filters other than `status` (`user`, `name`, `q`, `metadata[key]`). An ordinary user counts their own contracts only. Without a search or metadata filter the totals are kept counts (no rows are read).',
    tag,
    access: 'user',
    query: ZContractCountsQuerySchema,
    responses: { 200: { description: 'The counts', schema: ZContractCountsSchema, isSearch: true } },
    handler: async ({ res, ctx, query, actor }) => {
      const userId = contractListUser(actor, query.user);
      // Another user's contracts are none of an ordinary user's: nothing counted.
      const none = { all: 0, draft: 0, sent: 0, signed: 0, rejected: 0 };
      if (userId === NOBODY) return sendJson(res, 200, none);
      const filter = {
        userId,
        name: query.name || undefined,
        q: query.q || undefined,
        metadata: query.metadata ? Object.entries(query.metadata) : undefined,
      };
      // A search counts on a search thread (server/db/search-pool.ts); without one the counts are kept.
      if (!filter.name && !filter.q) return sendJson(res, 200, await ctx.repos.contracts.countByStatus(filter));
      const { counts, isPartial } = await ctx.search.counts(filter);
      markPartialSearch(res, isPartial);
      sendJson(res, 200, counts);
    },
  }),
];
