import type { AppContext } from '../core/context';
import type { ContractRow } from '../db/repos/contracts';
import { notFound } from '../core/errors';
import { assertDraft } from './assert-draft';

/** The contract a change is made to: it must exist (404) and still be a draft (409). */
export function findDraft(ctx: AppContext, contractId: number): ContractRow {
  const contract = ctx.repos.contracts.findById(contractId);
  if (!contract) throw notFound('contract');
  assertDraft(contract);
  return contract;
}

/** The contract a read is made of: it must exist (404). */
export function findContract(ctx: AppContext, contractId: number): ContractRow {
  const contract = ctx.repos.contracts.findById(contractId);
  if (!contract) throw notFound('contract');
  return contract;
}
