import { Transform, type TransformCallback } from 'node:stream';
import sodium from 'sodium-native';

/**
 * The encrypted envelope of a whole-office backup: a passphrase stretched with Argon2id
 * (libsodium's moderate limits) keys an XChaCha20-Poly1305 secretstream, so a file of any size
 * is encrypted and checked chunk by chunk, and a file cut short is told apart from a whole one
 * (the last chunk carries the FINAL tag).
 *
 * Layout (integers big-endian):
 *   0  "SDBACKUP"            magic
 *   8  u8 version (1)        u8 kdf (1 = Argon2id 1.3)   u8 cipher (1 = secretstream)   u8 0
 *  12  u32 opslimit          u32 memlimit (bytes)
 *  20  16-byte salt
 *  36  24-byte secretstream header
 *  60  chunks: u32 ciphertext length, then the ciphertext (at most 64 KiB of plain text + 17)
 * The first 36 bytes are the additional data of the first chunk, so they cannot be altered.
 */
export const BACKUP_MAGIC = Buffer.from('SDBACKUP', 'latin1');
const VERSION = 1;
const KDF_ARGON2ID13 = 1;
const CIPHER_SECRETSTREAM = 1;
const PREFIX_BYTES = 36;
const HEADER_BYTES = PREFIX_BYTES + sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES;
const CHUNK_BYTES = 64 * 1024;
const ABYTES = sodium.crypto_secretstream_xchacha20poly1305_ABYTES;
const KEY_BYTES = sodium.crypto_secretstream_xchacha20poly1305_KEYBYTES;
// The types declare tags as buffers; sodium-native takes and gives the numbers.
const TAG_MESSAGE = sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE as unknown as Buffer;
const TAG_FINAL = sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL as unknown as Buffer;
/** sodium-native 5 takes a plain buffer as the stream state (its types still name an object, and state_new is gone). */
function newStreamState(): sodium.Xchacha20poly1305State {
  const bytes = (sodium as unknown as { crypto_secretstream_xchacha20poly1305_STATEBYTES: number })
    .crypto_secretstream_xchacha20poly1305_STATEBYTES;
  return Buffer.alloc(bytes) as unknown as sodium.Xchacha20poly1305State;
}
const FINAL = Number(sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
/** A file may ask for more work than we would use, within reason; beyond that it is not ours. */
const MAX_OPSLIMIT = 16;
const MAX_MEMLIMIT = 1024 * 1024 * 1024;

export type KdfLimits = { opslimit: number; memlimit: number };
export const MODERATE_LIMITS: KdfLimits = {
  opslimit: sodium.crypto_pwhash_OPSLIMIT_MODERATE,
  memlimit: sodium.crypto_pwhash_MEMLIMIT_MODERATE,
};

/** Why a backup file cannot be read; `reason` lets the caller say it in the right words. */
export class BackupCipherError extends Error {
  constructor(
    readonly reason: 'not-a-backup' | 'newer-version' | 'wrong-passphrase' | 'damaged' | 'truncated',
    message: string,
  ) {
    super(message);
  }
}

/** Argon2id on libuv's pool: a request or a job never blocks the event loop for the second it takes. */
function deriveKey(passphrase: string, salt: Buffer, limits: KdfLimits): Promise<Buffer> {
  const key = sodium.sodium_malloc(KEY_BYTES);
  const password = Buffer.from(passphrase.normalize('NFC'), 'utf8');
  return new Promise((resolve, reject) => {
    sodium.crypto_pwhash_async(
      key,
      password,
      salt,
      limits.opslimit,
      limits.memlimit,
      sodium.crypto_pwhash_ALG_ARGON2ID13,
      (err) => {
        sodium.sodium_memzero(password);
        if (err) reject(err);
        else resolve(key);
      },
    );
  });
}

/** Encrypts what is written to it into the backup envelope. */
export function createEncryptStream(passphrase: string, limits: KdfLimits = MODERATE_LIMITS): Transform {
  const state = newStreamState();
  let pending: Buffer = Buffer.alloc(0);
  let ad: Buffer | null = null;
  let ready: Promise<void> | undefined;

  const start = async (stream: Transform) => {
    const salt = Buffer.alloc(sodium.crypto_pwhash_SALTBYTES);
    sodium.randombytes_buf(salt);
    const key = await deriveKey(passphrase, salt, limits);
    const prefix = Buffer.alloc(PREFIX_BYTES);
    BACKUP_MAGIC.copy(prefix, 0);
    prefix.writeUInt8(VERSION, 8);
    prefix.writeUInt8(KDF_ARGON2ID13, 9);
    prefix.writeUInt8(CIPHER_SECRETSTREAM, 10);
    prefix.writeUInt32BE(limits.opslimit, 12);
    prefix.writeUInt32BE(limits.memlimit, 16);
    salt.copy(prefix, 20);
    const header = Buffer.alloc(sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES);
    sodium.crypto_secretstream_xchacha20poly1305_init_push(state, header, key);
    sodium.sodium_memzero(key);
    ad = prefix;
    stream.push(Buffer.concat([prefix, header]));
  };

  const pushChunk = (stream: Transform, plain: Buffer, tag: Buffer) => {
    const out = Buffer.alloc(4 + plain.length + ABYTES);
    out.writeUInt32BE(plain.length + ABYTES, 0);
    sodium.crypto_secretstream_xchacha20poly1305_push(state, out.subarray(4), plain, ad, tag);
    ad = null;
    stream.push(out);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      ready ??= start(this);
      ready.then(() => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        // Keep at least one byte back: the last chunk must be the one tagged FINAL.
        while (pending.length > CHUNK_BYTES) {
          pushChunk(this, pending.subarray(0, CHUNK_BYTES), TAG_MESSAGE);
          pending = pending.subarray(CHUNK_BYTES);
        }
        callback();
      }, callback);
    },
    flush(callback: TransformCallback) {
      ready ??= start(this);
      ready.then(() => {
        pushChunk(this, pending, TAG_FINAL);
        callback();
      }, callback);
    },
  });
}

function readPrefix(prefix: Buffer): KdfLimits {
  if (prefix.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') {
    throw new BackupCipherError(
      'not-a-backup',
      'The file is an old database-only backup: without the keys and stored files it cannot restore the office. Make a new backup (encrypted with a passphrase).',
    );
  }
  if (!prefix.subarray(0, 8).equals(BACKUP_MAGIC)) {
    throw new BackupCipherError('not-a-backup', 'The file is not a SignDesk backup.');
  }
  const version = prefix.readUInt8(8);
  if (version !== VERSION || prefix.readUInt8(9) !== KDF_ARGON2ID13 || prefix.readUInt8(10) !== CIPHER_SECRETSTREAM) {
    throw new BackupCipherError(
      'newer-version',
      `The backup is of format ${version}, made by a newer SignDesk: update SignDesk first.`,
    );
  }
  const limits = { opslimit: prefix.readUInt32BE(12), memlimit: prefix.readUInt32BE(16) };
  if (
    limits.opslimit < 1 ||
    limits.opslimit > MAX_OPSLIMIT ||
    limits.memlimit < 8192 ||
    limits.memlimit > MAX_MEMLIMIT
  ) {
    throw new BackupCipherError('damaged', 'The file is damaged: its header is not one SignDesk writes.');
  }
  return limits;
}

/**
 * Decrypts the backup envelope. Fails with a BackupCipherError: not a backup, a newer format,
 * a wrong passphrase (the first chunk does not open), a damaged chunk later on, or a file that
 * ends before its FINAL chunk.
 */
export function createDecryptStream(passphrase: string): Transform {
  const state = newStreamState();
  let buffered: Buffer = Buffer.alloc(0);
  let isKeyed = false;
  let isFinal = false;
  let chunks = 0;
  let prefix: Buffer | undefined;

  const openChunks = (stream: Transform) => {
    while (buffered.length >= 4) {
      if (isFinal)
        throw new BackupCipherError('damaged', 'The file is damaged: it goes on after the end of the backup.');
      const length = buffered.readUInt32BE(0);
      if (length < ABYTES || length > CHUNK_BYTES + ABYTES)
        throw new BackupCipherError('damaged', 'The file is damaged: a chunk has an impossible length.');
      if (buffered.length < 4 + length) return;
      const cipher = buffered.subarray(4, 4 + length);
      const plain = Buffer.alloc(length - ABYTES);
      const tag = Buffer.alloc(1);
      try {
        sodium.crypto_secretstream_xchacha20poly1305_pull(
          state,
          plain,
          tag,
          cipher,
          chunks === 0 ? (prefix ?? null) : null,
        );
      } catch {
        throw chunks === 0
          ? new BackupCipherError(
              'wrong-passphrase',
              'The passphrase is wrong (or the beginning of the file is damaged).',
            )
          : new BackupCipherError('damaged', `The file is damaged: part ${chunks + 1} does not decrypt.`);
      }
      chunks += 1;
      isFinal = tag[0] === FINAL;
      buffered = buffered.subarray(4 + length);
      if (plain.length > 0) stream.push(plain);
    }
  };

  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      if (isKeyed) {
        try {
          openChunks(this);
          callback();
        } catch (err) {
          callback(err as Error);
        }
        return;
      }
      if (buffered.length < HEADER_BYTES) {
        callback();
        return;
      }
      let limits: KdfLimits;
      try {
        prefix = Buffer.from(buffered.subarray(0, PREFIX_BYTES));
        limits = readPrefix(prefix);
      } catch (err) {
        callback(err as Error);
        return;
      }
      const header = Buffer.from(buffered.subarray(PREFIX_BYTES, HEADER_BYTES));
      buffered = buffered.subarray(HEADER_BYTES);
      deriveKey(passphrase, prefix.subarray(20, 36), limits).then((key) => {
        try {
          sodium.crypto_secretstream_xchacha20poly1305_init_pull(state, header, key);
          sodium.sodium_memzero(key);
          isKeyed = true;
          openChunks(this);
          callback();
        } catch (err) {
          callback(err as Error);
        }
      }, callback);
    },
    flush(callback: TransformCallback) {
      if (!isKeyed && buffered.length < HEADER_BYTES) {
        const isOurs =
          buffered.length >= 8
            ? buffered.subarray(0, 8).equals(BACKUP_MAGIC)
            : BACKUP_MAGIC.subarray(0, buffered.length).equals(buffered);
        callback(
          isOurs && buffered.length > 0
            ? new BackupCipherError('truncated', 'The file is incomplete: it was cut off.')
            : new BackupCipherError('not-a-backup', 'The file is not a SignDesk backup.'),
        );
        return;
      }
      if (!isFinal) {
        callback(
          new BackupCipherError(
            'truncated',
            'The file is incomplete: it ends before the backup does (cut off while copying?).',
          ),
        );
        return;
      }
      callback();
    },
  });
}
