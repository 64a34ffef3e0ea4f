import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedContract } from '../helpers/evidence';
import { startTestServer, type TestServer } from '../helpers/server';
import { migrationTime, undoMigrationsAfter0012 } from '../helpers/migrations';
import { makeContract } from '../helpers/signing';

/** The documented canonical form, written here from the documentation (not imported from the server). */
function recompute(entry: any, contract: string): string {
  const details = Object.fromEntries(
    Object.keys(entry.details)
      .sort()
      .map((key) => [key, entry.details[key]]),
  );
  const canonical = JSON.stringify([
    'signdesk-activity-v1',
    contract,
    entry.sequence,
    new Date(entry.recorded_ms).toISOString(),
    entry.event,
    entry.subject,
    entry.actor ?? '',
    entry.user_agent,
    entry.ip_address,
    details,
    entry.previous_hash,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The same in Python, as the API documentation gives it. */
const PYTHON = `
import hashlib, json, sys, time
contract, entries = sys.argv[1], json.load(sys.stdin)
for e in sorted(entries, key=lambda e: e["sequence"]):
    ms = e["recorded_ms"]
    recorded = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + ".%03dZ" % (ms % 1000)
    form = ["signdesk-activity-v1", contract, e["sequence"], recorded, e["event"], e["subject"], e["actor"] or "", e["user_agent"], e["ip_address"], e["details"], e["previous_hash"]]
    print(hashlib.sha256(json.dumps(form, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")).hexdigest())
`;

describe('the hash-chained activity log', () => {
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

  it('chains every entry to the one before, and anyone can recompute the hashes from the API (JavaScript and Python)', async () => {
    const contract = await signedContract(t, [
      { name: 'Åsa "Ö" Öberg', email: 'asa@example.test' },
      { name: 'Bo Ek', email: 'bo@example.test' },
    ]);
    const entries = await logOf(contract.self);
    expect(entries.map((entry) => entry.sequence)).toEqual(entries.map((_, index) => index + 1));
    let previous = '0'.repeat(64);
    for (const entry of entries) {
      expect(entry.previous_hash).toBe(previous);
      expect(recompute(entry, contract.self)).toBe(entry.hash);
      previous = entry.hash;
    }
    const python = spawnSync('python3', ['-c', PYTHON, contract.self], {
      input: JSON.stringify(entries),
      encoding: 'utf8',
    });
    expect(python.stderr).toBe('');
    expect(python.stdout.trim().split('\n')).toEqual(entries.map((entry) => entry.hash));

    const signed = entries.find((entry) => entry.event === 'party.signed');
    expect(signed.details).toMatchObject({ signature_name: expect.any(String), mark: 'typed', authentication: 'NONE' });
    expect(entries.find((entry) => entry.event === 'party.invited').details).toMatchObject({
      channel: 'email',
      email: expect.any(String),
    });
    const verification = await check(contract.self);
    const head = entries.find((entry) => entry.event === 'contract.signed');
    expect(verification).toEqual({
      is_intact: true,
      entry_count: entries.length,
      head_sequence: entries.at(-1).sequence,
      head_hash: entries.at(-1).hash,
      sealed_head_sequence: head.sequence,
      sealed_head_hash: head.hash,
      // No timestamp authority here: no office anchor proves any of it.
      proven_through_sequence: 0,
      proofs: [],
      latest_anchor_time: null,
      problems: [],
    });
  }, 180_000);

  it('detects a past entry changed with SQL, one removed, and a chain rewritten after the sealed head', async () => {
    const contract = await signedContract(t, [{ name: 'Cai Lund', email: 'cai@example.test' }]);
    const id = contract.id;
    expect((await check(contract.self)).is_intact).toBe(true);

    // Someone with the database file changes where a party signed from.
    const signedAt = db
      .prepare("SELECT sequence, ip_address AS ip FROM activity_log WHERE contract_id = ? AND event = 'party.signed'")
      .get(id) as { sequence: number; ip: string };
    db.prepare('UPDATE activity_log SET ip_address = ? WHERE contract_id = ? AND sequence = ?').run(
      '203.0.113.9',
      id,
      signedAt.sequence,
    );
    const edited = await check(contract.self);
    expect(edited.is_intact).toBe(false);
    expect(edited.problems).toContainEqual({
      sequence: signedAt.sequence,
      problem: expect.stringContaining('was changed after it was written'),
    });
    db.prepare('UPDATE activity_log SET ip_address = ? WHERE contract_id = ? AND sequence = ?').run(
      signedAt.ip,
      id,
      signedAt.sequence,
    );
    expect((await check(contract.self)).is_intact).toBe(true);

    // An entry removed leaves a gap and a broken link.
    const removed = db
      .prepare("SELECT * FROM activity_log WHERE contract_id = ? AND event = 'party.opened'")
      .get(id) as Record<string, unknown>;
    db.prepare('DELETE FROM activity_log WHERE id = ?').run(removed.id);
    const gap = await check(contract.self);
    expect(gap.is_intact).toBe(false);
    expect(gap.problems.map((problem: { problem: string }) => problem.problem).join('\n')).toMatch(
      /missing or was inserted/,
    );
    const columns = Object.keys(removed);
    db.prepare(`INSERT INTO activity_log (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
      ...columns.map((column) => removed[column]),
    );
    expect((await check(contract.self)).is_intact).toBe(true);

    // A forger who rewrites a past entry and every hash after it still fails the head sealed into the PDF.
    const rows = db.prepare('SELECT * FROM activity_log WHERE contract_id = ? ORDER BY sequence').all(id) as any[];
    let previous = '0'.repeat(64);
    for (const row of rows) {
      if (row.event === 'party.signed') row.ip_address = '203.0.113.9';
      const entry = {
        ...row,
        details: JSON.parse(row.details),
        recorded_ms: row.created_at,
        actor: row.user_id
          ? `/api/users/${row.user_id}`
          : row.party_id
            ? `${contract.self}/parties/${row.party_id}`
            : '',
        previous_hash: previous,
      };
      const hash = recompute(entry, contract.self);
      db.prepare('UPDATE activity_log SET ip_address = ?, previous_hash = ?, hash = ? WHERE id = ?').run(
        row.ip_address,
        previous,
        hash,
        row.id,
      );
      previous = hash;
    }
    const forged = await check(contract.self);
    expect(forged.is_intact).toBe(false);
    expect(forged.problems).toEqual([
      { sequence: forged.sealed_head_sequence, problem: expect.stringContaining('sealed audit trail') },
    ]);
  }, 180_000);

  it('chains the entries written before the upgrade at start-up, and records the seals of contracts signed before', async () => {
    const contract = await makeContract(t, [{ name: 'Dag Ny', email: 'dag@example.test' }]);
    const before = await logOf(contract.self);
    // As a database from before the chain: no sequence, hash or details, and no seal records.
    db.prepare(
      "UPDATE activity_log SET sequence = NULL, previous_hash = NULL, hash = NULL, details = '{}' WHERE contract_id = ?",
    ).run(contract.id);
    const old = await signedContract(t, [{ name: 'Eva Gammal', email: 'eva@example.test' }]);
    const oldPdf = Buffer.from(
      await (
        await fetch(new URL(`${old.self}/signed_pdf`, t.url), {
          headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
        })
      ).arrayBuffer(),
    );
    db.prepare('DELETE FROM contract_seals WHERE contract_id = ?').run(old.id);
    const dataDir = t.dataDir;
    await t.close();
    t = await startTestServer({}, dataDir);
    const after = await logOf(contract.self);
    expect(after.map((entry) => [entry.sequence, entry.event])).toEqual(
      before.map((entry) => [entry.sequence, entry.event]),
    );
    for (const entry of after) expect(recompute(entry, contract.self)).toBe(entry.hash);
    expect((await check(contract.self)).is_intact).toBe(true);
    const oldCheck = await check(old.self);
    expect(oldCheck).toMatchObject({ is_intact: true, sealed_head_sequence: null });
    const verified = await (
      await fetch(`${t.url}/verify/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: oldPdf,
      })
    ).json();
    expect(verified).toMatchObject({ verdict: 'intact', contract: { name: 'Hyresavtal Storgatan 1' } });
    // New entries carry on from the chained ones.
    await t.api('PUT', contract.self, { body: { name: 'Renamed' } });
    const renamed = await logOf(contract.self);
    expect(renamed.at(-1)).toMatchObject({
      event: 'contract.updated',
      sequence: after.length + 1,
      previous_hash: after.at(-1).hash,
    });
  }, 180_000);

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
