import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfsig, qpdfCheck } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import {
  linkIn,
  makeContract,
  signingClient,
  startSigningEnv,
  verifiedEvents,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';

describe('the signing flow over HTTP', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  it('invites in order, signs, seals, and sends every party the signed PDF', async () => {
    const { t, smtp, hooks } = env;
    const contract = await makeContract(
      t,
      [
        {
          name: 'Åsa Öberg',
          email: 'asa@example.test',
          sign_order: 1,
          fields: [
            { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 640, width: 200, height: 50 },
            { type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 560, width: 200, height: 24, content: 'Lägenhetsnummer' },
            { type: 'CHECKBOX', pdf_page: 2, pos_x: 60, pos_y: 100, width: 20, height: 20 },
          ],
        },
        { name: 'Bo Ek', email: 'bo@example.test', sign_order: 2 },
      ],
      { party_order_defined: true, language: 'sv' },
    );
    const sent = await t.api('POST', `${contract.self}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.sent_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const [invitation] = await waitForMailsTo(smtp, 'asa@example.test', 1);
    expect(invitation?.mail.subject).toContain('för underskrift');
    expect(invitation?.mail.html).toContain('Läs och skriv under');
    const first = signingClient(linkIn(invitation!));
    expect(linkIn(invitation!)).toBe(contract.parties[0]?.contract_url);

    expect((await first.open()).status).toBe(200);
    const state = await first.state();
    expect(state.body).toMatchObject({
      stage: 'ready',
      language: 'sv',
      party: { name: 'Åsa Öberg' },
      progress: { answered: 0, total: 2 },
    });
    expect(state.body.fields).toHaveLength(3);
    const [, text, box] = state.body.fields;
    expect((await first.document()).headers.get('content-type')).toBe('application/pdf');
    // Bo is not in turn yet: his link says so and he has no mail.
    const second = signingClient(contract.parties[1]!.contract_url);
    expect((await second.state()).body.stage).toBe('waiting-turn');
    expect(smtp.mails.filter((mail) => mail.envelopeTo.includes('bo@example.test'))).toHaveLength(0);

    const opened = await t.api('GET', contract.parties[0]!.self);
    expect(opened.body.email_status).toMatchObject({ sent: true, opened: true, clicked: true });

    expect((await first.accept({ [text.id]: '' }, 'Åsa Öberg')).body.validation_errors).toEqual(
      expect.arrayContaining([`fields.${text.id}: is required`, `fields.${box.id}: must be ticked`]),
    );
    const accepted = await first.accept({ [text.id]: 'Lgh 1102', [box.id]: true }, 'Åsa Öberg');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.stage).toBe('accepted');

    const [secondInvitation] = await waitForMailsTo(smtp, 'bo@example.test', 1);
    expect(linkIn(secondInvitation!)).toBe(contract.parties[1]?.contract_url);
    expect((await second.state()).body.stage).toBe('ready');
    expect((await t.api('GET', `${contract.self}/signed_pdf`)).status).toBe(409);
    const done = await second.accept({}, 'Bo Ek');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.stage).toBe('completed');

    const after = await t.api('GET', contract.self);
    expect(after.body).toMatchObject({ is_signed: true, is_answered: true, is_rejected: false });
    const parties = await t.api('GET', `${contract.self}/parties`);
    for (const party of parties.body)
      expect(party).toMatchObject({ is_accept: true, sign_time: expect.stringMatching(/^\d{4}-/) });

    const [, download] = await waitForMailsTo(smtp, 'asa@example.test', 2);
    expect(download?.mail.subject).toContain('underskrivet av alla');
    expect(linkIn(download!)).toMatch(/\/signed\.pdf$/);
    const fromMail = await fetch(linkIn(download!));
    expect(fromMail.headers.get('content-disposition')).toMatch(/^attachment/);
    const pdf = Buffer.from(
      await (
        await t.api('GET', `${contract.self}/signed_pdf`, { headers: { accept: 'application/pdf' } })
      ).text,
      'latin1',
    );
    const viaApi = await fetch(new URL(`${contract.self}/signed_pdf`, t.url), {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1', accept: 'application/pdf' },
    });
    const bytes = Buffer.from(await viaApi.arrayBuffer());
    expect(bytes.equals(Buffer.from(await fromMail.arrayBuffer()))).toBe(true);
    expect(pdf.length).toBeGreaterThan(0);
    const file = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(file, bytes);
    expect(qpdfCheck(file).status).toBe(0);
    expect(pdfsig(file)).toContain('Signature is Valid');
    const original = Buffer.from(
      await (
        await fetch(new URL(`${contract.self}/pdf`, t.url), {
          headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
        })
      ).arrayBuffer(),
    );
    expect(bytes.subarray(0, original.length).equals(original)).toBe(true);

    await expect
      .poll(
        () =>
          verifiedEvents(hooks)
            .filter((event) => event.id === contract.self)
            .map((event) => event.type)
            // Deliveries run side by side: what arrives is promised, not in which order.
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['contract.party_signed', 'contract.party_signed', 'contract.signed']);
    const partyEvents = verifiedEvents(hooks).filter(
      (event) => event.type === 'contract.party_signed' && event.id === contract.self,
    );
    expect(partyEvents.map((event) => event.party)).toEqual(contract.parties.map((party) => party.self));

    const log = await t.api('GET', `${contract.self}/activity_log?per_page=100`);
    const events = log.body.map((entry: { event: string }) => entry.event).reverse();
    expect(events.slice(events.indexOf('contract.sent'))).toEqual([
      'contract.sent',
      'party.invited',
      'party.opened',
      'party.signed',
      'party.invited',
      'party.signed',
      'contract.signed',
    ]);
  });

  it('records a rejection with its cause and lets nobody sign after it', async () => {
    const { t, smtp, hooks } = env;
    const contract = await makeContract(t, [
      { name: 'Cecilia', email: 'cecilia@example.test' },
      { name: 'David', email: 'david@example.test' },
    ]);
    await t.api('POST', `${contract.self}/send`);
    const [mail] = await waitForMailsTo(smtp, 'cecilia@example.test', 1);
    const cecilia = signingClient(linkIn(mail!));
    await cecilia.state();
    expect((await cecilia.reject('   ')).status).toBe(400);
    expect((await cecilia.reject('Wrong rent', { csrf: null })).status).toBe(403);
    const rejected = await cecilia.reject('Wrong rent in section 4');
    expect(rejected.body).toMatchObject({ stage: 'rejected', party: { rejectCause: 'Wrong rent in section 4' } });
    const david = signingClient(contract.parties[1]!.contract_url);
    expect((await david.state()).body.stage).toBe('closed-rejected');
    const late = await david.accept({}, 'David');
    expect(late.status).toBe(409);
    expect((await t.api('GET', contract.self)).body).toMatchObject({
      is_rejected: true,
      is_answered: true,
      is_signed: false,
    });
    const party = await t.api('GET', contract.parties[0]!.self);
    expect(party.body).toMatchObject({ reject_cause: 'Wrong rent in section 4', is_accept: false });
    expect((await t.api('POST', `${contract.self}/notify`)).status).toBe(409);
    expect((await t.api('GET', `${contract.self}/signed_pdf`)).status).toBe(409);
    const notice = await waitForMailsTo(smtp, 'admin@office.test', 1);
    expect(notice.at(-1)?.mail.text).toContain('Wrong rent in section 4');
    await expect
      .poll(
        () =>
          verifiedEvents(hooks)
            .filter((event) => event.id === contract.self)
            .map((event) => event.type)
            // Deliveries run side by side: what arrives is promised, not in which order.
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['contract.rejected']);
  });

  it('keeps contract.signed and contract.rejected exclusive when two parties answer at the same moment', async () => {
    const { t, hooks } = env;
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const contract = await makeContract(t, [
        { name: 'First', email: `first${round}@example.test` },
        { name: 'Second', email: `second${round}@example.test` },
        { name: 'Third', email: `third${round}@example.test` },
      ]);
      await t.api('POST', `${contract.self}/send`);
      const [a, b, c] = contract.parties.map((party) => signingClient(party.contract_url));
      await Promise.all([a!.state(), b!.state(), c!.state()]);
      expect((await a!.accept({}, 'First')).status).toBe(200);
      // The last signature and a rejection race; exactly one of them wins.
      const [signing, rejecting] = await Promise.all([b!.accept({}, 'Second'), c!.reject('No')]);
      const statuses = [signing.status, rejecting.status].sort();
      const final = (await t.api('GET', contract.self)).body;
      if (final.is_signed) {
        expect(statuses).toEqual([200, 409]);
        expect(signing.status).toBe(200);
        outcomes.push('signed');
      } else {
        expect(final.is_rejected).toBe(true);
        expect(rejecting.status).toBe(200);
        outcomes.push('rejected');
      }
      await expect
        .poll(
          () =>
            verifiedEvents(hooks).filter(
              (event) => event.id === contract.self && event.type !== 'contract.party_signed',
            ).length,
          { timeout: 10_000 },
        )
        .toBe(1);
      const finals = verifiedEvents(hooks).filter(
        (event) => event.id === contract.self && event.type !== 'contract.party_signed',
      );
      expect(finals.map((event) => event.type)).toEqual([final.is_signed ? 'contract.signed' : 'contract.rejected']);
    }
    expect(outcomes).toHaveLength(6);
  });
});
