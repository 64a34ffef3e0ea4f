import type { TPartyDelegation } from '../../shared/api/parties';
import type { AppContext } from '../context/app-context';
import type { PartyChanges, PartyRow } from '../db/repos/parties';
import { AppError, notFound, validationFailed } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { contactProblems } from '../contracts/save-party';
import type { RequestOrigin } from '../activity/log-activity';
import { checkCanAnswer } from './party-access';
import { reissueParty } from './reissue-party';

/** How the activity log names a person: name and where they are reached. */
const personOf = (person: Pick<PartyRow, 'name' | 'email' | 'mobilePhone'>) =>
  [person.name, person.email, person.mobilePhone].filter((part) => part !== '').join(', ');

/**
 * POST /sign/<token>/delegate: a party of a contract that allows it (allow_delegation) hands its
 * turn to another person, from its own link and with a reason. In one transaction, with the
 * same checks as an answer (its turn, not answered, not expired or withdrawn): the party becomes
 * the new person (name, e-mail, mobile; no user or identity number of the old one), gets a new
 * link (the old one stops working at once), the activity log records who handed over to whom and
 * why (party.delegated, raising contract.party_delegated), and the new person is invited as a
 * corrected party would be.
 */
export async function delegateParty(
  ctx: AppContext,
  partyId: number,
  input: TPartyDelegation,
  origin: RequestOrigin,
): Promise<PartyRow> {
  return inTransaction(ctx.db, async () => {
    const party = await ctx.repos.parties.findById(partyId);
    const contract = party ? await ctx.repos.contracts.findById(party.contractId) : undefined;
    if (!party || !contract) throw notFound('party');
    if (!contract.allowDelegation)
      throw new AppError('contract-state', 'This document does not allow handing your turn to someone else.');
    checkCanAnswer(ctx, contract, party, await ctx.repos.parties.listInContract(contract.id));

    const email = input.email?.trim() ?? '';
    const mobilePhone = input.mobile_phone?.trim() ?? '';
    const name = input.name.trim();
    if (email === '' && mobilePhone === '')
      throw validationFailed(['email: an e-mail address or a mobile_phone is required to reach the new person']);
    const problems: string[] = [];
    if (contract.requireAuth === 'EMAIL_CODE' && email === '')
      problems.push('email: is required: the document asks for a code by e-mail');
    if (contract.requireAuth === 'SMS_CODE' && mobilePhone === '')
      problems.push('mobile_phone: is required: the document asks for a code by SMS');
    if (name === party.name && email === party.email && mobilePhone === party.mobilePhone)
      problems.push('name: the new person must be someone else');
    const deliveryMethod = email !== '' && mobilePhone !== '' ? 'EMAIL_AND_SMS' : email !== '' ? 'EMAIL' : 'SMS';
    const changes: PartyChanges = { name, email, mobilePhone, deliveryMethod, identityNumber: '', userId: null };
    problems.push(...contactProblems({ ...party, ...changes } as PartyRow));
    if (problems.length > 0) throw validationFailed(problems);

    return reissueParty(ctx, contract, party, {
      changes,
      event: 'party.delegated',
      details: { from: personOf(party), to: personOf({ name, email, mobilePhone }), reason: input.reason.trim() },
      origin,
      partyId: party.id,
    });
  });
}
