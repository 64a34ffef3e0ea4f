import fs from 'node:fs';
import sodium from 'sodium-native';

/**
 * The master key of an office on PostgreSQL: 32 random bytes each instance is given
 * (SIGNDESK_MASTER_KEY, or the file SIGNDESK_MASTER_KEY_FILE names), never stored in the
 * database. Every key the database keeps is sealed with it (XChaCha20-Poly1305, the key's
 * name as associated data, so that a sealed key cannot be passed off as another), so a dump
 * of the database, or a stolen copy, holds no usable key.
 */
export type MasterKey = {
  /** How it was given, for messages: `SIGNDESK_MASTER_KEY` or `SIGNDESK_MASTER_KEY_FILE (<path>)`. */
  readonly givenAs: string;
  /** `value` sealed for the key `name`: format byte, nonce, ciphertext and tag. */
  seal(name: string, value: Buffer): Buffer;
  /** The value again; undefined when it was sealed under another master key or for another name. */
  open(name: string, sealed: Buffer): Buffer | undefined;
};

/** A master key that is missing, malformed or not this database's: a start that cannot go on. */
export class MasterKeyError extends Error {}

export type MasterKeySource = { value?: string | undefined; file?: string | undefined };

const KEY_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_KEYBYTES;
const NONCE_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
const TAG_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES;
const FORMAT = 1;

const HOW_TO =
  'Make one with `openssl rand -base64 32` and give every instance of this office the same one, in SIGNDESK_MASTER_KEY or in a file (mode 600) named by SIGNDESK_MASTER_KEY_FILE.';

/** 32 bytes written as base64 (standard or URL-safe, padded or not) or hex; undefined otherwise. */
function decodeText(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]{42,44}={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** The bytes of the master key as given; throws MasterKeyError saying what to set and how. */
function readMasterKeyBytes(source: MasterKeySource): Buffer {
  if (source.file !== undefined) {
    let raw: Buffer;
    try {
      raw = fs.readFileSync(source.file);
    } catch (error) {
      throw new MasterKeyError(
        `The master key file ${source.file} (SIGNDESK_MASTER_KEY_FILE) cannot be read: ${(error as Error).message}. ${HOW_TO}`,
      );
    }
    // The 32 bytes themselves (`openssl rand 32 > file`), or their base64 or hex.
    const bytes = raw.length === KEY_BYTES ? Buffer.from(raw) : decodeText(raw.toString('latin1').trim());
    sodium.sodium_memzero(raw);
    if (!bytes)
      throw new MasterKeyError(
        `The master key file ${source.file} (SIGNDESK_MASTER_KEY_FILE) does not hold a master key: it must hold 32 random bytes, as base64 (44 characters) or hex (64). ${HOW_TO}`,
      );
    return bytes;
  }
  if (source.value === undefined)
    throw new MasterKeyError(
      `On PostgreSQL SignDesk keeps the office's keys in the database, sealed with a master key, and none was given. ${HOW_TO} Keep a copy of it apart from the database's backups: without it the keys cannot be opened.`,
    );
  const bytes = decodeText(source.value.trim());
  if (!bytes)
    throw new MasterKeyError(
      `SIGNDESK_MASTER_KEY is not a master key: it must be 32 random bytes, as base64 (44 characters) or hex (64). ${HOW_TO}`,
    );
  return bytes;
}

const associatedData = (name: string) => Buffer.from(`signdesk key v1\0${name}`, 'utf8');

/** The master key of `source`, held in memory sodium guards (not swapped, wiped when freed). */
export function readMasterKey(source: MasterKeySource): MasterKey {
  const givenAs = source.file === undefined ? 'SIGNDESK_MASTER_KEY' : `SIGNDESK_MASTER_KEY_FILE (${source.file})`;
  return masterKeyOf(readMasterKeyBytes(source), givenAs);
}

/** A master key over 32 bytes (wiped here once copied). */
export function masterKeyOf(bytes: Buffer, givenAs = 'the master key'): MasterKey {
  if (bytes.length !== KEY_BYTES) throw new MasterKeyError(`a master key is ${KEY_BYTES} bytes, not ${bytes.length}`);
  const key = sodium.sodium_malloc(KEY_BYTES);
  bytes.copy(key);
  sodium.sodium_memzero(bytes);
  return {
    givenAs,
    seal(name, value) {
      const sealed = Buffer.alloc(1 + NONCE_BYTES + value.length + TAG_BYTES);
      sealed[0] = FORMAT;
      const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
      sodium.randombytes_buf(nonce);
      sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(
        sealed.subarray(1 + NONCE_BYTES),
        value,
        associatedData(name),
        null,
        nonce,
        key,
      );
      return sealed;
    },
    open(name, sealed) {
      if (sealed.length < 1 + NONCE_BYTES + TAG_BYTES || sealed[0] !== FORMAT) return undefined;
      const value = Buffer.alloc(sealed.length - 1 - NONCE_BYTES - TAG_BYTES);
      try {
        sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
          value,
          null,
          sealed.subarray(1 + NONCE_BYTES),
          associatedData(name),
          sealed.subarray(1, 1 + NONCE_BYTES),
          key,
        );
      } catch {
        return undefined;
      }
      return value;
    },
  };
}

/** What an instance given another master key than the database's is told at start. */
export function wrongMasterKeyMessage(masterKey: MasterKey): string {
  return `The master key (${masterKey.givenAs}) does not open the keys in this database: it is not the master key the office was first started with here. Give this instance the same master key as the office's other instances; keys sealed with one master key cannot be opened with another.`;
}
