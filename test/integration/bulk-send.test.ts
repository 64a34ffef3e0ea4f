import { inTransaction } from '../../server/db/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBulkRow } from '../../server/bulk/send-bulk-row';
import { expectProblem } from '../helpers/problems';
import { startSigningEnv, waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';

/** The first test to read a PDF's text waits for pdf.js to load on the sandbox's worker (seconds under tsx in a checkout). */
const LOADS_PDFJS_MS = 120_000;

const csv = (text: string) => ({ raw: { data: text, contentType: 'text/csv' } });

describe('bulk send from a PDF template', () => {
  let env: SigningEnv;
  let template: string;
  beforeAll(async () => {
    env = await startSigningEnv();
    const created = await env.t.api('POST', '/api/contract_templates', {
      body: { name: 'Hyresavtal', is_published: true },
    });
    template = created.body.self;
    await env.t.api('PUT', `${template}/pdf`, {
      raw: { data: await makeTaggedPdf({ pages: 3, lines: LEASE_LINES }), contentType: 'application/pdf' },
    });
  });
  afterAll(() => env?.close());

  it(
    'previews a semicolon CSV with a byte-order mark, row by row with its problems',
    async () => {
      const { t } = env;
      const tagged = await t.api('POST', `${template}/fields/from_tags`);
      expect(tagged.status, tagged.text).toBe(201);
      const file =
        '\uFEFFParty 1 name;Party 1 e-mail;Party 1 phone;party2_namn;part2_epost;part2_telefon\n' +
        'Åsa Öberg;asa@example.test;;Björn Ek;bjorn@example.test;070-123 45 67\n' +
        'Lena Lind;not-an-address;;Tor Berg;;+46701234567\n' +
        ';nobody@example.test;;"Karl ""Kalle"" Svensson";;\n';
      const preview = await t.api('POST', `${template}/bulk_sends/preview`, csv(file));
      expect(preview.status, preview.text).toBe(200);
      expect(preview.body).toMatchObject({ roles: 2, delimiter: ';', valid: 1, invalid: 2 });
      expect(preview.body.rows[0]).toEqual({
        line: 2,
        contract_name: 'Hyresavtal – Åsa Öberg',
        parties: [
          { role: 1, name: 'Åsa Öberg', email: 'asa@example.test', mobile_phone: '' },
          { role: 2, name: 'Björn Ek', email: 'bjorn@example.test', mobile_phone: '0701234567' },
        ],
        errors: [],
      });
      expect(preview.body.rows[1].errors).toEqual(['Party 1 e-mail: not-an-address is not an e-mail address']);
      expect(preview.body.rows[2].errors).toEqual([
        'Party 1 name: is empty',
        'Party 2: needs an e-mail address or a mobile number',
      ]);
      expect(preview.body.rows[2].parties[1].name).toBe('Karl "Kalle" Svensson');
      // Nothing was made by a preview.
      expect((await t.api('GET', '/api/bulk_sends')).body).toEqual([]);
    },
    LOADS_PDFJS_MS,
  );

  it('refuses a file it cannot read, naming the columns', async () => {
    const { t } = env;
    const unknown = await t.api(
      'POST',
      `${template}/bulk_sends/preview`,
      csv('party1_name,party1_email,party1_fax,party2_name\nA,a@x.test,1,B\n'),
    );
    expectProblem(unknown, 400, 'validation-failed');
    expect(unknown.body.validation_errors[0]).toMatch(/^header: "party1_fax" is no column/);
    const missing = await t.api(
      'POST',
      `${template}/bulk_sends/preview`,
      csv('party1_name,party1_email,party3_name\nA,a@x.test,C\n'),
    );
    expect(missing.body.validation_errors).toEqual([
      'header: the template has 2 roles; there is no party 3',
      'header: no name column for party 2 (party2_name)',
    ]);
    expectProblem(
      await t.api(
        'POST',
        `${template}/bulk_sends`,
        csv('party1_name,party1_email,party2_name,party2_email\n,bad,,bad\n'),
      ),
      400,
      'validation-failed',
    );
    expectProblem(
      await t.api('POST', `${template}/bulk_sends`, { raw: { data: '{}', contentType: 'application/json' } }),
      415,
      'unsupported-media-type',
    );
    const text = await t.api('POST', '/api/contract_templates', { body: { name: 'Text', content: 'x' } });
    expectProblem(await t.api('POST', `${text.body.self}/bulk_sends/preview`, csv('name\nA\n')), 409, 'conflict');
    expect((await t.api('GET', '/api/bulk_sends')).body).toEqual([]);
  });

  it('makes and sends one contract per valid row, reports each, and sends no row twice', async () => {
    const { t, smtp } = env;
    const file =
      'party1_name,party1_email,party1_phone,party2_name,party2_email,party2_phone,contract_name\n' +
      'Eva Nordin,eva@bulk.test,,Bo Ek,bo@bulk.test,,Lägenhet 1101\n' +
      'Ulla Ung,ulla@bulk.test,,Per Ås,,+46 70 111 22 33,Lägenhet 1102\n' +
      'Broken Row,nope,,X,x@bulk.test,,Lägenhet 1103\n';
    const created = await t.api('POST', `${template}/bulk_sends`, csv(file));
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      template,
      template_name: 'Hyresavtal',
      total: 3,
      failed: 1,
      created_by: t.adminPath,
    });
    expect(created.body.rows[2]).toMatchObject({ line: 4, state: 'failed', contract: null });
    let report = created.body;
    await expect
      .poll(async () => (report = (await t.api('GET', created.body.self)).body).pending, {
        timeout: 20_000,
        interval: 50,
      })
      .toBe(0);
    expect(report).toMatchObject({ sent: 2, failed: 1 });
    for (const row of report.rows.slice(0, 2)) {
      expect(row.state).toBe('sent');
      const contract = (await t.api('GET', row.contract)).body;
      expect(contract).toMatchObject({ name: row.contract_name, template });
      expect(contract.sent_time).not.toBeNull();
      // The office's default reminders (every 3 days until changed), planned with the send.
      expect(contract).toMatchObject({ reminder_interval_days: 3, reminder_max_count: 3 });
      expect(contract.next_reminder_time).not.toBeNull();
      const parties = (await t.api('GET', `${row.contract}/parties`)).body;
      expect(parties).toHaveLength(2);
      expect((await t.api('GET', `${row.contract}/annotations?per_page=100`)).body).toHaveLength(7);
    }
    const per = (await t.api('GET', `${report.rows[1].contract}/parties`)).body.find(
      (party: any) => party.name === 'Per Ås',
    );
    expect(per).toMatchObject({ delivery_method: 'SMS', mobile_phone: '+46701112233', email: '' });
    await waitForMailsTo(smtp, 'eva@bulk.test', 1);
    await waitForMailsTo(smtp, 'bo@bulk.test', 1);

    // A job that runs again (a crash after the commit, before the job was finished) makes nothing more.
    const batchId = Number(created.body.self.split('/').at(-1));
    const rows = await t.server.ctx.repos.bulkSends.rowsOf(batchId);
    const before = (await t.api('GET', '/api/contracts?per_page=100')).body.length;
    for (const row of rows) await sendBulkRow(t.server.ctx, row.id);
    expect((await t.api('GET', '/api/contracts?per_page=100')).body.length).toBe(before);
    expect((await t.api('GET', created.body.self)).body).toMatchObject({ sent: 2, failed: 1 });
    expect((await t.api('GET', '/api/bulk_sends')).body.map((batch: any) => batch.self)).toEqual([created.body.self]);
  });

  it('fails a row whose template went before it was sent, making no contract for it', async () => {
    const { t } = env;
    const other = await t.api('POST', '/api/contract_templates', { body: { name: 'Short-lived', is_published: true } });
    await t.api('PUT', `${other.body.self}/pdf`, {
      raw: { data: await makeTaggedPdf({ pages: 3, lines: LEASE_LINES }), contentType: 'application/pdf' },
    });
    await t.api('POST', `${other.body.self}/fields/from_tags`);
    const ctx = t.server.ctx;
    // Made without its jobs running: the rows wait while the template is deleted.
    const batch = await inTransaction(ctx.db, async () => {
      const made = await ctx.repos.bulkSends.insert({
        templateId: Number(other.body.self.split('/').at(-1)),
        templateName: 'Short-lived',
        createdBy: 1,
        createdAt: Date.now(),
      });
      const parties = JSON.stringify([
        { role: 1, name: 'A', email: 'a@gone.test', mobile_phone: '' },
        { role: 2, name: 'B', email: 'b@gone.test', mobile_phone: '' },
      ]);
      await ctx.repos.bulkSends.insertRow({
        bulkSendId: made.id,
        line: 2,
        contractName: 'Gone',
        parties,
        state: 'pending',
        error: null,
        contractId: null,
        updatedAt: Date.now(),
      });
      return made;
    });
    expect((await t.api('DELETE', other.body.self)).status).toBe(204);
    const [row] = await ctx.repos.bulkSends.rowsOf(batch.id);
    const before = (await t.api('GET', '/api/contracts?per_page=100&name=Gone')).body.length;
    await sendBulkRow(ctx, row!.id);
    const report = (await t.api('GET', `/api/bulk_sends/${batch.id}`)).body;
    expect(report.rows[0]).toMatchObject({ state: 'failed', contract: null });
    expect(report.rows[0].error).toMatch(/template was deleted/);
    expect((await t.api('GET', '/api/contracts?per_page=100&name=Gone')).body.length).toBe(before);
  });
});
