import type { SigningStage } from '../../shared/api/signing';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { AppError, notFound } from '../core/errors';
import { isExpired } from './party-access';
import { turnOf } from './party-turns';
import { isInTurn } from '../../shared/signing-order';

/** What one request on a signing link may see, decided in one place for every endpoint of the link. */
export type LinkAccess = {
  contract: ContractRow;
  /** Every party of the contract, in signing order. */
  parties: PartyRow[];
  /**
   * Where the party stands. `needs-code`: the contract requires a one-time code and this
   * browser has not entered one lately, whatever the stage behind it (before its turn,
   * answered, complete, rejected, expired): the code guards the link for its whole life.
   */
  stage: SigningStage;
  /** The document, its attachments, the party's fields and (once sealed) the signed PDF. */
  maySeeDocument: boolean;
  /** Identified by a code this session, or no code needed: may answer when its stage allows. */
  isIdentified: boolean;
};

/** The stage of a party that is identified (or needs no code). */
function stageBehindCode(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  parties: readonly PartyRow[],
): SigningStage {
  if (contract.status === 'signed') return 'completed';
  if (contract.status === 'rejected') return party.rejectedAt === null ? 'closed-rejected' : 'rejected';
  if (contract.withdrawnAt !== null) return 'withdrawn';
  if (isExpired(ctx, contract)) return 'expired';
  if (party.isAccept) return 'accepted';
  if (party.signType !== 'VIEWER' && !isInTurn(turnOf(party), parties.map(turnOf), contract.partyOrderDefined))
    return 'waiting-turn';
  return 'ready';
}

/**
 * The one decision of what a request on a party's link may see. A draft's link shows nothing
 * (it is not out yet); under EMAIL_CODE / SMS_CODE a browser without a live verified session
 * sees only what the code page needs; otherwise the party sees its document in every stage but
 * an expired or withdrawn link's.
 */
export async function decideLinkAccess(
  ctx: AppContext,
  party: PartyRow,
  hasVerifiedSession: boolean,
): Promise<LinkAccess> {
  const contract = await ctx.repos.contracts.findById(party.contractId);
  if (!contract) throw notFound('contract');
  const parties = await ctx.repos.parties.listInContract(contract.id);
  if (contract.status === 'draft')
    return { contract, parties, stage: 'draft', maySeeDocument: false, isIdentified: false };
  const isIdentified = contract.requireAuth === 'NONE' || hasVerifiedSession;
  if (!isIdentified) return { contract, parties, stage: 'needs-code', maySeeDocument: false, isIdentified };
  const stage = stageBehindCode(ctx, contract, party, parties);
  // An expired or withdrawn link stops serving the document: the page says why, and no more.
  return { contract, parties, stage, maySeeDocument: stage !== 'expired' && stage !== 'withdrawn', isIdentified };
}

/** Refuses (403) a request for the document or its files that the link may not see now. */
export function requireDocumentSight(access: LinkAccess): void {
  if (access.maySeeDocument) return;
  if (access.stage === 'expired') throw new AppError('contract-state', 'The signing link has expired.');
  if (access.stage === 'withdrawn') throw new AppError('contract-state', 'The sender withdrew this document.');
  throw new AppError(
    'forbidden',
    access.stage === 'needs-code'
      ? 'Enter the one-time code on the signing page first.'
      : 'Open the document from the signing page first.',
  );
}

/** Refuses (403) an answer from a browser that has not entered the code the contract requires. */
export function requireIdentified(access: LinkAccess): void {
  if (!access.isIdentified && access.stage === 'needs-code') throw new AppError('forbidden', 'Enter your code first.');
}
