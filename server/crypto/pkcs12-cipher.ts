import { createDecipheriv, createHash, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { decryptRc2Cbc } from './rc2';

/**
 * The password-based cryptography of PKCS#12 (RFC 7292) done with node:crypto, synchronously:
 * the integrity MAC, the legacy PKCS#12 PBE schemes (3DES, RC2) and PBES2 (PBKDF2 with AES),
 * which is what Windows, OpenSSL 1.x (`-legacy`) and OpenSSL 3 write.
 */

const HASHES: Record<string, { name: string; blockSize: number }> = {
  '1.3.14.3.2.26': { name: 'sha1', blockSize: 64 },
  '2.16.840.1.101.3.4.2.4': { name: 'sha224', blockSize: 64 },
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', blockSize: 64 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', blockSize: 128 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', blockSize: 128 },
};

/** PBKDF2's pseudo-random functions (RFC 8018): HMAC with these hashes. */
const PRFS: Record<string, string> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};

/** PBES2's ciphers: node's name and key length. */
const PBES2_CIPHERS: Record<string, { name: string; keyLength: number }> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { name: 'des-ede3-cbc', keyLength: 24 },
};

/** The PKCS#12 PBE schemes (RFC 7292, appendix C), all with SHA-1. */
const PKCS12_PBE: Record<string, { keyLength: number; decrypt: (key: Buffer, iv: Buffer, data: Buffer) => Buffer }> = {
  '1.2.840.113549.1.12.1.3': { keyLength: 24, decrypt: nodeDecrypt('des-ede3-cbc') },
  '1.2.840.113549.1.12.1.4': { keyLength: 16, decrypt: nodeDecrypt('des-ede-cbc') },
  '1.2.840.113549.1.12.1.5': { keyLength: 16, decrypt: (key, iv, data) => decryptRc2Cbc(key, 128, iv, data) },
  '1.2.840.113549.1.12.1.6': { keyLength: 5, decrypt: (key, iv, data) => decryptRc2Cbc(key, 40, iv, data) },
};
const PBES2 = '1.2.840.113549.1.5.13';
/**
 * More rounds than any tool writes (OpenSSL: 2048; Windows: 2000 to 10 000): a file asking for
 * more would hold the server's thread for seconds or hours, so it is refused as unsupported.
 */
const MAX_ITERATIONS = 1_000_000;

function checkedIterations(count: number): number {
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_ITERATIONS) {
    throw new Error(`unsupported iteration count ${count}`);
  }
  return count;
}
const PBKDF2 = '1.2.840.113549.1.5.12';

function nodeDecrypt(name: string) {
  return (key: Buffer, iv: Buffer, data: Buffer) => {
    const decipher = createDecipheriv(name, key, iv);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  };
}

/** The passphrase as PKCS#12's KDF takes it: UTF-16 big-endian with two zero bytes at the end. */
function bmpPassword(passphrase: string): Buffer {
  const bytes = Buffer.alloc(passphrase.length * 2 + 2);
  for (let i = 0; i < passphrase.length; i += 1) bytes.writeUInt16BE(passphrase.charCodeAt(i), i * 2);
  return bytes;
}

/** RFC 7292 appendix B.2: id 1 makes keys, 2 IVs, 3 MAC keys. */
function pkcs12Kdf(
  hash: { name: string; blockSize: number },
  passphrase: string,
  salt: Uint8Array,
  id: 1 | 2 | 3,
  iterations: number,
  length: number,
): Buffer {
  const v = hash.blockSize;
  const fill = (data: Uint8Array) => {
    const out = Buffer.alloc(data.length === 0 ? 0 : v * Math.ceil(data.length / v));
    for (let i = 0; i < out.length; i += 1) out[i] = data[i % data.length]!;
    return out;
  };
  const password = bmpPassword(passphrase);
  const input = Buffer.concat([fill(salt), fill(password)]);
  const diversifier = Buffer.alloc(v, id);
  const parts: Buffer[] = [];
  for (let made = 0; made < length;) {
    let a = createHash(hash.name).update(diversifier).update(input).digest();
    for (let round = 1; round < iterations; round += 1) a = createHash(hash.name).update(a).digest();
    parts.push(a);
    made += a.length;
    // I_j = (I_j + B + 1) mod 2^(8v), B being A repeated to v bytes.
    const b = Buffer.alloc(v);
    for (let i = 0; i < v; i += 1) b[i] = a[i % a.length]!;
    for (let offset = 0; offset < input.length; offset += v) {
      let carry = 1;
      for (let i = v - 1; i >= 0; i -= 1) {
        const sum = input[offset + i]! + b[i]! + carry;
        input[offset + i] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(parts).subarray(0, length);
}

const bytesOf = (octets: asn1js.OctetString) => Buffer.from(octets.getValue());

/** The RFC 7292 integrity check: true when `passphrase` is the one the file was made with. */
export function isMacValid(macData: pkijs.MacData, content: Uint8Array, passphrase: string): boolean {
  const hash = HASHES[macData.mac.digestAlgorithm.algorithmId];
  if (!hash) throw new Error(`unsupported MAC hash ${macData.mac.digestAlgorithm.algorithmId}`);
  const expected = bytesOf(macData.mac.digest);
  const iterations = checkedIterations(macData.iterations ?? 1);
  const key = pkcs12Kdf(hash, passphrase, bytesOf(macData.macSalt), 3, iterations, expected.length);
  const actual = createHmac(hash.name, key).update(content).digest();
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Decrypts what a PKCS#12 encrypted with a passphrase; throws if the scheme is unknown or the bytes do not decrypt. */
export function decryptWithPassphrase(
  algorithm: pkijs.AlgorithmIdentifier,
  data: Uint8Array,
  passphrase: string,
): Buffer {
  const scheme = PKCS12_PBE[algorithm.algorithmId];
  if (scheme) {
    const params = asn1js.fromBER(algorithm.algorithmParams.toBER(false)).result as asn1js.Sequence;
    const [salt, iterations] = params.valueBlock.value as [asn1js.OctetString, asn1js.Integer];
    const sha1 = HASHES['1.3.14.3.2.26']!;
    const count = checkedIterations(iterations.valueBlock.valueDec);
    const key = pkcs12Kdf(sha1, passphrase, bytesOf(salt), 1, count, scheme.keyLength);
    const iv = pkcs12Kdf(sha1, passphrase, bytesOf(salt), 2, count, 8);
    return scheme.decrypt(key, iv, Buffer.from(data));
  }
  if (algorithm.algorithmId === PBES2) {
    const params = new pkijs.PBES2Params({ schema: algorithm.algorithmParams });
    if (params.keyDerivationFunc.algorithmId !== PBKDF2) throw new Error('unsupported PBES2 key derivation');
    const kdf = new pkijs.PBKDF2Params({ schema: params.keyDerivationFunc.algorithmParams });
    const cipher = PBES2_CIPHERS[params.encryptionScheme.algorithmId];
    const prf = PRFS[kdf.prf?.algorithmId ?? '1.2.840.113549.2.7'];
    if (!cipher || !prf) throw new Error('unsupported PBES2 cipher or PRF');
    const salt = bytesOf(kdf.salt as asn1js.OctetString);
    const rounds = checkedIterations(kdf.iterationCount);
    const key = pbkdf2Sync(Buffer.from(passphrase, 'utf8'), salt, rounds, cipher.keyLength, prf);
    const iv = bytesOf(params.encryptionScheme.algorithmParams as asn1js.OctetString);
    return nodeDecrypt(cipher.name)(key, iv, Buffer.from(data));
  }
  throw new Error(`unsupported encryption ${algorithm.algorithmId}`);
}
