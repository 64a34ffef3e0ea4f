import { checkKeyName, isKeyName, type KeyStore } from '../crypto/key-store';
import { MasterKeyError, wrongMasterKeyMessage, type MasterKey } from '../crypto/master-key';
import type { Database } from '../db/database';
import { createSealedKeysRepo } from '../db/repos/sealed-keys';
import { storeOf } from '../db/stores';

/**
 * A row sealed at the first start with the master key: a start with another master key cannot
 * open it and stops there (MasterKeyError), before anything is read or made with the wrong key.
 * Not a key's name (a dot first), so no backup carries it.
 */
export const MASTER_KEY_CHECK = '.master-key-check';
const CHECK_TEXT = Buffer.from('SignDesk master key check v1');

/**
 * The keys as rows of `sealed_keys` (PostgreSQL's office; the table exists on SQLite too),
 * each sealed with the master key, its name as associated data: every instance on the database
 * reads the same keys, and the database alone (a dump, `SELECT *`) opens none. A key is made
 * once, whoever is first (INSERT … ON CONFLICT DO NOTHING, then read), so instances started
 * together agree on one app secret and one seal certificate.
 */
export async function openDatabaseKeyStore(
  db: Database,
  masterKey: MasterKey,
  now: () => number = Date.now,
): Promise<KeyStore> {
  const rows = createSealedKeysRepo(storeOf(db));
  await checkMasterKey(rows, masterKey, now());

  const read = async (name: string): Promise<Buffer | undefined> => {
    checkKeyName(name);
    const sealed = await rows.get(name);
    if (sealed === undefined) return undefined;
    const value = masterKey.open(name, sealed);
    // The master key opened the check at start: a row it does not open was changed or moved.
    if (!value) throw new Error(`the key ${name} in the database does not open with the master key: it was changed`);
    return value;
  };
  return {
    kind: 'database',
    read,
    async createOnce(name, fresh) {
      const stored = await read(name);
      if (stored) return stored;
      await rows.insertIfAbsent(name, masterKey.seal(name, fresh), now());
      return (await read(name))!;
    },
    async replace(name, value) {
      checkKeyName(name);
      await rows.put(name, masterKey.seal(name, value), now());
    },
    list: async () => (await rows.names()).filter(isKeyName),
    describe: (name) => `the key ${name} in the database`,
  };
}

/**
 * Seals the check at the first start (first writer wins, then read), and opens it at every
 * start. A database that has keys but no check (written by an older tool) is checked on a key.
 */
async function checkMasterKey(
  rows: ReturnType<typeof createSealedKeysRepo>,
  masterKey: MasterKey,
  now: number,
): Promise<void> {
  let check = await rows.get(MASTER_KEY_CHECK);
  if (check === undefined) {
    const [first] = (await rows.names()).filter(isKeyName);
    const sealed = first === undefined ? undefined : await rows.get(first);
    if (first !== undefined && sealed !== undefined && !masterKey.open(first, sealed))
      throw new MasterKeyError(wrongMasterKeyMessage(masterKey));
    await rows.insertIfAbsent(MASTER_KEY_CHECK, masterKey.seal(MASTER_KEY_CHECK, CHECK_TEXT), now);
    check = await rows.get(MASTER_KEY_CHECK);
  }
  const opened = check === undefined ? undefined : masterKey.open(MASTER_KEY_CHECK, check);
  if (!opened?.equals(CHECK_TEXT)) throw new MasterKeyError(wrongMasterKeyMessage(masterKey));
}
