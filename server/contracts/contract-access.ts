import type { AppContext } from '../core/context';
import type { ContractRow } from '../db/repos/contracts';
import { notFound } from '../core/errors';
import type { Actor } from '../http/request-context';
import { findContract } from './find-draft';

/** Administrators see every contract; an ordinary user (CUSTOMER_USER) only the ones they created. */
export const maySeeContract = (actor: Pick<Actor, 'id' | 'isAdmin'>, contract: Pick<ContractRow, 'createdBy'>) =>
  actor.isAdmin || contract.createdBy === actor.id;

/**
 * The contract an acting user may work on: it must exist and be theirs to see; another user's
 * contract answers 404, as one that does not exist, so its id tells nothing.
 */
export function findOwnContract(ctx: AppContext, contractId: number, actor: Pick<Actor, 'id' | 'isAdmin'>): ContractRow {
  const contract = findContract(ctx, contractId);
  if (!maySeeContract(actor, contract)) throw notFound('contract');
  return contract;
}

/** The user filter of a list an acting user may see: ordinary users see their own contracts only. */
export const visibleUserId = (actor: Pick<Actor, 'id' | 'isAdmin'>, asked: number | undefined): number | undefined =>
  actor.isAdmin ? asked : actor.id;
