import type { TContractSend } from '../../../shared/api/contracts';
import type { AppContext } from '../../context';
import type { ContractRow } from '../../db/repos/contracts';
import { inTransaction } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { Actor } from '../../http/request-context';
import { findDraft } from './find-draft';
import { logActivity, type RequestOrigin } from './log-activity';

/**
 * Sends a draft: from here on the contract and its parts are read-only. The state change and
 * its log entry commit together. Invitations (unless `silent`) and `auto_sign` are added to
 * this transaction by the signing flow.
 */
export function sendContract(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  _options: TContractSend,
  origin: RequestOrigin,
): ContractRow {
  return inTransaction(ctx.db, () => {
    const contract = findDraft(ctx, contractId);
    const answering = ctx.repos.parties.listInContract(contractId).filter((party) => party.signType !== 'VIEWER');
    if (answering.length === 0) {
      throw new AppError('conflict', 'The contract has no party that signs or approves; add one before sending.');
    }
    const now = ctx.now();
    const sent = ctx.repos.contracts.changeStatus(contract, 'sent', { sentAt: now, updatedAt: now });
    logActivity(ctx, { contractId, event: 'contract.sent', userId: actor.id, ...origin });
    return sent;
  });
}
