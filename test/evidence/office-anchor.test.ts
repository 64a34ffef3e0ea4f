import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashEntry } from '../../server/activity/activity-chain';
import { chainEntryOf } from '../../server/activity/log-activity';
import { rawSql, type RawSql } from '../../server/db/raw-sql';
import { canonicalAnchor } from '../../server/evidence/anchors/anchor-form';
import { requestTimestamp } from '../../server/evidence/timestamps/request-timestamp';
import { download, signedContract, waitForTimestampStatus } from '../helpers/evidence';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

type Row = {
  id: number;
  contract_id: number;
  event: string;
  subject: string;
  user_id: number | null;
  party_id: number | null;
  user_agent: string;
  ip_address: string;
  created_at: number;
  sequence: number | null;
  details: string;
  previous_hash: string | null;
  hash: string | null;
};

/**
 * The insider's tools: SQL straight into the server's database (signdesk.sqlite, or PostgreSQL),
 * and the documented algorithm.
 */
function openDb(t: TestServer): RawSql {
  return rawSql(t.server.ctx.db);
}

function rowsOf(db: RawSql, contractId: number): Promise<Row[]> {
  return db.all<Row>('SELECT * FROM activity_log WHERE contract_id = ? ORDER BY sequence', contractId);
}

const hashOf = (row: Row, sequence: number, previousHash: string) =>
  hashEntry(
    chainEntryOf({
      contractId: row.contract_id,
      event: row.event,
      subject: row.subject,
      userId: row.user_id,
      partyId: row.party_id,
      userAgent: row.user_agent,
      ipAddress: row.ip_address,
      createdAt: row.created_at,
      sequence,
      details: row.details,
      previousHash,
    }),
  );

/**
 * A consistent rewrite: the rows as `edit` leaves them, numbered 1, 2, … again, every hash
 * recomputed, rows left out deleted, and the seal record's printed head set to match (or cleared).
 */
async function rewrite(db: RawSql, contractId: number, edit: (rows: Row[]) => Row[], clearSealHead = false) {
  const before = await rowsOf(db, contractId);
  const after = edit(before.map((row) => ({ ...row })));
  for (const row of before)
    if (!after.some((kept) => kept.id === row.id)) await db.run('DELETE FROM activity_log WHERE id = ?', row.id);
  // Numbers out of the way first: (contract, sequence) is unique.
  for (const row of after) await db.run('UPDATE activity_log SET sequence = -id WHERE id = ?', row.id);
  let previous = '0'.repeat(64);
  for (const [index, row] of after.entries()) {
    const hash = hashOf(row, index + 1, previous);
    await db.run(
      'UPDATE activity_log SET sequence = ?, previous_hash = ?, hash = ?, ip_address = ?, user_agent = ?, created_at = ? WHERE id = ?',
      index + 1,
      previous,
      hash,
      row.ip_address,
      row.user_agent,
      row.created_at,
      row.id,
    );
    previous = hash;
  }
  const seal = (await db.get<{ s: number }>(
    'SELECT chain_head_sequence AS s FROM contract_seals WHERE contract_id = ?',
    contractId,
  ))!;
  if (clearSealHead)
    await db.run(
      'UPDATE contract_seals SET chain_head_sequence = NULL, chain_head_hash = NULL WHERE contract_id = ?',
      contractId,
    );
  else
    await db.run(
      'UPDATE contract_seals SET chain_head_hash = ? WHERE contract_id = ?',
      (await db.get<{ hash: string }>(
        'SELECT hash FROM activity_log WHERE contract_id = ? AND sequence = ?',
        contractId,
        seal.s,
      ))!.hash,
      contractId,
    );
}

describe('the office anchor: insider rewrites of the log are detected once an anchor covers them', () => {
  let tsa: TsaServer;
  let t: TestServer;
  beforeAll(async () => {
    tsa = await startTsaServer();
    t = await startTestServer({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5] });
  });
  afterAll(async () => {
    await t?.close();
    await tsa?.close();
  });

  /** The contract's evidence package, unpacked into a fresh folder with the authority's root beside it. */
  async function unpackEvidence(self: string): Promise<string> {
    const zip = unzipSync(new Uint8Array((await download(t, `${self}/evidence`)).bytes));
    const folder = makeTempDir('signdesk-anchor-evidence-');
    for (const [name, bytes] of Object.entries(zip)) {
      const file = path.join(folder, name.split('/').slice(1).join('/'));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes);
    }
    fs.copyFileSync(tsa.caFile, path.join(folder, 'TSA-ROOT.pem'));
    return folder;
  }

  const verification = async (self: string) => (await t.api('GET', `${self}/activity_log/verification`)).body;

  /** A signed, timestamped contract whose whole log an office anchor holds. */
  async function anchoredContract() {
    const contract = await signedContract(t);
    await waitForTimestampStatus(t, contract.self, 'signature');
    // The long-term validation data (and its archive timestamp entry) come after the seal: wait for them.
    await vi.waitFor(async () => expect((await t.api('GET', contract.self)).body.ltv_status).toBe('done'), {
      timeout: 30_000,
      interval: 100,
    });
    let check: any;
    await vi.waitFor(
      async () => {
        check = await verification(contract.self);
        expect(check.proven_through_sequence).toBe(check.entry_count);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(check).toMatchObject({ is_intact: true, problems: [] });
    return { ...contract, check };
  }

  it('says up to which entry and by which moment the log is proven, and the office log and anchors verify', async () => {
    const contract = await anchoredContract();
    const { check } = contract;
    expect(check.proofs.length).toBeGreaterThanOrEqual(1);
    const last = check.proofs.at(-1);
    expect(last).toMatchObject({
      through_sequence: check.entry_count,
      authority: expect.stringContaining('Test Timestamp Authority'),
      authority_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    // The authority's time is the token's: close to now, not something the database said.
    expect(Math.abs(last.authority_time_ms - Date.now())).toBeLessThan(5 * 60_000);

    // The office log holds the administrator and key made at setup, and is anchored too.
    const office = await t.api('GET', '/api/office_log');
    expect(office.status).toBe(200);
    expect(office.body.map((entry: any) => entry.event)).toEqual(
      expect.arrayContaining(['user.created', 'token.created']),
    );
    const officeCheck = (await t.api('GET', '/api/office_log/verification')).body;
    expect(officeCheck).toMatchObject({ is_intact: true, problems: [] });
    expect(officeCheck.anchor_count).toBeGreaterThanOrEqual(1);
    expect(officeCheck.proven_through_sequence).toBeGreaterThanOrEqual(2);

    // The evidence package carries the anchors and tokens; its README's anchor commands run offline.
    const folder = await unpackEvidence(contract.self);
    const readme = fs.readFileSync(path.join(folder, 'README.txt'), 'utf8');
    const commands = [...readme.matchAll(/^ {2}\$ (.*office-anchors.*)$/gm)].map((match) => match[1]!);
    expect(commands.length).toBeGreaterThanOrEqual(4);
    const outputs = commands.map((command) =>
      execFileSync('bash', ['-c', `${command} 2>&1`], { cwd: folder, encoding: 'utf8' }),
    );
    expect(outputs.join('\n')).toContain('Verification: OK');
    expect(readme).toContain(`Entries 1 to ${check.entry_count} of ${check.entry_count} are proven this way.`);
    // A token over anything else fails: the step is real.
    const [anchorFile] = fs.readdirSync(path.join(folder, 'office-anchors')).filter((name) => name.endsWith('.tst'));
    const wrong = execFileSync(
      'bash',
      [
        '-c',
        `openssl ts -verify -digest ${'0'.repeat(64)} -in office-anchors/${anchorFile} -token_in -CAfile TSA-ROOT.pem 2>&1 || true`,
      ],
      { cwd: folder, encoding: 'utf8' },
    );
    expect(wrong).toContain('Verification: FAILED');
  }, 120_000);

  it('anchors again once an authority that was down answers: the entries wait unproven meanwhile', async () => {
    tsa.down();
    const contract = await signedContract(t);
    await waitForTimestampStatus(t, contract.self, 'pending');
    const waiting = await verification(contract.self);
    expect(waiting).toMatchObject({ is_intact: true, proven_through_sequence: 0, proofs: [] });
    const asked = tsa.queries();
    // Both the document timestamp and the anchor keep asking.
    await vi.waitFor(() => expect(tsa.queries()).toBeGreaterThan(asked + 2), { timeout: 15_000, interval: 50 });
    tsa.up();
    await waitForTimestampStatus(t, contract.self, 'document');
    await vi.waitFor(
      async () => {
        const check = await verification(contract.self);
        expect(check.proven_through_sequence).toBe(check.entry_count);
      },
      { timeout: 30_000, interval: 100 },
    );
    const events = ((await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[]).map(
      (entry) => entry.event,
    );
    expect(events[0]).toBe('contract.timestamped');
  }, 120_000);

  it("refuses an anchor whose authority's time is before the one before it, though every token is the authority's", async () => {
    await anchoredContract();
    const db = openDb(t);
    type AnchorRow = {
      id: number;
      sequence: number;
      created_at: number;
      heads_root: string;
      head_count: number;
      previous_hash: string;
    };
    const [last, before] = await db.all<AnchorRow>(
      'SELECT id, sequence, created_at, heads_root, head_count, previous_hash FROM office_anchors ORDER BY sequence DESC LIMIT 2',
    );
    /** A real token of the authority over the anchor's own hash, stored as the anchor's. */
    const restamp = async (row: AnchorRow) => {
      const fields = {
        sequence: row.sequence,
        createdAt: Number(row.created_at),
        headsRoot: row.heads_root,
        headCount: row.head_count,
        previousHash: row.previous_hash,
      };
      const token = await requestTimestamp(t.server.ctx, tsa.url, Buffer.from(canonicalAnchor(fields), 'utf8'), {
        timeoutMs: 10_000,
      });
      await db.run('UPDATE office_anchors SET token = ? WHERE id = ?', token.der, row.id);
      return token.genTime.getTime();
    };
    // An insider stamps the later anchor first, then the earlier one once the authority's clock has moved on.
    const lastTime = await restamp(last!);
    await expect.poll(() => restamp(before!), { timeout: 15_000, interval: 200 }).toBeGreaterThan(lastTime);
    const check = (await t.api('GET', '/api/office_log/verification')).body;
    expect(check.is_intact).toBe(false);
    expect(check.problems.map((problem: any) => problem.problem)).toContain(
      `office anchor #${last!.sequence}: its authority's time is before the anchor before it`,
    );
    // Stamped again in order, the same anchors hold.
    await restamp(last!);
    await vi.waitFor(
      async () =>
        expect((await t.api('GET', '/api/office_log/verification')).body).toMatchObject({
          is_intact: true,
          problems: [],
        }),
      { timeout: 15_000, interval: 100 },
    );
  }, 120_000);

  it('detects the five rewrites of the review (and cleared or changed anchors), each once an anchor covers it', async () => {
    const t5 = await anchoredContract();
    const t7 = await anchoredContract();
    const t8 = await anchoredContract();
    const t9 = await anchoredContract();
    const t10 = await anchoredContract();
    const untouched = await anchoredContract();
    const sealedAt = async (id: number, db: RawSql) =>
      (await db.get<{ at: number }>('SELECT created_at AS at FROM contract_seals WHERE contract_id = ?', id))!.at;

    const db = openDb(t);
    // T5: IP and user agent of two entries changed, every hash recomputed, the seal record's head updated.
    await rewrite(db, t5.id, (rows) => {
      for (const row of rows.slice(1, 3)) Object.assign(row, { ip_address: '203.0.113.9', user_agent: 'Forged/1.0' });
      return rows;
    });
    // T7: the last entry (contract.timestamped) deleted.
    await db.run('DELETE FROM activity_log WHERE contract_id = ? AND sequence = ?', t7.id, t7.check.entry_count);
    // T8: the seal record's head cleared, an entry deleted, the rest renumbered and rehashed.
    await rewrite(db, t8.id, (rows) => rows.filter((row) => row.sequence !== 3), true);
    // T10: a forged, self-hashed entry appended, dated before sealing.
    const head = (await rowsOf(db, t10.id)).at(-1)!;
    const forged: Row = {
      ...head,
      id: 0,
      event: 'party.code_verified',
      subject: '',
      user_id: null,
      created_at: (await sealedAt(t10.id, db)) - 60 * 60_000,
      details: '{}',
    };
    const forgedHash = hashOf(forged, head.sequence! + 1, head.hash!);
    await db.run(
      `INSERT INTO activity_log (contract_id, event, subject, user_id, party_id, user_agent, ip_address, created_at, sequence, details, previous_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      t10.id,
      forged.event,
      '',
      null,
      forged.party_id,
      forged.user_agent,
      forged.ip_address,
      forged.created_at,
      head.sequence! + 1,
      '{}',
      head.hash,
      forgedHash,
    );
    // T9: a backdated row without sequence or hash, for the appliance to chain at its next start.
    await db.run(
      `INSERT INTO activity_log (contract_id, event, subject, user_id, party_id, user_agent, ip_address, created_at, details)
       VALUES (?, 'party.code_verified', '', NULL, ?, 'node', '127.0.0.1', ?, '{}')`,
      t9.id,
      (await rowsOf(db, t9.id)).at(-1)!.party_id,
      (await sealedAt(t9.id, db)) - 24 * 60 * 60_000,
    );

    // The appliance restarts on the same data folder (and chains the T9 row, as it did for the review).
    const dataDir = t.dataDir;
    await t.close();
    t = await startTestServer({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5] }, dataDir);

    const expectDetected = async (self: string, pattern: RegExp) => {
      const check = await verification(self);
      expect(check.is_intact, JSON.stringify(check)).toBe(false);
      expect(check.problems.map((problem: any) => problem.problem).join('\n')).toMatch(pattern);
      return check;
    };
    // Without the anchors, each of these passed every check (the review's table); now each is caught.
    const c5 = await expectDetected(t5.self, /office anchor #\d+ .* holds: this or an earlier entry was rewritten/);
    expect(c5.sealed_head_hash).not.toBeNull();
    // The package's README reads the head from the PDF itself, not from the rewritten database.
    const t5Folder = await unpackEvidence(t5.self);
    const headCommand = /^ {2}\$ (t=\$\(pdftotext .*)$/m.exec(
      fs.readFileSync(path.join(t5Folder, 'README.txt'), 'utf8'),
    )![1]!;
    expect(execFileSync('bash', ['-c', headCommand], { cwd: t5Folder, encoding: 'utf8' })).toContain(
      'is NOT in this chain',
    );
    await expectDetected(t7.self, /is missing, but office anchor #\d+ .*holds it/);
    await expectDetected(t8.self, /office anchor #\d+/);
    const c9 = await expectDetected(t9.self, /backdated/);
    expect(c9.entry_count).toBe(t9.check.entry_count + 1);
    await expectDetected(t10.self, /backdated/);
    expect(await verification(untouched.self)).toMatchObject({ is_intact: true, problems: [] });

    // Clearing the anchor's record of a contract, or changing an anchor's time, breaks the anchor
    // chain itself: its token no longer stamps what the row says.
    const db2 = openDb(t);
    const anchorOf = (await db2.get<{ id: number }>(
      'SELECT anchor_id AS id FROM anchor_heads WHERE chain = ? ORDER BY anchor_id DESC LIMIT 1',
      untouched.self,
    ))!;
    await db2.run('DELETE FROM anchor_heads WHERE anchor_id = ? AND chain = ?', anchorOf.id, untouched.self);
    await expectDetected(untouched.self, /office anchor #\d+: its timestamp token stamps another hash/);
  }, 300_000);
});
