import type { TSigningAccept } from '../../shared/api/signing';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { notFound } from '../core/errors';
import type { RequestOrigin } from '../activity/log-activity';
import { commitAcceptances } from './commit-acceptances';
import { readFieldValues } from './field-values';
import { checkCanAnswer } from './party-access';
import { readMark } from './read-mark';

/** A party signs (or approves) from its signing page, with the values of its fields. */
export async function acceptAsParty(
  ctx: AppContext,
  party: PartyRow,
  input: TSigningAccept,
  origin: RequestOrigin,
  authentication: string,
): Promise<void> {
  const contract = await ctx.repos.contracts.findById(party.contractId);
  if (!contract) throw notFound('contract');
  checkCanAnswer(ctx, contract, party, await ctx.repos.parties.listInContract(contract.id));
  const today = ctx.timestamp(ctx.now()).slice(0, 10);
  const { values, files } = readFieldValues(
    await ctx.repos.annotations.listOfParty(party.id),
    party,
    input.fields,
    today,
  );
  const mark = await readMark(ctx, party, input.mark);
  await commitAcceptances(
    ctx,
    contract.id,
    [{ partyId: party.id, values, files, signatureName: input.signatureName.trim(), mark, origin, authentication }],
    {
      check: (current, parties) => {
        const self = parties.find((candidate) => candidate.id === party.id);
        if (!self) throw notFound('party');
        checkCanAnswer(ctx, current, self, parties);
      },
    },
  );
}
