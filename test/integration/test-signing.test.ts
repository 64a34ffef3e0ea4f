import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pageCountOf, pdfsig, pdftotext } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { makeContract, startSigningEnv, verifiedEvents, type SigningEnv } from '../helpers/signing';
import { makeUser } from '../helpers/users';

/** An integration's CI walks the whole flow by API alone: a test contract answered for its parties. */
describe('test signing through the API', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  it('signs a two-party test contract by API, and the signed PDF and audit trail say it was a test', async () => {
    const { t, hooks } = env;
    const contract = await makeContract(
      t,
      [
        {
          name: 'Signe Svensson',
          delivery_method: 'NONE',
          fields: [{ type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 500, width: 200, height: 30 }],
        },
        { name: 'Bo Ek', delivery_method: 'NONE' },
      ],
      { test_mode: true },
    );
    expect((await t.api('GET', contract.self)).body.test_mode).toBe(true);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const [signe, bo] = contract.parties as unknown as [{ self: string }, { self: string }];
    const field = (await t.api('GET', `${contract.self}/annotations`)).body.find(
      (annotation: { type: string }) => annotation.type === 'TEXT',
    ) as { self: string };
    const fieldId = field.self.split('/').at(-1) as string;

    const missing = await t.api('POST', `${signe.self}/test_answer`, { body: { answer: 'accept' } });
    expect(missing.status).toBe(400);
    const first = await t.api('POST', `${signe.self}/test_answer`, {
      body: { answer: 'accept', fields: { [fieldId]: 'Lgh 1102' } },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.is_accept).toBe(true);
    expect(
      (await t.api('POST', `${bo.self}/test_answer`, { body: { answer: 'accept', signature_name: 'Bo' } })).status,
    ).toBe(200);
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);
    await expect
      .poll(() =>
        verifiedEvents(hooks)
          .filter((event) => event.id === contract.self)
          .map((event) => event.type)
          // Deliveries run side by side: what arrives is promised, not in which order.
          .sort(),
      )
      .toEqual(['contract.party_signed', 'contract.party_signed', 'contract.signed']);

    const response = await fetch(`${t.url}${contract.self}/signed_pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const file = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(file, bytes);
    const text = pdftotext(file, 1, pageCountOf(file)).replace(/\s+/g, ' ');
    expect(text).toMatch(/TEST CONTRACT: answered through the API by the office, not by the party/);
    expect(pdfsig(file)).toMatch(/Signature is Valid/);
  });

  it('rejects for a party of a test contract, with a cause', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Eva', delivery_method: 'NONE' }], { test_mode: true });
    await t.api('POST', `${contract.self}/send`, { body: {} });
    const party = contract.parties[0]!.self;
    expect((await t.api('POST', `${party}/test_answer`, { body: { answer: 'reject' } })).status).toBe(400);
    const rejected = await t.api('POST', `${party}/test_answer`, { body: { answer: 'reject', cause: 'Wrong rent' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.reject_cause).toBe('Wrong rent');
    expect((await t.api('GET', contract.self)).body.is_rejected).toBe(true);
  });

  it('never answers for a party of a real contract, nor lets test_mode change after sending, nor another user', async () => {
    const { t } = env;
    const real = await makeContract(t, [{ name: 'Real Party', delivery_method: 'NONE' }]);
    await t.api('POST', `${real.self}/send`, { body: {} });
    const refused = await t.api('POST', `${real.parties[0]!.self}/test_answer`, { body: { answer: 'accept' } });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/not a test contract/);
    expect((await t.api('PUT', real.self, { body: { test_mode: true } })).status).toBe(409);
    expect((await t.api('GET', real.parties[0]!.self)).body.is_accept).toBe(false);

    const test = await makeContract(t, [{ name: 'Test Party', delivery_method: 'NONE' }], { test_mode: true });
    await t.api('POST', `${test.self}/send`, { body: {} });
    const stranger = await makeUser(t, 'test-signing-stranger');
    const foreign = await stranger.api('POST', `${test.parties[0]!.self}/test_answer`, { body: { answer: 'accept' } });
    expect(foreign.status).toBe(404);
  });
});
