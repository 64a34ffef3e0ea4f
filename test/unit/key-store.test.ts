import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAppSecret } from '../../server/crypto/app-secret';
import { createFileKeyStore } from '../../server/crypto/file-key-store';
import type { KeyStore } from '../../server/crypto/key-store';
import { masterKeyOf } from '../../server/crypto/master-key';
import { sealSetting } from '../../server/crypto/settings-seal';
import { describeSigningIdentity, loadSigningIdentity } from '../../server/crypto/signing-identity';
import { createWebhookKeyring } from '../../server/crypto/webhook-keys';
import { openPostgres } from '../../server/db/pg/open-postgres';
import type { PgDatabase } from '../../server/db/pg/pg-database';
import { readOrCreateAccountKey } from '../../server/reach/acme-store';
import { openDatabaseKeyStore } from '../../server/secrets/database-key-store';
import { createTestPostgresDatabase, DIALECTS } from '../helpers/databases';
import { makeTempDir } from '../helpers/server';

/** The master key these tests' instances share (32 bytes, as SIGNDESK_MASTER_KEY gives them). */
const masterKey = () => masterKeyOf(Buffer.alloc(32, 9));

/**
 * The office's key store as each backend has it: the files of DATA_DIR/keys beside SQLite, rows
 * sealed with the master key in PostgreSQL. Two instances share one store (two processes on one
 * DATA_DIR; two servers, each with a pool of its own, on one database).
 */
for (const dialect of DIALECTS)
  describe(`the key store on ${dialect}`, () => {
    let dir: string;
    let pools: PgDatabase[] = [];
    let instances: KeyStore[];
    beforeAll(async () => {
      dir = path.join(makeTempDir(), 'keys');
      if (dialect === 'sqlite') {
        instances = [createFileKeyStore(dir), createFileKeyStore(dir)];
        return;
      }
      const url = await createTestPostgresDatabase();
      pools = [await openPostgres(url), await openPostgres(url)];
      instances = await Promise.all(pools.map((pool) => openDatabaseKeyStore(pool, masterKey())));
    });
    afterAll(async () => {
      for (const pool of pools) await pool.close();
    });
    const [first, second] = [() => instances[0]!, () => instances[1]!];

    it("makes a key once when instances race for it: the first one written is every one's", async () => {
      const fresh = Array.from({ length: 16 }, () => randomBytes(32));
      const got = await Promise.all(
        fresh.map((bytes, i) => (i % 2 ? second() : first()).createOnce('race.key', bytes)),
      );
      const winner = got[0]!;
      expect(fresh.some((bytes) => bytes.equals(winner))).toBe(true);
      for (const bytes of got) expect(bytes.equals(winner)).toBe(true);
      expect((await second().read('race.key'))!.equals(winner)).toBe(true);
      // A key made later by another instance does not replace it.
      expect((await second().createOnce('race.key', randomBytes(32))).equals(winner)).toBe(true);
    });

    it('gives instances starting at once one app secret and one seal certificate', async () => {
      const [a, b] = await Promise.all([loadAppSecret(first()), loadAppSecret(second())]);
      expect(a.mac('sign-link', 'nonce')).toBe(b.mac('sign-link', 'nonce'));
      expect(b.open('sign-link', a.seal('sign-link', 'token'))).toBe('token');
      const seals = await Promise.all([
        loadSigningIdentity(first(), { officeName: 'Åkesson Juridik' }),
        loadSigningIdentity(second(), { officeName: 'Åkesson Juridik' }),
      ]);
      const [one, other] = seals.map((identity) => describeSigningIdentity(identity));
      expect(other!.fingerprintSha256).toBe(one!.fingerprintSha256);
      expect(one!.subject).toContain('Åkesson Juridik');
    });

    it('reads, replaces whole and lists keys, the archive of seal certificates included', async () => {
      expect(await first().read('acme-certificate.pem')).toBeUndefined();
      await first().replace('acme-certificate.pem', Buffer.from('first chain'));
      await second().replace('acme-certificate.pem', Buffer.from('second chain, longer than the first'));
      expect((await first().read('acme-certificate.pem'))!.toString()).toBe('second chain, longer than the first');

      // A renewal (the office's name changed) makes a new seal; the old certificate stays archived.
      const before = describeSigningIdentity(await loadSigningIdentity(first()));
      const renewed = describeSigningIdentity(await loadSigningIdentity(second(), { officeName: 'Berg & Co' }));
      expect(renewed.fingerprintSha256).not.toBe(before.fingerprintSha256);
      expect(describeSigningIdentity(await loadSigningIdentity(first())).fingerprintSha256).toBe(
        renewed.fingerprintSha256,
      );
      const archived = (fingerprint: string) =>
        `seal-certificates/${fingerprint.replaceAll(':', '').toLowerCase()}.pem`;
      const names = await first().list();
      expect(names).toEqual([
        'acme-certificate.pem',
        'app-secret',
        'race.key',
        ...[archived(before.fingerprintSha256), archived(renewed.fingerprintSha256)].sort(),
        'signing-identity.json',
      ]);
      expect(await second().list()).toEqual(names);
      const pem = (await second().read(archived(before.fingerprintSha256)))!.toString();
      expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    });

    it('refuses names that are not key names, reading or writing', async () => {
      for (const name of ['../app-secret', '.app-secret', 'a/b/c', '', 'seal-certificates/', 'a\\b', '/etc/passwd']) {
        await expect(first().read(name), name).rejects.toThrow(/not a key name/);
        await expect(first().createOnce(name, Buffer.from('x')), name).rejects.toThrow(/not a key name/);
        await expect(first().replace(name, Buffer.from('x')), name).rejects.toThrow(/not a key name/);
      }
    });

    if (dialect === 'sqlite')
      it('keeps DATA_DIR/keys as it was: files of mode 600 in folders of mode 700, no temporary file left', async () => {
        expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
        expect(fs.statSync(path.join(dir, 'seal-certificates')).mode & 0o777).toBe(0o700);
        for (const name of await first().list())
          expect(fs.statSync(path.join(dir, name)).mode & 0o777, name).toBe(0o600);
        expect(fs.readFileSync(path.join(dir, 'app-secret'))).toHaveLength(32);
        expect(fs.readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
        expect(first().describe('app-secret')).toBe(path.join(dir, 'app-secret'));
      });

    if (dialect === 'sqlite')
      it("lets the key another process links in first win, between this one's read and its link", async () => {
        const theirs = randomBytes(32);
        const link = fs.linkSync;
        const planted = vi.spyOn(fs, 'linkSync').mockImplementationOnce((temporary, file) => {
          // The other process was quicker: its key is in place when ours is linked.
          fs.writeFileSync(file, theirs, { mode: 0o600 });
          link(temporary, file);
        });
        try {
          expect((await first().createOnce('contested.key', randomBytes(32))).equals(theirs)).toBe(true);
          expect(planted).toHaveBeenCalledTimes(1);
        } finally {
          planted.mockRestore();
        }
        expect((await second().read('contested.key'))!.equals(theirs)).toBe(true);
        expect(fs.readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
      });
  });

/** What a dump of the database shows of the keys: sealed bytes only. */
describe('the keys in PostgreSQL', () => {
  let url: string;
  let db: PgDatabase;
  let keys: KeyStore;
  beforeAll(async () => {
    url = await createTestPostgresDatabase();
    db = await openPostgres(url);
    keys = await openDatabaseKeyStore(db, masterKey());
  });
  afterAll(() => db?.close());

  it('leaves no key in clear in the table (SELECT *) or in pg_dump', async () => {
    await loadAppSecret(keys);
    await loadSigningIdentity(keys, { officeName: 'Öberg & Partners' });
    await createWebhookKeyring(keys).generate();
    await sealSetting(keys, 'backup.passphrase', 'a passphrase long enough');
    await readOrCreateAccountKey(keys);
    const names = await keys.list();
    expect(names).toHaveLength(6);
    const clear = await Promise.all(names.map(async (name) => (await keys.read(name))!));

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let rows: Array<{ name: string; sealed: Buffer; updated_at: number }>;
    try {
      rows = (await client.query('SELECT * FROM sealed_keys')).rows;
    } finally {
      await client.end();
    }
    // The keys and the check of the master key, nothing else.
    expect(rows.map((row) => row.name).sort()).toEqual(['.master-key-check', ...names]);
    const table = Buffer.concat(
      rows.flatMap((row) => [Buffer.from(row.name), row.sealed, Buffer.from(`${row.updated_at}`)]),
    );
    const dump = execFileSync('pg_dump', ['--data-only', '--table=sealed_keys', url], { encoding: 'utf8' });
    expect(dump).toContain('COPY public.sealed_keys');
    for (const [index, value] of clear.entries()) {
      // Any 16 bytes of a key, raw or as pg_dump writes bytea (hex): none is there.
      for (let at = 0; at + 16 <= value.length; at += 8) {
        const window = value.subarray(at, at + 16);
        expect(table.includes(window), `${names[index]} at ${at}`).toBe(false);
        expect(dump.includes(window.toString('hex')), `${names[index]} at ${at}`).toBe(false);
      }
    }
    expect(`${table.toString('latin1')}${dump}`).not.toMatch(/PRIVATE KEY|CERTIFICATE|keyPem/);
  });

  it('opens a sealed key only under its own name: one copied over another is refused', async () => {
    await keys.createOnce('webhook-seal.key', randomBytes(32));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        "UPDATE sealed_keys SET sealed = (SELECT sealed FROM sealed_keys WHERE name = 'app-secret') WHERE name = 'webhook-seal.key'",
      );
    } finally {
      await client.end();
    }
    await expect(keys.read('webhook-seal.key')).rejects.toThrow(/does not open with the master key/);
    expect(await keys.read('app-secret')).toHaveLength(32);
  });
});
