import type { TUser } from '../../shared/api/users';
import { getPage } from './api';
import { useSignedIn } from './session';
import { useLoad } from './use-load';

type Named = { firstname: string; lastname: string; username: string };

/** A person's name as people read it: their full name, else their username. */
export const displayName = (user: Named): string =>
  [user.firstname, user.lastname].filter(Boolean).join(' ').trim() || user.username;

/**
 * Names for user paths (`/api/users/3` -> "Karin Ek"): the signed-in user always, every user for
 * an administrator (who may read the users); undefined for a user this account cannot see.
 */
export function useUserNames(): {
  nameOf: (path: string | null | undefined) => string | undefined;
  users: TUser[] | undefined;
} {
  const session = useSignedIn();
  const loaded = useLoad(
    (signal) => (session.is_admin ? getPage<TUser>('/api/users?per_page=100', signal) : Promise.resolve(undefined)),
    [session.is_admin],
  );
  const users = loaded.data?.items;
  const nameOf = (path: string | null | undefined) => {
    if (!path) return undefined;
    if (path === session.user.self) return displayName(session.user);
    const user = users?.find((candidate) => candidate.self === path);
    return user ? displayName(user) : undefined;
  };
  return { nameOf, users: session.is_admin ? (users ?? []) : undefined };
}
