import type { Actor } from '../core/actor';
import { isOwnerOrAdmin } from './actors';

/**
 * Whether a user may see (and, while a draft, change) a contract: administrators every one,
 * ordinary users those they created. Another user's contract answers as no contract at all
 * (404), so its id is not confirmed.
 */
export const maySeeContract = (actor: Actor, contract: { createdBy: number }): boolean =>
  isOwnerOrAdmin(actor, contract);

/** No user has id 0: the user filter that finds nothing. */
export const NOBODY = 0;

/**
 * A contract list's user filter as the actor may use it: an administrator's as asked, an
 * ordinary user's always their own (asking for another user's contracts finds none).
 */
export function contractListUser(actor: Actor, asked: number | undefined): number | undefined {
  if (actor.isAdmin) return asked;
  return asked === undefined || asked === actor.id ? actor.id : NOBODY;
}

/**
 * The user a party may be linked to (auto_sign signs it for them): an administrator any, an
 * ordinary user only themselves, as naming others would confirm which user ids exist.
 */
export const mayLinkPartyTo = (actor: Actor, userId: number): boolean => actor.isAdmin || userId === actor.id;

/** A party linked to the acting user (`user`) is theirs to sign: auto_sign signs it for them at sending. */
export const isActorsParty = (actor: Actor, party: { userId: number | null }): boolean => party.userId === actor.id;
