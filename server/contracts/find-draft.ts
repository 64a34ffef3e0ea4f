import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { notFound } from '../core/errors';
import type { Actor } from '../core/actor';
import { assertDraft } from './assert-draft';

/**
 * Whether a user may see (and, while a draft, change) a contract: administrators every one,
 * ordinary users those they created. Another user's contract answers as no contract at all
 * (404), so its id is not confirmed.
 */
export const isContractVisible = (actor: Actor, contract: Pick<ContractRow, 'createdBy'>): boolean =>
  actor.isAdmin || contract.createdBy === actor.id;

/** The contract a read is made of: it must exist and be the actor's to see (404). */
export function findContract(ctx: AppContext, contractId: number, actor: Actor): ContractRow {
  const contract = ctx.repos.contracts.findById(contractId);
  if (!contract || !isContractVisible(actor, contract)) throw notFound('contract');
  return contract;
}

/** The contract a change is made to: it must exist, be the actor's (404) and still be a draft (409). */
export function findDraft(ctx: AppContext, contractId: number, actor: Actor): ContractRow {
  const contract = findContract(ctx, contractId, actor);
  assertDraft(contract);
  return contract;
}

/** No user has id 0: the user filter that finds nothing. */
export const NOBODY = 0;

/**
 * A list's user filter as the actor may use it: an administrator's as asked, an ordinary
 * user's always their own (asking for another user's contracts finds none).
 */
export function visibleUserFilter(actor: Actor, asked: number | undefined): number | undefined {
  if (actor.isAdmin) return asked;
  return asked === undefined || asked === actor.id ? actor.id : NOBODY;
}
