import net from 'node:net';

/**
 * What the outbound address policy makes of one IP address: loopback and the office's private
 * LAN are where local integrators live, the internet is where hosted ones do; link-local (where
 * cloud metadata services answer), unspecified, multicast, broadcast and reserved addresses are
 * no place for a webhook, an SMTP server or an SMS gateway.
 */
export type AddressVerdict = { isAllowed: true; isLoopback: boolean } | { isAllowed: false; reason: string };

const REFUSED = {
  unspecified: 'an unspecified address (0.0.0.0/8, ::)',
  linkLocal: 'a link-local address (169.254.0.0/16, fe80::/10), where cloud metadata services answer',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address (224.0.0.0/4, ff00::/8)',
  reserved: 'a broadcast or reserved address (240.0.0.0/4)',
  siteLocal: 'a site-local address (fec0::/10, deprecated)',
  compatible: 'an IPv4-compatible IPv6 address (deprecated)',
} as const;

/** Metadata services that sit outside the link-local ranges. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);

const allowed = (isLoopback = false): AddressVerdict => ({ isAllowed: true, isLoopback });
const refused = (reason: string): AddressVerdict => ({ isAllowed: false, reason });

function judgeIPv4(bytes: readonly number[]): AddressVerdict {
  const [a = 0, b = 0] = bytes;
  if (METADATA_ADDRESSES.has(bytes.join('.'))) return refused(REFUSED.metadata);
  if (a === 0) return refused(REFUSED.unspecified);
  if (a === 127) return allowed(true);
  if (a === 169 && b === 254) return refused(REFUSED.linkLocal);
  if (a >= 224 && a <= 239) return refused(REFUSED.multicast);
  if (a >= 240) return refused(REFUSED.reserved);
  return allowed();
}

/** The 16 bytes of an IPv6 address (net.isIPv6 already said it is one). */
export function ipv6Bytes(text: string): number[] {
  let address = text.toLowerCase().replace(/%.*$/, '');
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    tail.push(...dotted[1].split('.').map(Number));
    address = `${address.slice(0, -dotted[1].length)}0:0`;
  }
  const [head = '', rest] = address.split('::');
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groupsOf(head);
  const right = rest === undefined ? [] : groupsOf(rest);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = groups.flatMap((group) => [group >> 8, group & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function judgeIPv6(text: string): AddressVerdict {
  const bytes = ipv6Bytes(text);
  const canonical = bytes.every((byte, index) => (index === 15 ? byte === 1 : byte === 0));
  if (canonical) return allowed(true);
  if (bytes.every((byte) => byte === 0)) return refused(REFUSED.unspecified);
  const isZero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::) are the IPv4 address.
  if (isZero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return judgeIPv4(bytes.slice(12));
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && isZero(4, 12))
    return judgeIPv4(bytes.slice(12));
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    const inner = judgeIPv4(bytes.slice(2, 6));
    if (!inner.isAllowed) return inner;
  }
  if (isZero(0, 12)) return refused(REFUSED.compatible);
  const [first = 0, second = 0] = bytes;
  if (METADATA_ADDRESSES.has(compressIPv6(bytes))) return refused(REFUSED.metadata);
  if (first === 0xfe && (second & 0xc0) === 0x80) return refused(REFUSED.linkLocal);
  if (first === 0xfe && (second & 0xc0) === 0xc0) return refused(REFUSED.siteLocal);
  if (first === 0xff) return refused(REFUSED.multicast);
  return allowed();
}

function compressIPv6(bytes: readonly number[]): string {
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2)
    groups.push((((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0)).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** The verdict on an address as connected to (after any DNS), IPv4 or IPv6. */
export function judgeAddress(ip: string): AddressVerdict {
  if (net.isIPv4(ip)) return judgeIPv4(ip.split('.').map(Number));
  if (net.isIPv6(ip)) return judgeIPv6(ip);
  return refused('not an IP address');
}

/** The host of a URL exactly as it was written (the URL parser rewrites 2130706433 as 127.0.0.1). */
export function hostAsWritten(text: string): string | undefined {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(text.trim())?.[1];
  if (authority === undefined) return undefined;
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.startsWith('[')) return hostPort.slice(0, hostPort.indexOf(']') + 1);
  return hostPort.replace(/:[^:]*$/, '');
}

/**
 * Why the host of a URL is an odd spelling of an IPv4 address, or undefined. The URL parser
 * (and the system resolver) read 2130706433, 0x7f000001, 0177.0.0.1, 127.1 or %31%32%37.0.0.1
 * as 127.0.0.1: only the four decimal numbers the parser itself would write pass.
 */
export function oddAddressSpelling(text: string): string | undefined {
  const written = hostAsWritten(text);
  if (written === undefined || written.startsWith('[')) return undefined;
  // Read as an http host whatever the scheme: smtp: hosts are opaque to the URL parser, but the
  // system resolver reads 0x7f000001 or 127.1 as an address all the same.
  let parsed: string;
  try {
    parsed = new URL(`http://${written}/`).hostname;
  } catch {
    return undefined;
  }
  if (!net.isIPv4(parsed) || written === parsed) return undefined;
  return `${written} is an unusual way to write an IP address; write an IPv4 address as four decimal numbers (a.b.c.d)`;
}
