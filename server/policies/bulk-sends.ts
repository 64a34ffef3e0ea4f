import type { Actor } from '../core/actor';
import { isOwnerOrAdmin, ownerScope } from './actors';

/** An ordinary user sees (and lists) only their own bulk sends; someone else's is as good as none (404). */
export const maySeeBulkSend = (actor: Actor, batch: { createdBy: number }): boolean => isOwnerOrAdmin(actor, batch);

/** A bulk-send list's owner filter: undefined (every batch) for an administrator. */
export const bulkSendListScope = (actor: Actor): number | undefined => ownerScope(actor);
