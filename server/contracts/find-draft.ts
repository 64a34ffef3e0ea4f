import type { ReadContext } from '../context/read-context';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { notFound } from '../core/errors';
import type { Actor } from '../core/actor';
import { maySeeContract } from '../policies/contracts';
import { assertDraft } from './assert-draft';

/** The contract a read is made of: it must exist and be the actor's to see (404). */
export async function findContract(ctx: ReadContext, contractId: number, actor: Actor): Promise<ContractRow> {
  const contract = await ctx.repos.contracts.findById(contractId);
  if (!contract || !maySeeContract(actor, contract)) throw notFound('contract');
  return contract;
}

/** The contract a change is made to: it must exist, be the actor's (404) and still be a draft (409). */
export async function findDraft(ctx: AppContext, contractId: number, actor: Actor): Promise<ContractRow> {
  const contract = await findContract(ctx, contractId, actor);
  assertDraft(contract);
  return contract;
}
