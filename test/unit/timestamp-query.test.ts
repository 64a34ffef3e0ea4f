import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { makeTimestampQuery } from '../../server/crypto/rfc3161';
import { makeTempDir } from '../helpers/server';

/** The nonce INTEGER's content octets as the query encodes them. */
function encodedNonce(der: Buffer): Buffer {
  const request = new pkijs.TimeStampReq({ schema: asn1js.fromBER(new Uint8Array(der)).result });
  return Buffer.from((request.nonce as asn1js.Integer).valueBlock.valueHexView);
}

describe('a timestamp query', () => {
  it('encodes its nonce as DER demands, whatever the random bytes: an authority never refuses it', () => {
    const digest = Buffer.alloc(32, 7);
    // 4,000 queries: before, about one in 256 had a padded nonce.
    for (let index = 0; index < 4_000; index += 1) {
      const { der, nonce } = makeTimestampQuery(digest);
      const encoded = encodedNonce(der);
      expect(encoded.equals(nonce)).toBe(true);
      // Positive (top bit clear), and no leading zero byte that the next byte does not need.
      expect(encoded[0]! < 0x80, encoded.toString('hex')).toBe(true);
      expect(encoded[0] !== 0 || encoded[1]! >= 0x80, encoded.toString('hex')).toBe(true);
    }
    // OpenSSL reads it (it refuses a padded INTEGER as "illegal padding").
    const file = path.join(makeTempDir(), 'query.tsq');
    fs.writeFileSync(file, makeTimestampQuery(digest).der);
    expect(execFileSync('openssl', ['ts', '-query', '-in', file, '-text'], { encoding: 'utf8' })).toMatch(
      /Nonce: 0x[0-9A-F]+\n/,
    );
  });
});
