import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../shared/time';
import { contractState } from '../helpers/contracts';
import { makePdf } from '../helpers/pdfs';
import { expectProblem } from '../helpers/problems';
import { cli, startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient, type MadeContract } from '../helpers/signing';

const DAY_MS = 86_400_000;
const USAGE = '/api/partner/subscription/usage';

/**
 * The office's plan where it bites, through the real server: a month's contracts and SMS, the
 * end date, and a bulk send's rows, with the test clock moving the month. A party's signing is
 * never refused.
 */
describe("the office's plan limits", () => {
  let t: TestServer;
  let partner: string;
  let zone: string;
  const plan = async (body: Record<string, unknown>) => {
    const changed = await t.api('PUT', '/api/partner/subscription', { body, key: partner });
    expect(changed.status, changed.text).toBe(200);
    return changed.body;
  };
  const usage = async () => (await t.api('GET', USAGE, { key: partner })).body;
  const contractWith = (name: string, extra: Record<string, unknown> = {}) =>
    makeContract(t, [{ name, email: `${name.toLowerCase()}@example.test`, ...extra }]);
  /** Moves the server's clock to `at`, letting it run on from there. */
  const moveTo = (at: number) => t.clock.shift(at - Date.now());

  beforeAll(async () => {
    t = await startTestServer();
    const token = await cli(t.dataDir, [
      'token',
      'create',
      '--name',
      'msp',
      '--kind',
      'partner',
      '--rate-limit',
      '100000',
    ]);
    partner = token.out.at(-1) as string;
    zone = (await t.api('GET', '/api/settings/general')).body.effective_time_zone;
    // The middle of this month: nothing a slow run does turns it.
    moveTo((parseTimestamp((await usage()).month_start_time, zone) as number) + 14.5 * DAY_MS);
  });
  afterAll(() => t?.close());
  // Each test sets the limits it is about; none carries over.
  afterEach(async () => {
    await plan({ plan_name: null, seats: null, contracts_per_month: null, sms_per_month: null, end_date: null });
  });

  it('lets the third send of a 2-a-month plan fail while a party of a sent contract signs, and lifts the limit when the month turns', async () => {
    expect(await plan({ plan_name: 'Liten', contracts_per_month: 2 })).toMatchObject({ contracts_per_month: 2 });
    const before = await usage();
    const used = before.contracts_sent.used;
    expect(used).toBe(0);
    const [first, second, third] = [await contractWith('Anna'), await contractWith('Bo'), await contractWith('Cia')];
    for (const contract of [first, second] as MadeContract[])
      expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);

    const untouched = await contractState(t, third!.id);
    const refused = await t.api('POST', `${third!.self}/send`);
    expectProblem(refused, 403, 'plan-limit');
    expect(refused.body.title).toBe('Plan limit reached');
    expect(refused.body.detail).toBe(
      `The office's plan allows 2 contracts sent a month (contracts_per_month), and 2 were sent in ${before.month}. The allowance resets at ${before.month_turns_time}.`,
    );
    expect(await contractState(t, third!.id)).toEqual(untouched);
    expect((await usage()).contracts_sent).toEqual({ used: 2, allowed: 2 });

    // Anna's contract went out before the limit: she signs, it is sealed, and it downloads.
    const anna = signingClient(first!.parties[0]!.contract_url);
    expect((await anna.open()).status).toBe(200);
    expect((await anna.state()).body.stage).toBe('ready');
    const accepted = await anna.accept({}, 'Anna');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await expect
      .poll(async () => (await t.api('GET', `${first!.self}/signed_pdf`)).headers.get('content-type'), {
        timeout: 30_000,
      })
      .toBe('application/pdf');
    expect((await anna.signedPdf()).headers.get('content-type')).toBe('application/pdf');

    moveTo((parseTimestamp(before.month_turns_time, zone) as number) + 60_000);
    const next = await usage();
    expect(next.month).not.toBe(before.month);
    expect(next.contracts_sent).toEqual({ used: 0, allowed: 2 });
    expect((await t.api('POST', `${third!.self}/send`)).status).toBe(200);
    expect((await usage()).contracts_sent).toEqual({ used: 1, allowed: 2 });
    // Rebuilding the contract list's counts (a repair) keeps the month's usage.
    await t.server.ctx.repos.contracts.recount();
    expect((await usage()).contracts_sent).toEqual({ used: 1, allowed: 2 });
  });

  it('counts the SMS a send queues, and refuses a send whose invitations pass the month’s SMS', async () => {
    const sms = (name: string, phone: string) => ({
      name,
      mobile_phone: phone,
      delivery_method: 'SMS',
    });
    const start = (await usage()).sms.used;
    const two = await makeContract(t, [sms('Dan', '+46701110001'), sms('Eva', '+46701110002')]);
    expect((await t.api('POST', `${two.self}/send`)).status).toBe(200);
    expect((await usage()).sms).toEqual({ used: start + 2, allowed: null });

    await plan({ sms_per_month: start + 3 });
    const again = await makeContract(t, [sms('Fia', '+46701110003'), sms('Gun', '+46701110004')]);
    const untouched = await contractState(t, again.id);
    // Its own messages only: a contract signed earlier in this file may still be queueing its signed mails.
    const outboxOf = async (contract: string) =>
      ((await t.api('GET', '/api/outbox?per_page=100')).body as { contract: string | null }[]).filter(
        (message) => message.contract === contract,
      ).length;
    expect(await outboxOf(two.self)).toBe(2);
    const outbox = await outboxOf(again.self);
    const refused = await t.api('POST', `${again.self}/send`);
    expectProblem(refused, 403, 'plan-limit');
    expect(refused.body.detail).toMatch(
      new RegExp(
        `allows ${start + 3} SMS a month \\(sms_per_month\\), ${start + 2} were sent in \\d{4}-\\d{2}, and this would send 2 more\\. The allowance resets at `,
      ),
    );
    expect(await contractState(t, again.id)).toEqual(untouched);
    expect(await outboxOf(again.self)).toBe(outbox);
    expect((await usage()).sms.used).toBe(start + 2);
    // A reminder by hand is the office's too.
    const reminder = await t.api('POST', `${two.self}/notify`);
    expectProblem(reminder, 403, 'plan-limit');
    expect(reminder.body.detail).toContain('and this would send 2 more');
    expect((await usage()).sms.used).toBe(start + 2);
    // Silently sent, it queues no SMS: the plan has nothing to refuse.
    expect((await t.api('POST', `${again.self}/send`, { body: { silent: true } })).status).toBe(200);
  });

  it('stops sending after the end date while what was sent goes on being signed, and warns 14 days ahead', async () => {
    const sent = await contractWith('Hans');
    expect((await t.api('POST', `${sent.self}/send`)).status).toBe(200);
    const today = t.server.ctx.timestamp(t.clock.now()).slice(0, 10);
    const inDays = (days: number) =>
      new Date(Date.parse(`${today}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

    await plan({ end_date: inDays(10) });
    expect((await usage()).warnings).toEqual([
      { check: 'end_date', used: null, allowed: null, end_date: inDays(10), days_left: 10, is_reached: false },
    ]);
    await plan({ end_date: inDays(15) });
    expect((await usage()).warnings).toEqual([]);

    await plan({ end_date: inDays(-1) });
    const draft = await contractWith('Ida');
    const refused = await t.api('POST', `${draft.self}/send`);
    expectProblem(refused, 403, 'plan-limit');
    expect(refused.body.detail).toContain(`The office's plan ended on ${inDays(-1)} (end_date)`);
    expect((await usage()).is_ended).toBe(true);

    const hans = signingClient(sent.parties[0]!.contract_url);
    expect((await hans.open()).status).toBe(200);
    expect((await hans.state()).body.stage).toBe('ready');
    expect((await hans.accept({}, 'Hans')).status).toBe(200);
    await expect
      .poll(async () => (await t.api('GET', `${sent.self}/signed_pdf`)).status, { timeout: 30_000 })
      .toBe(200);
    // Its last day still counts.
    await plan({ end_date: today });
    expect((await t.api('POST', `${draft.self}/send`)).status).toBe(200);
  });

  it('holds a bulk send to the limit row by row', async () => {
    const template = (await t.api('POST', '/api/contract_templates', { body: { name: 'Avtal', is_published: true } }))
      .body.self;
    await t.api('PUT', `${template}/pdf`, {
      raw: { data: await makePdf({ pages: 1 }), contentType: 'application/pdf' },
    });
    const field = await t.api('POST', `${template}/fields`, {
      body: { role: 1, pdf_page: 1, pos_x: 60, pos_y: 640, width: 200, height: 50, type: 'SIGNATURE' },
    });
    expect(field.status, field.text).toBe(201);
    await plan({ contracts_per_month: (await usage()).contracts_sent.used + 2 });
    const rows = ['party1_name,party1_email', 'Jan,jan@example.test', 'Kim,kim@example.test', 'Lo,lo@example.test'];
    const made = await t.api('POST', `${template}/bulk_sends`, {
      raw: { data: `${rows.join('\n')}\n`, contentType: 'text/csv' },
    });
    expect(made.status, made.text).toBe(201);
    await expect.poll(async () => (await t.api('GET', made.body.self)).body.pending, { timeout: 30_000 }).toBe(0);
    const batch = (await t.api('GET', made.body.self)).body;
    expect({ sent: batch.sent, failed: batch.failed }).toEqual({ sent: 2, failed: 1 });
    const failed = batch.rows.find((row: { state: string }) => row.state === 'failed');
    expect(failed.error).toMatch(/^The office's plan allows \d+ contracts sent a month \(contracts_per_month\)/);
    expect(failed.contract).toBeNull();
  });

  it("counts the month in the office's time zone", async () => {
    const { month_turns_time: turns } = await usage();
    const turnsAt = parseTimestamp(turns, zone) as number;
    moveTo(turnsAt - 60_000);
    const last = await usage();
    moveTo(turnsAt + 60_000);
    const first = await usage();
    expect(first.month).not.toBe(last.month);
    expect(first.month_start_time).toBe(turns);
    expect(first.month_start_time).toMatch(/^\d{4}-\d{2}-01 00:00:00$/);
  });
});
