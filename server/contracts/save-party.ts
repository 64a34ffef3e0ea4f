import type { TPartyCreate, TPartyUpdate } from '../../shared/api/parties';
import { partyPath } from '../../shared/api/paths';
import { MAX_PARTIES_PER_CONTRACT } from '../../shared/constants';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { PartyChanges, PartyRow } from '../db/repos/parties';
import { AppError, notFound, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import { findDraft } from './find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { newLinkToken } from '../secrets/link-tokens';
import { bindRole } from './role-fields';
import { mayLinkPartyTo } from '../policies/contracts';

type Contact = Pick<PartyRow, 'deliveryMethod' | 'email' | 'mobilePhone'>;

/** A party needs the address its delivery method sends to. */
export function contactProblems(contact: Contact): string[] {
  const lines: string[] = [];
  const method = contact.deliveryMethod;
  if ((method === 'EMAIL' || method === 'EMAIL_AND_SMS') && contact.email === '') {
    lines.push(`email: is required when delivery_method is ${method}`);
  }
  if ((method === 'SMS' || method === 'EMAIL_AND_SMS') && contact.mobilePhone === '') {
    lines.push(`mobile_phone: is required when delivery_method is ${method}`);
  }
  return lines;
}

/**
 * The user a party is linked to (auto_sign signs it for them). An ordinary user may link a
 * party only to themselves: naming others would confirm which user ids exist.
 */
async function userIdOf(
  ctx: AppContext,
  path: string | null | undefined,
  actor: Actor,
): Promise<number | null | undefined> {
  if (path === undefined || path === null) return path;
  const id = Number(path.split('/').at(-1));
  if (!mayLinkPartyTo(actor, id)) throw validationFailed([`user: may only be yourself (${actor.path}) or null`]);
  const user = await ctx.repos.users.findById(id);
  if (!user) throw validationFailed([`user: ${path} is no user`]);
  return user.id;
}

async function changesOf(ctx: AppContext, input: TPartyUpdate, actor: Actor): Promise<PartyChanges> {
  const changes: PartyChanges = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.email !== undefined) changes.email = input.email;
  if (input.mobile_phone !== undefined) changes.mobilePhone = input.mobile_phone;
  if (input.identity_number !== undefined) changes.identityNumber = input.identity_number;
  if (input.delivery_method !== undefined) changes.deliveryMethod = input.delivery_method;
  if (input.sign_type !== undefined) changes.signType = input.sign_type;
  if (input.sign_order !== undefined) changes.signOrder = input.sign_order;
  const userId = await userIdOf(ctx, input.user, actor);
  if (userId !== undefined) changes.userId = userId;
  return changes;
}

export async function createParty(
  ctx: AppContext,
  contractId: number,
  input: TPartyCreate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<PartyRow> {
  const changes = await changesOf(ctx, input, actor);
  const contact: Contact = { deliveryMethod: 'EMAIL', email: '', mobilePhone: '', ...changes };
  const problems = contactProblems(contact);
  if (problems.length > 0) throw validationFailed(problems);
  return inTransaction(ctx.db, async () => {
    const contract = await findDraft(ctx, contractId, actor);
    if ((await ctx.repos.parties.countInContract(contractId)) >= MAX_PARTIES_PER_CONTRACT) {
      throw new AppError('limit-reached', `A contract holds at most ${MAX_PARTIES_PER_CONTRACT} parties.`);
    }
    const now = ctx.now();
    const link = newLinkToken(ctx);
    const party = await ctx.repos.parties.insert({
      ...changes,
      name: changes.name ?? '',
      contractId,
      signOrder: changes.signOrder ?? (await ctx.repos.parties.maxSignOrder(contractId)) + 1,
      // 256 random bits behind the link; only its hash and nonce are stored.
      signTokenHash: link.hash,
      signNonce: link.nonce,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await logActivity(ctx, {
      contractId,
      event: 'party.added',
      subject: partyPath(party),
      userId: actor.id,
      ...origin,
    });
    return bindRole(ctx, contract, party, input.role, actor.id, origin);
  });
}

export async function updateParty(
  ctx: AppContext,
  contractId: number,
  partyId: number,
  input: TPartyUpdate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<PartyRow> {
  const changes = await changesOf(ctx, input, actor);
  return inTransaction(ctx.db, async () => {
    await findDraft(ctx, contractId, actor);
    const party = await ctx.repos.parties.findInContract(contractId, partyId);
    if (!party) throw notFound('party');
    const problems = contactProblems({ ...party, ...changes });
    if (problems.length > 0) throw validationFailed(problems);
    if (Object.keys(changes).length === 0) return party;
    const updated = (await ctx.repos.parties.update(partyId, { ...changes, updatedAt: ctx.now() })) ?? party;
    await logActivity(ctx, {
      contractId,
      event: 'party.changed',
      subject: partyPath(party),
      userId: actor.id,
      ...origin,
    });
    return updated;
  });
}

/** Removes a party and, with it, the annotations that were its to fill. */
export async function deleteParty(
  ctx: AppContext,
  contractId: number,
  partyId: number,
  actor: Actor,
  origin: RequestOrigin,
): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await findDraft(ctx, contractId, actor);
    const party = await ctx.repos.parties.findInContract(contractId, partyId);
    if (!party) throw notFound('party');
    const fields = await ctx.repos.annotations.listOfParty(partyId);
    await ctx.repos.parties.remove(partyId);
    for (const field of fields) {
      const subject = `/api/contracts/${contractId}/annotations/${field.id}`;
      await logActivity(ctx, { contractId, event: 'annotation.removed', subject, userId: actor.id, ...origin });
    }
    await logActivity(ctx, {
      contractId,
      event: 'party.removed',
      subject: partyPath(party),
      userId: actor.id,
      ...origin,
    });
  });
}
