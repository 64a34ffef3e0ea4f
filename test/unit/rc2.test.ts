import { describe, expect, it } from 'vitest';
import { decryptRc2Block, decryptRc2Cbc } from '../../server/crypto/rc2';

const hex = (text: string) => Buffer.from(text, 'hex');

describe('RC2 decryption (legacy PKCS#12 files)', () => {
  it("decrypts RFC 2268's test vectors, effective key lengths from 63 to 128 bits", () => {
    const vectors: Array<[key: string, bits: number, plain: string, cipher: string]> = [
      ['0000000000000000', 63, '0000000000000000', 'ebb773f993278eff'],
      ['ffffffffffffffff', 64, 'ffffffffffffffff', '278b27e42e2f0d49'],
      ['3000000000000000', 64, '1000000000000001', '30649edf9be7d2c2'],
      ['88', 64, '0000000000000000', '61a8a244adacccf0'],
      ['88bca90e90875a', 64, '0000000000000000', '6ccf4308974c267f'],
      ['88bca90e90875a7f0f79c384627bafb2', 64, '0000000000000000', '1a807d272bbe5db1'],
      ['88bca90e90875a7f0f79c384627bafb2', 128, '0000000000000000', '2269552ab0f85ca6'],
    ];
    for (const [key, bits, plain, cipher] of vectors) {
      expect(decryptRc2Block(hex(key), bits, hex(cipher)).toString('hex'), `${key}/${bits}`).toBe(plain);
    }
  });

  it('refuses input that is not whole blocks or ends in a bad padding (a wrong key)', () => {
    const key = hex('0102030405');
    const iv = hex('0000000000000000');
    expect(() => decryptRc2Cbc(key, 40, iv, hex('00112233'))).toThrow(/length/);
    expect(() => decryptRc2Cbc(key, 40, iv, new Uint8Array(0))).toThrow(/length/);
    // One block whose decryption ends in anything but a valid padding.
    const tries = Array.from({ length: 64 }, (_, index) => {
      try {
        decryptRc2Cbc(key, 40, iv, Buffer.alloc(8, index));
        return 'opened';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(tries).toContain('RC2: bad padding');
  });
});
