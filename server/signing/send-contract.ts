import type { TContractSend } from '../../shared/api/contracts';
import type { AppContext } from '../core/context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { AppError, validationFailed } from '../core/errors';
import type { Actor } from '../http/request-context';
import { commitAcceptances, type Acceptance } from './commit-acceptances';
import { defaultValues } from './field-values';
import { DEFAULT_MARK } from './read-mark';
import { assertDraft } from '../contracts/assert-draft';
import { findDraft } from '../contracts/find-draft';
import type { RequestOrigin } from '../activity/log-activity';

/** What must hold for a draft to go out; checked again inside the sending transaction. */
function checkSendable(ctx: AppContext, contract: ContractRow, parties: readonly PartyRow[]): void {
  assertDraft(contract);
  const answering = parties.filter((party) => party.signType !== 'VIEWER');
  if (answering.length === 0) {
    throw new AppError('conflict', 'The contract has no party that signs or approves; add one before sending.');
  }
  const problems: string[] = [];
  if (contract.expireAt !== null && contract.expireAt <= ctx.now()) problems.push('expire_time: is in the past');
  // Viewers too: under a code the link of every party opens only with one.
  for (const party of parties) {
    if (contract.requireAuth === 'EMAIL_CODE' && !party.email)
      problems.push(`parties.${party.id}.email: is needed for require_auth EMAIL_CODE`);
    if (contract.requireAuth === 'SMS_CODE' && !party.mobilePhone) {
      problems.push(`parties.${party.id}.mobile_phone: is needed for require_auth SMS_CODE`);
    }
  }
  if (problems.length > 0) throw validationFailed(problems);
}

/**
 * Sends a draft: from here on the contract and its parts are read-only. In one transaction:
 * the state change, its log entry, the invitations (unless `silent`) of the parties in turn and
 * every viewer, and with `auto_sign` the acceptance of the parties whose user is the acting user
 * (which may sign the contract at once).
 */
export async function sendContract(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  options: TContractSend,
  origin: RequestOrigin,
): Promise<ContractRow> {
  const contract = findDraft(ctx, contractId, actor);
  const parties = ctx.repos.parties.listInContract(contractId);
  checkSendable(ctx, contract, parties);
  const today = ctx.timestamp(ctx.now()).slice(0, 10);
  const annotations = options.auto_sign ? ctx.repos.annotations.listInContract(contractId) : [];
  const acceptances: Acceptance[] = options.auto_sign
    ? parties
        .filter((party) => party.userId === actor.id && party.signType !== 'VIEWER')
        .map((party) => ({
          partyId: party.id,
          values: defaultValues(annotations, party, today),
          signatureName: party.name,
          mark: party.signType === 'DEFAULT' ? DEFAULT_MARK : undefined,
          origin,
          authentication: 'AUTO_SIGN',
          userId: actor.id,
        }))
    : [];
  return commitAcceptances(ctx, contractId, acceptances, {
    check: (current, currentParties) => checkSendable(ctx, current, currentParties),
    send: { isSilent: options.silent ?? false, isAutoSign: options.auto_sign ?? false, userId: actor.id, origin },
  });
}
