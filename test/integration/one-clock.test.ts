import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseTimestamp } from '../../shared/time';
import { pdftotext } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { signInClient } from '../helpers/session';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';

const ZONE = 'America/New_York';

/** Reads a timestamp as the office's zone says it; it must name this very moment (give or take a minute). */
function expectNow(text: string, since: number): void {
  const inOffice = parseTimestamp(text, ZONE);
  expect(inOffice, text).toBeDefined();
  expect(inOffice as number).toBeGreaterThanOrEqual(Math.floor(since / 1000) * 1000 - 1000);
  expect(inOffice as number).toBeLessThanOrEqual(Date.now() + 1000);
}

/** One clock: with the office's time zone set, every time the office and its integrators see is in it. */
describe("the office's time zone is the zone of everything", () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
    expect((await env.t.api('PUT', '/api/settings/general', { body: { time_zone: ZONE } })).status).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('API timestamps, webhook payloads, the event log, the session and the audit page', async () => {
    const { t, hooks } = env;
    const since = Date.now();
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva@nordin.test', delivery_method: 'NONE' }]);
    const read = (await t.api('GET', contract.self)).body;
    expectNow(read.created_time, since);
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    expectNow((await t.api('GET', contract.self)).body.sent_time, since);
    const eva = signingClient(contract.parties[0]!.contract_url);
    expect((await eva.state()).status).toBe(200);
    expect((await eva.accept({}, 'Eva Nordin')).status).toBe(200);

    await vi.waitFor(() => expect(hooks.verified().map((request) => request.json.type)).toContain('contract.signed'), {
      timeout: 15_000,
      interval: 25,
    });
    for (const request of hooks.verified()) expectNow(request.json.timestamp, since);
    const consumer = (await t.api('GET', '/api/webhooks')).body[0];
    // The receiver has answered; the attempt is recorded once its answer is in.
    const latest = async () => (await t.api('GET', `${consumer.self}/events`)).body[0];
    await expect.poll(async () => (await latest()).attempts.length).toBeGreaterThan(0);
    const event = await latest();
    expectNow(event.timestamp, since);
    expectNow(event.attempts[0].time, since);
    for (const entry of (await t.api('GET', `${contract.self}/activity_log`)).body) expectNow(entry.time, since);

    const admin = await signInClient(t.url, 'admin', 'correct horse');
    const session = (await admin.request('GET', '/api/session')).body;
    expect(session.office.time_zone).toBe(ZONE);
    expectNow(session.created_time, since);

    const signed = await fetch(`${t.url}${contract.self}/signed_pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    const file = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(file, Buffer.from(await signed.arrayBuffer()));
    const audit = pdftotext(file, 3, 3);
    expect(audit).toContain(ZONE);
    const completed = /(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) [+-]\d{2}:\d{2}/.exec(audit)?.[1];
    expectNow(completed as string, since);
  });
});
