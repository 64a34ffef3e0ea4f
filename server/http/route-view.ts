import type { AppContext } from '../context/app-context';
import type { ReadContext } from '../context/read-context';
import type { Actor } from '../core/actor';
import { readRepositories, type ReadRepos } from '../db/repos/read-view';
import { contractListUser, maySeeContract } from '../policies/contracts';

/**
 * What a route's handler is given as `ctx` (docs/decisions.md, "Layout"): an object made for
 * it that holds the context's parts but no database and, of the repositories, only their read
 * methods, with the contract and party reads narrowed to what the acting user may see. Nothing
 * in it writes, whatever a cast says; a write is a service's, called through `act`.
 */
export type RouteContext = ReadContext;

/** Runs a domain service with the full context: the one way a route writes. */
export type Act = <Args extends unknown[], Result>(
  service: (ctx: AppContext, ...args: Args) => Result,
  ...args: Args
) => Result;

type ContractReads = ReadRepos['contracts'];
type PartyReads = ReadRepos['parties'];

/** A user's contract reads: another user's contract is no contract at all, lists keep to their own. */
function scopedContracts(contracts: ContractReads, actor: Actor | undefined): ContractReads {
  const user = (asked: number | undefined) => (actor ? contractListUser(actor, asked) : 0);
  return Object.freeze({
    findById: async (id: number) => {
      const row = await contracts.findById(id);
      return row && actor && maySeeContract(actor, row) ? row : undefined;
    },
    listPage: (request, filter, ordering) =>
      contracts.listPage(request, { ...filter, userId: user(filter.userId) }, ordering),
    total: (filter) => contracts.total({ ...filter, userId: user(filter.userId) }),
    countByStatus: (filter) => contracts.countByStatus({ ...filter, userId: user(filter.userId) }),
  } satisfies ContractReads);
}

/** A user's party reads: the parties of the contracts they may see. */
function scopedParties(parties: PartyReads, contracts: ContractReads): PartyReads {
  const isVisible = async (contractId: number) => (await contracts.findById(contractId)) !== undefined;
  const ifVisible = async <T>(contractId: number, read: () => Promise<T>, none: T): Promise<T> =>
    (await isVisible(contractId)) ? read() : none;
  return Object.freeze({
    findInContract: (contractId, partyId) =>
      ifVisible(contractId, () => parties.findInContract(contractId, partyId), undefined),
    findById: async (id) => {
      const party = await parties.findById(id);
      return party && (await isVisible(party.contractId)) ? party : undefined;
    },
    findBySignTokenHash: async (hash) => {
      const party = await parties.findBySignTokenHash(hash);
      return party && (await isVisible(party.contractId)) ? party : undefined;
    },
    countInContract: (contractId) => ifVisible(contractId, () => parties.countInContract(contractId), 0),
    maxSignOrder: (contractId) => ifVisible(contractId, () => parties.maxSignOrder(contractId), 0),
    listInContract: (contractId) => ifVisible(contractId, () => parties.listInContract(contractId), []),
    listPage: (contractId, request) =>
      ifVisible(contractId, () => parties.listPage(contractId, request), {
        rows: [],
        hasMore: false,
        firstValues: undefined,
        lastValues: undefined,
      }),
  } satisfies PartyReads);
}

/** At most this many users' views are kept per set of repositories (an office has fewer staff). */
const KEPT_VIEWS = 1_000;

/**
 * Makes the views of one context: the parts are looked up on the context at each use (a
 * restore replaces its repositories and keys in place), the read methods taken once per set of
 * repositories, and each user's view made once and kept (it depends on nothing but the actor's
 * fields, which are its key) rather than made again for every request.
 */
export function createRouteViews(ctx: AppContext): (actor: Actor | undefined) => RouteContext {
  const base: Record<string, unknown> = {};
  for (const key of Object.keys(ctx) as (keyof AppContext)[]) {
    if (key === 'db' || key === 'repos' || key === 'keys') continue;
    Object.defineProperty(base, key, { get: () => ctx[key], enumerable: true });
  }
  Object.freeze(base);
  const byRepos = new WeakMap<object, { all: ReadRepos; views: Map<string, RouteContext> }>();
  return (actor) => {
    let kept = byRepos.get(ctx.repos);
    if (!kept) byRepos.set(ctx.repos, (kept = { all: readRepositories(ctx.repos), views: new Map() }));
    // Every field of an actor follows from these (policies/actors.ts: actorOf).
    const key = actor ? `${actor.id}:${actor.path}:${actor.permissionTemplate}` : '';
    let view = kept.views.get(key);
    if (!view) {
      if (kept.views.size >= KEPT_VIEWS) kept.views.clear();
      const contracts = scopedContracts(kept.all.contracts, actor);
      const repos: ReadRepos = Object.freeze({
        ...kept.all,
        contracts,
        parties: scopedParties(kept.all.parties, contracts),
      });
      view = Object.freeze(Object.create(base, { repos: { value: repos, enumerable: true } })) as RouteContext;
      kept.views.set(key, view);
    }
    return view;
  };
}
