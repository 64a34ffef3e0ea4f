import dns, { type LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import os from 'node:os';
import type { ConnectionOptions } from 'node:tls';
import { createHttpClient, type ConnectionCheck, type HttpClient } from './http-client';
import { hostAsWritten, judgeAddress, oddAddressSpelling } from './ip-address';

/**
 * Where the server may connect on a user's say (webhook URLs, the SMTP server and its test,
 * the SMS gateway, and whatever comes next): loopback and the office's LAN (local integrators
 * are the point) and the internet, not link-local (cloud metadata), unspecified, multicast,
 * broadcast or reserved addresses, nor this server's own port. URLs are checked as written
 * when saved (`checkUrl`), and every connection is checked again on the address it is about
 * to use, inside its own lookup, so a DNS name that resolves (or later re-resolves, DNS
 * rebinding) to a refused address never gets a connection.
 */
export type OutboundPolicy = {
  /** Why this URL may not be used, judged on what it says (no DNS), or undefined. */
  checkUrl(text: string): string | undefined;
  /** How a connection to host:port is made under the policy (undici's connect): throws for a refused address. */
  connection: ConnectionCheck;
  /** The shared HTTP client without keep-alive, for one-off exchanges (the SMS gateway, a TSA, a CRL). */
  http: HttpClient;
  /** An HTTP client of its own (keep-alive for webhooks, a CA file for ACME); every connection is checked. */
  createClient(options?: { keepAlive?: boolean; tls?: ConnectionOptions }): HttpClient;
  /** A checked, connected TCP socket, for libraries that connect by themselves (nodemailer). */
  connectSocket(host: string, port: number, timeoutMs: number): Promise<net.Socket>;
  /** The port this server listens on: loopback connections to it are refused. */
  addOwnPort(port: number): void;
};

/** A connection the policy refused; its message names the kind of address, never the address. */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDPOLICY';
  constructor(reason: string) {
    super(`refused by the outbound address policy: ${reason}`);
    this.name = 'OutboundRefusedError';
  }
}

type DnsLookup = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createOutboundPolicy(options: { dnsLookup?: DnsLookup } = {}): OutboundPolicy {
  const dnsLookup: DnsLookup =
    options.dnsLookup ?? ((hostname, lookupOptions, callback) => dns.lookup(hostname, lookupOptions, callback));
  const ownPorts = new Set<number>();
  let interfaces: { addresses: Set<string>; readAt: number } | undefined;
  const ownAddresses = () => {
    if (!interfaces || Date.now() - interfaces.readAt > 10_000) {
      const addresses = Object.values(os.networkInterfaces()).flatMap((list) =>
        (list ?? []).map((entry) => entry.address.toLowerCase()),
      );
      interfaces = { addresses: new Set(addresses), readAt: Date.now() };
    }
    return interfaces.addresses;
  };

  /** Why connecting to `ip`:`port` is refused, or undefined. */
  const refusalOf = (ip: string, port: number): string | undefined => {
    const verdict = judgeAddress(ip);
    if (!verdict.isAllowed) return verdict.reason;
    const unmapped = ip.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    if (ownPorts.has(port) && (verdict.isLoopback || ownAddresses().has(unmapped)))
      return "this server's own address and port";
    return undefined;
  };

  /** A dns.lookup for one connection: refused addresses are left out; none left, the connection fails. */
  const lookupFor =
    (port: number) =>
    (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback): void => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const usable = addresses.filter((entry) => refusalOf(entry.address, port) === undefined);
        const first = usable[0];
        if (!first) {
          const reason = addresses[0] ? refusalOf(addresses[0].address, port) : 'no address';
          return callback(new OutboundRefusedError(`the host name leads to ${reason}`), []);
        }
        if (lookupOptions.all) callback(null, usable);
        else callback(null, first.address, first.family);
      });
    };

  /** Connection options with the check: an IP literal is judged now, a name in the lookup. */
  const checked = <T extends { host?: string | null; hostname?: string | null; port?: number | string | null }>(
    connection: T,
    defaultPort: number,
  ) => {
    const host = String(connection.host ?? connection.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
    const port = Number(connection.port ?? defaultPort);
    if (net.isIP(host)) {
      const refusal = refusalOf(host, port);
      if (refusal) throw new OutboundRefusedError(refusal);
      return connection;
    }
    return { ...connection, lookup: lookupFor(port) };
  };

  /** undici's connect, as `checked`: an IP literal judged now (throws), a name in the lookup of this port. */
  const lookups = new Map<number, LookupFunction>();
  const connection: ConnectionCheck = (host, port) => {
    const bare = host.replace(/^\[|\]$/g, '');
    if (net.isIP(bare)) {
      const refusal = refusalOf(bare, port);
      if (refusal) throw new OutboundRefusedError(refusal);
      return {};
    }
    // One lookup per port, so that the client's connectors (and their TLS session caches) are reused.
    let lookup = lookups.get(port);
    if (!lookup) lookups.set(port, (lookup = lookupFor(port) as unknown as LookupFunction));
    return { lookup };
  };
  const createClient: OutboundPolicy['createClient'] = (clientOptions = {}) =>
    createHttpClient({ connection, ...clientOptions });

  return {
    checkUrl(text) {
      const odd = oddAddressSpelling(text);
      if (odd) return odd;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return undefined;
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const defaultPort = { 'https:': 443, 'smtps:': 465, 'smtp:': 587, 'http:': 80 }[url.protocol] ?? 0;
      const port = Number(url.port || defaultPort);
      if (net.isIP(host)) {
        const refusal = refusalOf(host, port);
        return refusal ? `must not name ${refusal}` : undefined;
      }
      // A name is judged when connecting; `localhost` is loopback everywhere, so its port can be judged now.
      if (host.toLowerCase() === 'localhost' && ownPorts.has(port))
        return `must not name this server's own address and port (${hostAsWritten(text)}:${port})`;
      return undefined;
    },
    connection,
    http: createClient(),
    createClient,
    connectSocket(host, port, timeoutMs) {
      return new Promise((resolve, reject) => {
        let socket: net.Socket;
        try {
          socket = net.connect(checked({ host, port }, port) as net.NetConnectOpts);
        } catch (error) {
          reject(error);
          return;
        }
        const fail = (error: Error) => {
          socket.destroy();
          reject(error);
        };
        socket.setTimeout(timeoutMs, () =>
          fail(Object.assign(new Error('the connection timed out'), { code: 'ETIMEDOUT' })),
        );
        socket.once('error', fail);
        socket.once('connect', () => {
          socket.setTimeout(0);
          socket.off('error', fail);
          resolve(socket);
        });
      });
    },
    addOwnPort: (port) => void ownPorts.add(port),
  };
}
