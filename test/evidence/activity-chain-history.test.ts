import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recompute } from '../helpers/activity-hash';
import { signedContract } from '../helpers/evidence';
import { migrationTime, undoMigrationsAfter0012 } from '../helpers/migrations';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';

// An office upgraded from a version before the hash chain: signdesk.sqlite rolled back to that
// schema, then the migrations run again at start-up. The PostgreSQL schema never had that history.
describe('the activity log of an office from before the chain', () => {
  let t: TestServer;
  let db: Database.Database;
  beforeAll(async () => {
    t = await startTestServer();
    db = new Database(path.join(t.dataDir, 'signdesk.sqlite'));
  });
  afterAll(async () => {
    db?.close();
    await t?.close();
  });

  const logOf = async (contract: string) =>
    ((await t.api('GET', `${contract}/activity_log?per_page=100`)).body as any[]).reverse();
  const check = async (contract: string) => (await t.api('GET', `${contract}/activity_log/verification`)).body;

  it('migrates a log written before the chain: the acting party from the subject and the one-text detail into details (migration 0011)', async () => {
    const signed = await signedContract(t, [{ name: 'Gun Förr', email: 'gun@example.test' }]);
    const withdrawn = await makeContract(t, [{ name: 'Hans Förr', email: 'hans@example.test' }]);
    expect((await t.api('POST', `${withdrawn.self}/send`)).status).toBeLessThan(300);
    expect(
      (await t.api('POST', `${withdrawn.self}/withdraw`, { body: { reason: 'Fel version' } })).status,
    ).toBeLessThan(300);
    const actors = async (contract: string) =>
      (await logOf(contract)).map((entry) => [entry.event, entry.actor_type, entry.actor]);
    const before = [await actors(signed.self), await actors(withdrawn.self)];
    expect(before[0]).toContainEqual(['party.signed', 'party', signed.parties[0]!.self]);
    // Back to the database as issue 12b left it: a one-text detail, no chain, and no acting party
    // on entries written before it was stored (and, as then, link tokens in their own column);
    // then migrations 0011 and 0012 run again at start-up (and every later one after them).
    const dataDir = t.dataDir;
    await t.close();
    // Later migrations first (the search triggers call a function only the server's connection has).
    db.exec(undoMigrationsAfter0012());
    db.exec(`
      ALTER TABLE activity_log ADD detail text DEFAULT '' NOT NULL;
      UPDATE activity_log SET detail = CASE
        WHEN event IN ('party.invited', 'party.withdrawal_sent') THEN json_extract(details, '$.channel')
        WHEN event = 'contract.withdrawn' THEN json_extract(details, '$.reason')
        ELSE '' END;
      UPDATE activity_log SET party_id = NULL;
      DROP INDEX activity_log_chain;
      DROP INDEX activity_log_unchained;
      ALTER TABLE activity_log DROP COLUMN sequence;
      ALTER TABLE activity_log DROP COLUMN details;
      ALTER TABLE activity_log DROP COLUMN previous_hash;
      ALTER TABLE activity_log DROP COLUMN hash;
      DROP TABLE contract_seals;
      DROP INDEX parties_sign_token_hash;
      ALTER TABLE parties RENAME COLUMN sign_token_hash TO sign_token;
      ALTER TABLE parties DROP COLUMN sign_nonce;
      ALTER TABLE parties DROP COLUMN sign_token_sealed;
      CREATE UNIQUE INDEX parties_sign_token ON parties (sign_token);
      DELETE FROM __drizzle_migrations WHERE created_at >= ${migrationTime('0011')};
    `);
    t = await startTestServer({}, dataDir);
    expect([await actors(signed.self), await actors(withdrawn.self)]).toEqual(before);
    const log = await logOf(withdrawn.self);
    expect(log.find((entry) => entry.event === 'contract.withdrawn').details).toEqual({ reason: 'Fel version' });
    expect(log.find((entry) => entry.event === 'party.withdrawal_sent').details).toEqual({ channel: 'email' });
    for (const contract of [signed.self, withdrawn.self]) {
      for (const entry of await logOf(contract)) expect(recompute(entry, contract)).toBe(entry.hash);
      expect((await check(contract)).is_intact).toBe(true);
    }
  }, 180_000);
});
