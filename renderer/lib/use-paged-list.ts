import { useState } from 'react';
import { getPage, type Page } from './api';
import { useLoad, type Loaded } from './use-load';

export type PagedList<T> = Loaded<Page<T>> & { goTo: (path: string) => void };

/**
 * One page of a list API at a time, starting at `firstPath` and following its Link pages;
 * a new `firstPath` (other filters) starts again at its first page. Undefined: not loadable
 * yet, shown as loading.
 */
export function usePagedList<T>(firstPath: string | undefined, options: { pollMs?: number } = {}): PagedList<T> {
  const [cursor, setCursor] = useState({ first: firstPath, path: firstPath });
  // Derived state, reset while rendering: the filters changed, so page 1 of the new list.
  if (cursor.first !== firstPath) setCursor({ first: firstPath, path: firstPath });
  const path = cursor.first === firstPath ? cursor.path : firstPath;
  const loaded = useLoad((signal) => (path ? getPage<T>(path, signal) : Promise.resolve(undefined)), [path], options);
  return {
    ...loaded,
    isLoading: path === undefined || loaded.isLoading,
    goTo: (next) => setCursor({ first: firstPath, path: next }),
  };
}
