import { randomBytes, sign, verify } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context/app-context';
import { createFileKeyStore } from '../crypto/file-key-store';
import { openSetting } from '../crypto/settings-seal';
import { loadSigningIdentity } from '../crypto/signing-identity';
import { startWorkerThread } from '../core/worker-thread';
import type { DrillReading, DrillWorkerData } from '../db/drill-worker';
import { readBackup } from './read-backup';
import { makeScratchDir } from './scratch-dir';

/** What a drill found: each check passed, or the first that failed. */
export type DrillOutcome = { checks: string[]; error: string | null };

/** The sealed setting the drill opens with the backup's own keys (see backup-schedule.ts). */
const SEALED_PASSPHRASE_KEY = 'backup.passphrase';

/** Reads the restored copy on the drill's thread (server/db/drill-worker.ts). */
function readRestoredCopy(data: DrillWorkerData): Promise<DrillReading> {
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread('restore-drill', { workerData: data });
    worker.once('message', (reply: { ok: true; reading: DrillReading } | { ok: false; error: string }) =>
      reply.ok ? resolve(reply.reading) : reject(new Error(reply.error)),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the drill's thread stopped (${code}) before it answered`)));
  });
}

/**
 * A backup is only as good as its restore: the file just written is restored into a scratch
 * folder exactly as a restore would read it (decrypted, unpacked, every entry the manifest names,
 * a database this version takes), then the database passes `integrity_check`, every file its
 * rows keep in DATA_DIR/files is in the backup at its size, the backup's own keys open what they
 * sealed, and its seal key signs what its certificate verifies. The scratch
 * folder (decrypted keys) is removed whatever happens.
 */
export async function runRestoreDrill(ctx: AppContext, file: string, passphrase: string): Promise<DrillOutcome> {
  const checks: string[] = [];
  const scratch = makeScratchDir(ctx.paths.root, 'drill');
  try {
    const staged = await readBackup(fs.createReadStream(file), passphrase, scratch.dir, ctx.admin.migrationsFolder);
    checks.push(`restored (${staged.manifest.keys.length} key files, ${staged.manifest.file_count} stored files)`);
    const reading = await readRestoredCopy({
      database: staged.database,
      filesDir: staged.filesDir,
      settingKeys: [SEALED_PASSPHRASE_KEY],
      nativeBinding: ctx.admin.sqliteBinding,
    });
    if (reading.integrity !== 'ok') throw new Error(`the database fails integrity_check: ${reading.integrity}`);
    checks.push('database integrity_check ok');
    if (reading.fileProblem) throw new Error(reading.fileProblem);
    checks.push(`every stored file is there (${reading.filesChecked} checked)`);
    // The backup's keys as it carries them (keys/<name>), whichever backend it was made on.
    const keys = createFileKeyStore(staged.keysDir);
    const sealed = new Map(reading.settings).get(SEALED_PASSPHRASE_KEY);
    if (sealed !== undefined) {
      if ((await openSetting(keys, SEALED_PASSPHRASE_KEY, sealed)) !== passphrase)
        throw new Error("the backup's keys do not open the secrets sealed in its database");
      checks.push('keys unseal the stored secrets');
    }
    if (fs.existsSync(path.join(staged.keysDir, 'signing-identity.json'))) {
      const identity = await loadSigningIdentity(keys);
      const probe = randomBytes(32);
      // Ed25519 and Ed448 hash inside the signature; RSA and ECDSA take a digest.
      const digest = ['ed25519', 'ed448'].includes(identity.privateKey.asymmetricKeyType ?? '') ? null : 'sha256';
      const signature = sign(digest, probe, identity.privateKey);
      if (!verify(digest, probe, identity.certificate.publicKey, signature))
        throw new Error("the backup's seal key does not match its certificate");
      checks.push(`a seal verifies (certificate ${identity.certificate.fingerprint256.slice(0, 23)}…)`);
    }
    return { checks, error: null };
  } catch (err) {
    return { checks, error: err instanceof Error ? err.message : String(err) };
  } finally {
    scratch.remove();
  }
}
