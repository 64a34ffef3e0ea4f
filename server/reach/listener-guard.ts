import type net from 'node:net';
import type { AppContext } from '../context/app-context';
import { capConnections, defaultTotalCap, type RefusalReport } from '../net/connection-caps';

/** One log line when a cap bites (and at most one a minute per cap while it goes on). */
function logRefusals(ctx: AppContext, listener: string, report: RefusalReport): void {
  const what =
    report.cap === 'total'
      ? `its cap of ${report.limit} connections in all`
      : `its cap of ${report.limit} connections per address (an IPv6 /64 counts as one)`;
  ctx.logger.warn(
    {
      listener,
      cap: report.cap,
      limit: report.limit,
      refused: report.refused,
      ...('byAddress' in report ? { byAddress: report.byAddress } : {}),
    },
    `the ${listener} refused ${report.refused} connection(s) over ${what}: many connections at once, perhaps a flood; the office's own listener is not affected`,
  );
}

/**
 * The caps on connections in all and per address (net/connection-caps.ts) of a listener that
 * faces the internet: the party listener and the ACME HTTP-01 listener, each with its own.
 * `isExempt`: peers not counted per address (the trusted proxies, through which every party comes).
 */
export function guardInternetListener(
  ctx: AppContext,
  server: net.Server,
  listener: string,
  isExempt: (address: string) => boolean = () => false,
): void {
  const { publicConnections } = ctx.config;
  capConnections(server, {
    caps: { total: publicConnections.total ?? defaultTotalCap(), perAddress: publicConnections.perAddress },
    isExempt,
    onRefused: (report) => logRefusals(ctx, listener, report),
  });
}
