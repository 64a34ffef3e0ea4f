import type { TTestAnswer } from '../../shared/api/signing';
import type { AppContext } from '../context/app-context';
import { AppError, notFound, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import { findContract } from '../contracts/find-draft';
import type { RequestOrigin } from '../activity/log-activity';
import { acceptAsParty } from './accept-as-party';
import { rejectAsParty } from './reject-as-party';

/** How the audit trail names an answer given this way: never mistaken for the party's own. */
export const TEST_AUTHENTICATION = 'TEST_API';

/**
 * POST …/parties/{party_id}/test_answer: answers for a party of a sent test contract
 * (`test_mode`), with the same checks and the same one transaction as the party's own answer
 * from its signing page (turn, expiry, fields), so an integration's tests walk the whole flow
 * without a browser. Refused (409) for every contract that is not a test contract.
 */
export async function answerAsTest(
  ctx: AppContext,
  contractId: number,
  partyId: number,
  input: TTestAnswer,
  actor: Actor,
  origin: RequestOrigin,
): Promise<void> {
  const contract = await findContract(ctx, contractId, actor);
  if (!contract.isTest) {
    throw new AppError(
      'contract-state',
      `Contract /api/contracts/${contract.id} is not a test contract (test_mode): only its parties can answer, from their links.`,
    );
  }
  const party = await ctx.repos.parties.findById(partyId);
  if (!party || party.contractId !== contract.id) throw notFound('party');
  if (input.answer === 'reject') {
    const cause = input.cause?.trim() ?? '';
    if (cause === '') throw validationFailed(['cause: is required to reject']);
    await rejectAsParty(ctx, party.id, cause, origin, TEST_AUTHENTICATION);
    return;
  }
  await acceptAsParty(
    ctx,
    party,
    { fields: input.fields ?? {}, signatureName: input.signature_name?.trim() || party.name },
    origin,
    TEST_AUTHENTICATION,
  );
}
