import type { Actor } from '../core/actor';
import { isOwnerOrAdmin, ownerScope } from './actors';

/**
 * Templates an ordinary user may see: the published ones (the office's) and their own drafts.
 * Administrators see every template. A list asks the repository for the same rule in SQL with
 * `templateListScope` (db/repos/templates.ts, `visibleWhere`: published, or made by the scope).
 */
export const maySeeTemplate = (actor: Actor, template: { isPublished: boolean; createdBy: number }): boolean =>
  template.isPublished || isOwnerOrAdmin(actor, template);

/** The user whose templates a list adds to the published ones; undefined (every template) for an administrator. */
export const templateListScope = (actor: Actor): number | undefined => ownerScope(actor);

/**
 * A template the actor may change or delete: an administrator any, an ordinary user their own.
 * A published template of someone else is seen but not theirs to change (403, not 404).
 */
export const mayChangeTemplate = (actor: Actor, template: { createdBy: number }): boolean =>
  isOwnerOrAdmin(actor, template);
