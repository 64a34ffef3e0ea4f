import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeNetworkError } from '../../server/net/describe-network-error';
import { judgeAddress } from '../../server/net/ip-address';
import { createOutboundPolicy } from '../../server/net/outbound-policy';

describe('the outbound address policy', () => {
  it('judges each kind of address', () => {
    const refused = [
      '0.0.0.0',
      '0.1.2.3',
      '169.254.169.254',
      '169.254.0.1',
      '224.0.0.251',
      '239.255.255.250',
      '255.255.255.255',
      '240.0.0.1',
      '100.100.100.200',
      '::',
      'fe80::1',
      'febf::1',
      'fec0::1',
      'ff02::1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:0.0.0.0',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      '::127.0.0.1',
      'fd00:ec2::254',
    ];
    const allowed = [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.7',
      '172.16.4.4',
      '192.168.1.20',
      '100.64.0.1',
      '8.8.8.8',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:192.168.1.2',
      'fd12:3456::7',
      '2001:db8::1',
      '2a00:1450:4001::200e',
    ];
    expect(refused.filter((ip) => judgeAddress(ip).isAllowed)).toEqual([]);
    expect(allowed.filter((ip) => !judgeAddress(ip).isAllowed)).toEqual([]);
  });

  it('refuses odd spellings of addresses as written, whatever they mean', () => {
    const policy = createOutboundPolicy();
    for (const url of [
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://127.0.1/',
      'http://%31%32%37.0.0.1/',
      'http://127.0.0.1./',
      'http://０ｘ７ｆ.1/',
      'smtp://2852039166:25',
      'smtps://0xa9fea9fe:465',
    ]) {
      expect(policy.checkUrl(url), url).toMatch(/four decimal numbers/);
    }
    for (const url of [
      'http://127.0.0.1:9/',
      'http://cafe.be/',
      'http://1password.example/',
      'https://xn--bcher-kva.example/',
      'http://bücher.example/',
      'smtp://mail.office.test:587',
    ]) {
      expect(policy.checkUrl(url), url).toBeUndefined();
    }
  });

  describe('at connect time', () => {
    let target: http.Server;
    let port: number;
    let hits = 0;
    beforeAll(async () => {
      target = http.createServer((_req, res) => {
        hits += 1;
        res.end('inside');
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      port = (target.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

    /** A resolver that answers the next lookups from a script: the part that cannot exist here is DNS for made-up names. */
    const scriptedDns =
      (answers: LookupAddress[][]) =>
      (
        _hostname: string,
        _options: object,
        callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
      ) =>
        setImmediate(() => callback(null, answers.shift() ?? []));
    const get = (policy: ReturnType<typeof createOutboundPolicy>, url: string) =>
      policy.http.exchange(new URL(url), { method: 'GET', timeoutMs: 5_000, maxBytes: 1024 }).then(
        (answer): { status?: number; error?: string } => ({ status: answer.status }),
        (error: unknown) => ({ error: describeNetworkError(error) }),
      );

    it('refuses a name that resolves to a refused address, and one that rebinds to it', async () => {
      const policy = createOutboundPolicy({
        dnsLookup: scriptedDns([
          [{ address: '169.254.169.254', family: 4 }],
          [{ address: '127.0.0.1', family: 4 }],
          [{ address: '169.254.169.254', family: 4 }],
          [
            { address: '169.254.169.254', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ],
        ]),
      });
      const before = hits;
      const metadata = await get(policy, `http://metadata.internal.test:${port}/`);
      expect(metadata.error).toMatch(
        /^refused by the outbound address policy: the host name leads to a link-local address/,
      );
      expect(metadata.error).not.toContain('169.254.169.254');
      expect(await get(policy, `http://rebinding.test:${port}/`)).toEqual({ status: 200 });
      expect((await get(policy, `http://rebinding.test:${port}/`)).error).toMatch(/outbound address policy/);
      // Of several addresses only the allowed ones are tried.
      expect(await get(policy, `http://mixed.test:${port}/`)).toEqual({ status: 200 });
      expect(hits - before).toBe(2);
    });

    it("refuses this server's own port on loopback, by name and by address, and nothing else of loopback", async () => {
      const policy = createOutboundPolicy({ dnsLookup: scriptedDns([[{ address: '127.0.0.1', family: 4 }]]) });
      policy.addOwnPort(port);
      expect((await get(policy, `http://127.0.0.1:${port}/`)).error).toMatch(/this server's own address and port/);
      expect((await get(policy, `http://office-box.test:${port}/`)).error).toMatch(
        /this server's own address and port/,
      );
      expect(policy.checkUrl(`http://localhost:${port}/`)).toMatch(/own address/);
      expect(policy.checkUrl(`http://127.0.0.1:${port + 1}/`)).toBeUndefined();
      const socket = await policy.connectSocket('127.0.0.1', port, 5_000).catch((error: Error) => error);
      expect(socket).toBeInstanceOf(Error);
    });

    it('describes connection errors without the addresses', async () => {
      const policy = createOutboundPolicy();
      const closed = await get(policy, 'http://127.0.0.1:9/');
      expect(closed.error).toBe('ECONNREFUSED: the connection was refused');
    });
  });
});
