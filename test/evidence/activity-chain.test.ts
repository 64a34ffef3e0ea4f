import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSql } from '../../server/db/raw-sql';
import { recompute } from '../helpers/activity-hash';
import { signedContract } from '../helpers/evidence';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';

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
  // An insider with the database: SQL straight into signdesk.sqlite, or into PostgreSQL.
  const db = () => rawSql(t.server.ctx.db);
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
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
    const signedAt = (await db().get<{ sequence: number; ip: string }>(
      "SELECT sequence, ip_address AS ip FROM activity_log WHERE contract_id = ? AND event = 'party.signed'",
      id,
    ))!;
    await db().run(
      'UPDATE activity_log SET ip_address = ? WHERE contract_id = ? AND sequence = ?',
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
    await db().run(
      'UPDATE activity_log SET ip_address = ? WHERE contract_id = ? AND sequence = ?',
      signedAt.ip,
      id,
      signedAt.sequence,
    );
    expect((await check(contract.self)).is_intact).toBe(true);

    // An entry removed leaves a gap and a broken link.
    const removed = (await db().get<Record<string, unknown>>(
      "SELECT * FROM activity_log WHERE contract_id = ? AND event = 'party.opened'",
      id,
    ))!;
    await db().run('DELETE FROM activity_log WHERE id = ?', removed.id);
    const gap = await check(contract.self);
    expect(gap.is_intact).toBe(false);
    expect(gap.problems.map((problem: { problem: string }) => problem.problem).join('\n')).toMatch(
      /missing or was inserted/,
    );
    const columns = Object.keys(removed);
    await db().run(
      `INSERT INTO activity_log (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      ...columns.map((column) => removed[column]),
    );
    expect((await check(contract.self)).is_intact).toBe(true);

    // A forger who rewrites a past entry and every hash after it still fails the head sealed into the PDF.
    const rows = await db().all<any>('SELECT * FROM activity_log WHERE contract_id = ? ORDER BY sequence', id);
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
      await db().run(
        'UPDATE activity_log SET ip_address = ?, previous_hash = ?, hash = ? WHERE id = ?',
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
    await db().run(
      "UPDATE activity_log SET sequence = NULL, previous_hash = NULL, hash = NULL, details = '{}' WHERE contract_id = ?",
      contract.id,
    );
    const old = await signedContract(t, [{ name: 'Eva Gammal', email: 'eva@example.test' }]);
    const oldPdf = Buffer.from(
      await (
        await fetch(new URL(`${old.self}/signed_pdf`, t.url), {
          headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
        })
      ).arrayBuffer(),
    );
    await db().run('DELETE FROM contract_seals WHERE contract_id = ?', old.id);
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
});
