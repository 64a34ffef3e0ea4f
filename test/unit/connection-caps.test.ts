import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressKey, defaultTotalCap } from '../../server/net/connection-caps';

describe('connection caps of the internet-facing listeners', () => {
  it('counts an IPv4 client (also mapped into IPv6) by its address, an IPv6 client by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    // One client holds a whole /64: every address in it is one key.
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it("caps the connections in all at a quarter of the process's file handles, at most 4,096", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-limits-'));
    const limits = (soft: number) => {
      const file = path.join(dir, `limits-${soft}`);
      fs.writeFileSync(
        file,
        `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 ${soft}                 files\n`,
      );
      return file;
    };
    expect(defaultTotalCap(limits(400))).toBe(100);
    expect(defaultTotalCap(limits(1_048_576))).toBe(4096);
    expect(defaultTotalCap(path.join(dir, 'none'))).toBe(4096);
  });
});
