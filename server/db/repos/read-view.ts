import type { Repos } from './index';

/**
 * Each repository's read methods, listed once: what a route may call (docs/decisions.md,
 * "Layout"). Every other method writes, and a write is a domain service's, where the
 * transaction, the activity log and the events are. A new read method a route needs is added
 * here; a new repository too (`satisfies` fails until it is).
 */
export const REPOSITORY_READS = {
  office: ['get'],
  users: ['findById', 'findActor', 'findByUsername', 'count', 'countMatching', 'firstMatching', 'listPage'],
  tokens: ['findForAuth', 'findById', 'count', 'listPage', 'ownerUsername'],
  templates: ['findById', 'count', 'listPage'],
  templateFields: [
    'findInTemplate',
    'countInTemplate',
    'roleCount',
    'listInTemplate',
    'listPage',
    'waitingRoles',
    'listWaiting',
  ],
  bulkSends: ['findById', 'findRow', 'rowsOf', 'count', 'listPage'],
  jobs: ['nextDueAt', 'countPending', 'plannedAt'],
  outbox: ['findById', 'countPending', 'count', 'listPage'],
  settings: ['get', 'getMany'],
  files: ['getFile', 'readFile', 'getSha256'],
  contracts: ['findById', 'total', 'countByStatus', 'listPage'],
  contractMetadata: ['listOf'],
  parties: [
    'findInContract',
    'findById',
    'findBySignTokenHash',
    'countInContract',
    'maxSignOrder',
    'listInContract',
    'listPage',
  ],
  annotations: ['findInContract', 'countInContract', 'listInContract', 'listOfParty', 'listPage', 'fileIdOf'],
  attachments: ['findInContract', 'countInContract', 'listInContract', 'listPage'],
  activity: ['head', 'countInContract', 'listChain', 'listPage', 'contractsWithUnchained', 'unchainedOf'],
  seals: [
    'find',
    'findBySealedSha256',
    'findBySealedContent',
    'countPending',
    'pendingContractIds',
    'latestTimestamped',
    'isSealCertificate',
    'signedWithout',
    'renewalProgress',
  ],
  partyCodes: ['find'],
  partyMarks: ['listOf', 'find'],
  webhookConsumers: ['findById', 'count', 'listPage', 'countPermanentError'],
  webhookDeliveries: ['isInTransaction', 'recipients', 'holdingConsumers', 'countInState'],
  webhookLog: ['listPage', 'count', 'find', 'attemptsOf'],
  adminSessions: ['findByHash'],
  idempotency: ['find'],
  usage: ['monthCount', 'activeUsers'],
  secondFactors: ['findTotp', 'countUnusedRecoveryCodes'],
  ssoAttempts: [],
  officeEvidence: [
    'officeHead',
    'listOfficeLog',
    'maxActivityId',
    'changedContractHeads',
    'latestAnchor',
    'listAnchors',
    'listAnchorHeads',
  ],
} as const satisfies { [K in keyof Repos]: readonly (keyof Repos[K])[] };

type ReadsOf<R, Reads extends PropertyKey> = { readonly [M in keyof R & Reads]: R[M] };

/**
 * The repositories as a route sees them: their read methods only. `readRepositories` makes
 * such an object at run time, so a write is not there to call, whatever a cast says.
 */
export type ReadRepos = { readonly [K in keyof Repos]: ReadsOf<Repos[K], (typeof REPOSITORY_READS)[K][number]> };

/** A new object holding only the read methods of each repository (REPOSITORY_READS). */
export function readRepositories(repos: Repos): ReadRepos {
  const view: Record<string, unknown> = {};
  for (const [name, reads] of Object.entries(REPOSITORY_READS)) {
    const repository = repos[name as keyof Repos] as Record<string, unknown>;
    const readOnly: Record<string, unknown> = {};
    for (const method of reads) readOnly[method] = repository[method];
    view[name] = Object.freeze(readOnly);
  }
  return Object.freeze(view) as ReadRepos;
}
