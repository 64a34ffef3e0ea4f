import type http from 'node:http';

/**
 * Which listener a request came in on: `party` for the party listener (PUBLIC_PORT, through
 * its gate, http/public-gate.ts), `office` for the office listener (HOST:PORT), which serves
 * everything. Both listeners run the one app; what differs by surface (the health answer's
 * `surface`, the base of problem types) asks here. Without PUBLIC_PORT every request is the
 * office's.
 */
export type Surface = 'party' | 'office';

const partyRequests = new WeakSet<http.IncomingMessage>();

export function markPartyRequest(req: http.IncomingMessage): void {
  partyRequests.add(req);
}

export function surfaceOf(req: http.IncomingMessage): Surface {
  return partyRequests.has(req) ? 'party' : 'office';
}
