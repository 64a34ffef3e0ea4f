import fs from 'node:fs';
import net from 'node:net';
import { ipv6Bytes } from './ip-address';

/**
 * Connection caps for a listener that faces the internet (the party listener, the ACME HTTP-01
 * listener). Every open connection holds a file handle, and the process has one pool of them
 * for everything: the database, the office listener, the PDF workers. Without a cap, 21,000
 * half-open TLS connections to the public port used up the process's handles and the office
 * stopped answering (review 2026-12-07). So:
 * - `total`: connections open at once on this listener (Node's `maxConnections`: one over it is
 *   closed as soon as it is accepted);
 * - `perAddress`: from one client address, or one IPv6 /64 (a client holds a whole /64), except
 *   trusted proxies, through which every client comes.
 * Each cap's refusals are reported (`onRefused`) at once and then at most once a minute while
 * they go on, with counts: a log line when a cap bites, not one per connection.
 */
export type ConnectionCaps = { total: number; perAddress: number };

/** Connections refused over one cap since its last report; `byAddress` for the per-address cap (the five busiest). */
export type RefusalReport =
  | { cap: 'total'; limit: number; refused: number }
  | { cap: 'per-address'; limit: number; refused: number; byAddress: Record<string, number> };

/** What to leave for everything else (the database, the office listener, workers, files): three quarters. */
const SHARE_OF_HANDLES = 4;
const DEFAULT_TOTAL = 4096;
const REPORT_EVERY_MS = 60_000;

/**
 * The default cap in all: 4,096, or a quarter of the process's file handles when that is less
 * (Linux's limit, read from /proc; elsewhere the default).
 */
export function defaultTotalCap(limitsFile = '/proc/self/limits'): number {
  try {
    const line = fs
      .readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Max open files'));
    const soft = Number(/^Max open files\s+(\d+)/.exec(line ?? '')?.[1]);
    if (Number.isFinite(soft) && soft > 0)
      return Math.max(16, Math.min(DEFAULT_TOTAL, Math.floor(soft / SHARE_OF_HANDLES)));
  } catch {
    // No /proc (Windows, macOS): the default.
  }
  return DEFAULT_TOTAL;
}

/** The address a per-address cap counts: IPv4 (also mapped into IPv6) as is, other IPv6 by its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!net.isIPv6(address)) return address;
  const bytes = ipv6Bytes(address);
  const groups: string[] = [];
  for (let index = 0; index < 8; index += 2)
    groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  return `${groups.join(':')}::/64`;
}

export function capConnections(
  server: net.Server,
  options: {
    caps: ConnectionCaps;
    /** Peers the per-address cap does not count (trusted proxies). */
    isExempt: (address: string) => boolean;
    onRefused: (report: RefusalReport) => void;
  },
): void {
  const { caps, isExempt, onRefused } = options;
  const open = new Map<string, number>();
  const overTotal = throttledReport((refused) => onRefused({ cap: 'total', limit: caps.total, refused }));
  const overPerAddress = throttledReport((refused, byAddress) =>
    onRefused({ cap: 'per-address', limit: caps.perAddress, refused, byAddress }),
  );

  server.maxConnections = caps.total;
  server.on('drop', () => overTotal.add(''));
  // Before the TLS or HTTP layer sees the socket: a refused one costs neither a handshake nor a parser.
  server.prependListener('connection', (socket: net.Socket) => {
    const address = socket.remoteAddress ?? '';
    if (isExempt(address)) return;
    const key = addressKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > caps.perAddress) {
      socket.destroy();
      overPerAddress.add(key);
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** Counts refusals and reports them at the first, then at most once a minute while they go on. */
function throttledReport(report: (refused: number, byAddress: Record<string, number>) => void) {
  let refused = 0;
  let byAddress = new Map<string, number>();
  let lastReport = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (refused === 0) return;
    const busiest = [...byAddress].sort((a, b) => b[1] - a[1]).slice(0, 5);
    report(refused, Object.fromEntries(busiest));
    refused = 0;
    byAddress = new Map();
    lastReport = Date.now();
  };
  return {
    add(address: string) {
      refused += 1;
      if (address !== '') byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
      if (timer) return;
      const wait = lastReport + REPORT_EVERY_MS - Date.now();
      if (wait <= 0) return flush();
      timer = setTimeout(flush, wait);
      timer.unref();
    },
  };
}
