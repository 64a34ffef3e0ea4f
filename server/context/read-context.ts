import type { ReadRepos } from '../db/repos/read-view';
import type { AppContext } from './app-context';

/**
 * The context of code that only reads: everything of AppContext but the database, the key
 * store and the repositories' writes. A route's handler gets one built at run time (http/route-view.ts),
 * presenters and finders take one, and the full AppContext is one too.
 */
export type ReadContext = Omit<AppContext, 'db' | 'repos' | 'keys'> & { readonly repos: ReadRepos };
