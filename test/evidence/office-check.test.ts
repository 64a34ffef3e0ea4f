import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashEntry } from '../../server/activity/activity-chain';
import { officeChainEntryOf } from '../../server/activity/office-log';
import { chainEntryOf } from '../../server/activity/log-activity';
import { rawSql, type RawSql } from '../../server/db/raw-sql';
import { newDraft } from '../helpers/contracts';
import { signedContract, waitForLtvStatus, waitForTimestampStatus } from '../helpers/evidence';
import { openOfficeDatabase } from '../helpers/office-database';
import { startTestServer, type TestServer } from '../helpers/server';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

type Row = {
  contract_id: number;
  event: string;
  subject: string;
  user_id: number | null;
  party_id: number | null;
  user_agent: string;
  ip_address: string;
  created_at: number;
  sequence: number;
  details: string;
  previous_hash: string;
  hash: string;
};

/**
 * What the office's own check sees beyond each chain (issue 39, item 5; the review's i04, i05,
 * i06, i12): each rewrite an insider makes with SQL on the office's database (SQLite or
 * PostgreSQL) is reported by GET /api/office_log/verification or the contract's check, with its
 * reason; what SignDesk itself did (a draft deleted, an e-mail changed, a webhook made) is not.
 */
describe("the office check: what an insider's SQL rewrite of the office leaves out of step", () => {
  let tsa: TsaServer;
  let t: TestServer;
  let db: RawSql;
  beforeAll(async () => {
    tsa = await startTsaServer();
    t = await startTestServer({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5] });
    db = rawSql(t.server.ctx.db);
  });
  afterAll(async () => {
    await t?.close();
    await tsa?.close();
  });

  const check = async (self: string) => (await t.api('GET', `${self}/activity_log/verification`)).body;
  const officeCheck = async () => (await t.api('GET', '/api/office_log/verification')).body;
  const problemsOf = (body: any) => (body.problems as { problem: string }[]).map((p) => p.problem).join('\n');

  /** A signed, timestamped contract whose whole log an office anchor holds. */
  async function anchoredContract() {
    const contract = await signedContract(t);
    await waitForTimestampStatus(t, contract.self, 'signature');
    await waitForLtvStatus(t, contract.self, 'done');
    await vi.waitFor(
      async () => {
        const body = await check(contract.self);
        expect(body.proven_through_sequence).toBe(body.entry_count);
      },
      { timeout: 30_000, interval: 100 },
    );
    return contract;
  }

  /** Appends a self-hashed entry dated `at` to a contract's chain, as the review's i12 did. */
  async function appendForged(contractId: number, at: number, event = 'party.code_verified') {
    const head = (await db.get<Row>(
      'SELECT * FROM activity_log WHERE contract_id = ? ORDER BY sequence DESC LIMIT 1',
      contractId,
    ))!;
    const forged = {
      contractId,
      event,
      subject: '',
      userId: null,
      partyId: head.party_id,
      userAgent: head.user_agent,
      ipAddress: head.ip_address,
      createdAt: at,
      sequence: head.sequence + 1,
      details: '{}',
      previousHash: head.hash,
    };
    await db.run(
      `INSERT INTO activity_log (contract_id, event, subject, user_id, party_id, user_agent, ip_address, created_at, sequence, details, previous_hash, hash)
       VALUES (?, ?, '', NULL, ?, ?, ?, ?, ?, '{}', ?, ?)`,
      contractId,
      forged.event,
      forged.partyId,
      forged.userAgent,
      forged.ipAddress,
      at,
      forged.sequence,
      forged.previousHash,
      hashEntry(chainEntryOf(forged)),
    );
  }

  let sealed: { id: number; self: string };
  let later: { id: number; self: string };
  let webhooks: number[];
  let userPath: string;

  it('an office where SignDesk itself deleted an anchored draft, changed an e-mail and made webhooks checks intact', async () => {
    const draft = await newDraft(t);
    sealed = await anchoredContract();
    // The anchor after that seal folded the draft's log too.
    await vi.waitFor(async () => expect((await check(draft.self)).proven_through_sequence).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 100,
    });
    expect((await t.api('DELETE', draft.self)).status).toBe(204);
    // From here the office's clock runs 30 s ahead (under the minute that warns): what follows is
    // dated well after `sealed`, whose entries the tests below compare with it.
    t.clock.shift(30_000);
    const user = await t.api('POST', '/api/users', {
      body: { username: 'clerk', email: 'clerk@office.test', password: 'clerk password long enough' },
    });
    expect(user.status, user.text).toBe(201);
    userPath = user.body.self;
    expect((await t.api('PUT', userPath, { body: { email: 'clerk.new@office.test' } })).status).toBe(200);
    webhooks = [];
    for (const name of ['a', 'b']) {
      const made = await t.api('POST', '/api/webhooks', { body: { url: `http://127.0.0.1:9/${name}` } });
      expect(made.status, made.text).toBe(201);
      webhooks.push(Number(made.body.self.split('/').at(-1)));
    }
    later = await anchoredContract();

    const office = await officeCheck();
    expect(office, JSON.stringify(office)).toMatchObject({ is_intact: true, problems: [] });
    const events = ((await t.api('GET', '/api/office_log')).body as any[]).map((entry) => entry.event);
    expect(events).toEqual(expect.arrayContaining(['contract.deleted', 'user.changed', 'webhook.created']));
    expect(await check(sealed.self)).toMatchObject({ is_intact: true, problems: [] });
  }, 180_000);

  it('an entry dated after the one it follows, but before an anchor that does not hold it, fails its contract’s check (even a second contract.signed)', async () => {
    // The newest anchor folded `later` alone, 30 s of the office's clock after `sealed` was done:
    // an entry of `sealed` dated 10 s before that anchor is inside the old 10-minute grace.
    const anchor = (await db.get<{ at: number }>(
      'SELECT created_at AS at FROM office_anchors ORDER BY sequence DESC LIMIT 1',
    ))!.at;
    const head = (await db.get<{ at: number }>(
      'SELECT max(created_at) AS at FROM activity_log WHERE contract_id = ?',
      sealed.id,
    ))!.at;
    // Named contract.signed, to borrow a signing batch's 10 minutes: only the first one makes a batch.
    await appendForged(sealed.id, anchor - 10_000, 'contract.signed');
    expect(anchor - 10_000).toBeGreaterThan(Number(head));
    const body = await check(sealed.self);
    expect(body.is_intact, JSON.stringify(body)).toBe(false);
    expect(problemsOf(body)).toMatch(
      /office anchor #\d+, made after that .* does not hold it: it was written later and backdated/,
    );
    expect(problemsOf(body)).not.toMatch(/before the entry before it/);
  }, 60_000);

  it('an entry backdated inside the grace, before the entry it follows, fails its contract’s check', async () => {
    // The review's i12: a party's code "verified" just before the party opened the contract.
    const opened = (await db.get<{ at: number }>(
      "SELECT created_at AS at FROM activity_log WHERE contract_id = ? AND event = 'party.opened' ORDER BY sequence LIMIT 1",
      later.id,
    ))!.at;
    await appendForged(later.id, Number(opened) - 10_000);
    const body = await check(later.self);
    expect(body.is_intact, JSON.stringify(body)).toBe(false);
    expect(problemsOf(body)).toMatch(/is dated .*, before the entry before it \(#\d+, .*\): .* backdated/);
  }, 60_000);

  it('a whole anchored contract deleted in the database fails the office check', async () => {
    await db.run('DELETE FROM contracts WHERE id = ?', sealed.id);
    expect((await t.api('GET', sealed.self)).status).toBe(404);
    const body = await officeCheck();
    expect(body.is_intact, JSON.stringify(body)).toBe(false);
    expect(problemsOf(body)).toContain(`${sealed.self} is gone, but office anchor #`);
    expect(problemsOf(body)).toMatch(/the office log records no deletion: the contract was deleted in the database/);
  }, 60_000);

  it("a user's e-mail changed in the database fails the office check", async () => {
    await db.run(
      'UPDATE users SET email = ? WHERE id = ?',
      'insider@elsewhere.test',
      Number(userPath.split('/').at(-1)),
    );
    const body = await officeCheck();
    expect(body.is_intact).toBe(false);
    expect(problemsOf(body)).toContain(
      `${userPath} (clerk): its e-mail is not the one this entry recorded: it was changed in the database, outside SignDesk`,
    );
    // A user the office log never saw, added with SQL, is named too.
    await db.run(
      `INSERT INTO users (username, email, permission_template, created_at) VALUES ('mole', 'mole@elsewhere.test', 'CUSTOMER_ADMIN_USER', ?)`,
      Date.now(),
    );
    expect(problemsOf(await officeCheck())).toMatch(
      /\/api\/users\/\d+ \(mole\) is in no entry of the office log: it was added outside SignDesk/,
    );
  }, 60_000);

  it("a webhook consumer's keys swapped in the database fail the office check", async () => {
    const [a, b] = webhooks as [number, number];
    // Consumer a now signs with b's key pair (the secret half sealed as the appliance sealed it).
    await db.run(
      `UPDATE webhook_consumers SET
         public_key = (SELECT public_key FROM webhook_consumers WHERE id = ?),
         sealed_secret_key = (SELECT sealed_secret_key FROM webhook_consumers WHERE id = ?)
       WHERE id = ?`,
      b,
      b,
      a,
    );
    const body = await officeCheck();
    expect(body.is_intact).toBe(false);
    expect(problemsOf(body)).toContain(`/api/webhooks/${a}: its public key is not the one this entry recorded`);
  }, 60_000);
});

describe('an office log from before the fingerprints', () => {
  it("records the users' e-mails and the consumers' keys once at start; a user added later with SQL stays a problem", async () => {
    let t = await startTestServer();
    const consumer = await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/old' } });
    expect(consumer.status, consumer.text).toBe(201);
    const dataDir = t.dataDir;
    await t.close();
    // The office log as an older version wrote it: no fingerprints (rewritten and rehashed, no anchors).
    const office = await openOfficeDatabase(dataDir);
    try {
      const rows = await office.sql.all<Record<string, any>>('SELECT * FROM office_log ORDER BY sequence');
      let previous = '0'.repeat(64);
      for (const row of rows) {
        const details = JSON.parse(row.details as string) as Record<string, string>;
        delete details.email_sha256;
        delete details.public_key_sha256;
        const entry = {
          sequence: Number(row.sequence),
          event: row.event,
          subject: row.subject,
          userId: row.user_id === null ? null : Number(row.user_id),
          userAgent: row.user_agent,
          ipAddress: row.ip_address,
          createdAt: Number(row.created_at),
          details: JSON.stringify(details),
          previousHash: previous,
        };
        const hash = hashEntry(officeChainEntryOf({ ...entry, hash: '' }));
        await office.sql.run(
          'UPDATE office_log SET details = ?, previous_hash = ?, hash = ? WHERE id = ?',
          entry.details,
          previous,
          hash,
          row.id,
        );
        previous = hash;
      }
    } finally {
      await office.close();
    }

    t = await startTestServer({}, dataDir);
    try {
      const recorded = ((await t.api('GET', '/api/office_log')).body as any[]).filter(
        (entry) => entry.event === 'identities.recorded',
      );
      expect(recorded).toHaveLength(1);
      expect(Object.keys(recorded[0].details)).toEqual(
        expect.arrayContaining(['user_1', `webhook_${consumer.body.id ?? consumer.body.self.split('/').at(-1)}`]),
      );
      expect((await t.api('GET', '/api/office_log/verification')).body).toMatchObject({
        is_intact: true,
        problems: [],
      });
      const db = rawSql(t.server.ctx.db);
      await db.run(
        `INSERT INTO users (username, email, permission_template, created_at) VALUES ('mole', 'mole@elsewhere.test', 'CUSTOMER_ADMIN_USER', ?)`,
        Date.now(),
      );
      // Started again, the office does not record it: the fingerprints were taken once.
      const again = t.dataDir;
      await t.close();
      t = await startTestServer({}, again);
      const body = (await t.api('GET', '/api/office_log/verification')).body;
      expect(body.is_intact).toBe(false);
      expect(body.problems.map((p: any) => p.problem).join('\n')).toMatch(/\(mole\) is in no entry of the office log/);
    } finally {
      await t.close();
    }
  }, 120_000);
});
