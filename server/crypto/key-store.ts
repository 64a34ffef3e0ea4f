/**
 * Where the office's keys live (docs/decisions.md, "Secrets at rest"): the app secret, the
 * webhook and settings seal keys, the seal identity and its archive of certificates, the ACME
 * account key and certificate. On SQLite they are the files of DATA_DIR/keys
 * (file-key-store.ts); on PostgreSQL rows of `sealed_keys`, each sealed with the master key
 * (secrets/database-key-store.ts), so that every instance reads the same keys and a dump of
 * the database holds none of them. A key is a name (`app-secret`,
 * `seal-certificates/<sha256>.pem`) and its bytes.
 */
export type KeyStore = {
  readonly kind: 'files' | 'database';
  /** The bytes of the key, or undefined when there is none. */
  read(name: string): Promise<Buffer | undefined>;
  /**
   * Stores `fresh` under `name` unless a key is there already, and returns the key stored: of
   * two processes (or instances) creating it at once, the first one's wins and both get it.
   * The store keeps its own copy: the caller may wipe `fresh` afterwards.
   */
  createOnce(name: string, fresh: Buffer): Promise<Buffer>;
  /** Puts `value` in place of the key, whole or not at all. */
  replace(name: string, value: Buffer): Promise<void>;
  /** Every key's name, sorted (what a backup carries). */
  list(): Promise<string[]>;
  /** The key as a message names it: its file, or its row. */
  describe(name: string): string;
};

/** One segment of a key's name: no dot first (temporary files are), nothing that leaves its folder. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** Whether `name` is a key's name: one or two segments (`app-secret`, `seal-certificates/<sha256>.pem`). */
export function isKeyName(name: string): boolean {
  const segments = name.split('/');
  return segments.length <= 2 && segments.every((segment) => SEGMENT.test(segment));
}

export function checkKeyName(name: string): void {
  if (!isKeyName(name)) throw new Error(`not a key name: ${JSON.stringify(name.slice(0, 200))}`);
}
