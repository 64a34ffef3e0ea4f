import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageCountOf, pdftotext } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import {
  linkIn,
  makeContract,
  signingClient,
  useSigningEnvWithReceiver,
  verifiedPartyNames,
  waitForMailsTo,
} from '../helpers/signing';

type Entry = {
  sequence: number;
  time: string;
  event: string;
  actor_type: string;
  actor_name: string;
  user_agent: string;
  recorded_ms: number;
  details: Record<string, string>;
};

/**
 * Who did what, after the party row became someone else (a delegation, a correction): every act
 * names the person who did it, in the activity log, the webhook events and the sealed audit
 * trail; and only the page opened in a browser counts as opening it, not a mail scanner's fetch.
 */
describe('who acted, after a party becomes someone else', () => {
  const suite = useSigningEnvWithReceiver('/acts', [
    'contract.party_opened',
    'contract.party_delegated',
    'contract.party_changed',
  ]);

  const logOf = async (self: string) =>
    ((await suite.env.t.api('GET', `${self}/activity_log?per_page=100`)).body as Entry[]).sort(
      (a, b) => a.sequence - b.sequence,
    );
  /** The party entries after sending, in order: event, who acted (the party's own acts) or whom it was about. */
  const partyActs = (log: Entry[]) =>
    log
      .slice(log.findIndex((entry) => entry.event === 'contract.sent'))
      .filter((entry) => entry.event.startsWith('party.'))
      .map((entry) => [
        entry.event,
        entry.actor_type === 'party' ? entry.actor_name : `about ${entry.details.party_name ?? '?'}`,
      ]);
  const auditTrailOf = async (self: string) => {
    const response = await fetch(new URL(`${self}/signed_pdf`, suite.env.t.url), {
      headers: { authorization: `token ${suite.env.t.adminKey}`, 'accept-api-version': '1', accept: 'application/pdf' },
    });
    expect(response.status).toBe(200);
    const file = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    return pdftotext(file, 2, pageCountOf(file));
  };
  /** The events about the contract's party, each with the name it carries; deliveries run side by side, so sorted. */
  const partyEvents = (contractSelf: string) =>
    verifiedPartyNames(suite.receiver, contractSelf).sort((a, b) => a.join(' ').localeCompare(b.join(' ')));

  it('after a delegation, the delegator is named for her opening and handing over, the delegate for his own opening and signature', async () => {
    const { t, smtp } = suite.env;
    const contract = await makeContract(t, [{ name: 'Johanna Berg', email: 'johanna@example.test' }], {
      allow_delegation: true,
    });
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const johanna = signingClient(linkIn((await waitForMailsTo(smtp, 'johanna@example.test', 1))[0]!), {
      headers: { 'user-agent': 'Johanna browser' },
    });
    expect((await johanna.open()).status).toBe(200);
    const handed = await johanna.delegate({ name: 'Mats Lind', email: 'mats@example.test', reason: 'Mats signs' });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);

    const mats = signingClient(linkIn((await waitForMailsTo(smtp, 'mats@example.test', 1))[0]!), {
      headers: { 'user-agent': 'Mats browser' },
    });
    expect((await mats.open()).status).toBe(200);
    expect((await mats.accept({}, 'Mats Lind')).status).toBe(200);
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);

    const log = await logOf(contract.self);
    expect(partyActs(log)).toEqual([
      ['party.invited', 'about Johanna Berg'],
      ['party.opened', 'Johanna Berg'],
      ['party.delegated', 'Johanna Berg'],
      ['party.invited', 'about Mats Lind'],
      ['party.opened', 'Mats Lind'],
      ['party.signed', 'Mats Lind'],
    ]);
    const opened = log.filter((entry) => entry.event === 'party.opened');
    expect(opened.map((entry) => entry.user_agent)).toEqual(['Johanna browser', 'Mats browser']);

    // Both openings raise their event: the integrator sees the second person open too.
    await expect
      .poll(() => partyEvents(contract.self))
      .toEqual([
        ['contract.party_delegated', 'Johanna Berg'],
        ['contract.party_opened', 'Johanna Berg'],
        ['contract.party_opened', 'Mats Lind'],
        ['contract.party_signed', 'Mats Lind'],
      ]);

    const audit = await auditTrailOf(contract.self);
    expectInOrder(audit, [
      'Party invited: Johanna Berg',
      'Party opened the link · Johanna Berg',
      'Party handed the turn to someone else · Johanna Berg',
      'Party invited: Mats Lind',
      'Party opened the link · Mats Lind',
      'Party signed · Mats Lind',
    ]);
    expectCardTimes(audit, log);
  });

  it('after a correction of name and e-mail, the person first reached is named for what was done before it, the corrected one after', async () => {
    const { t, smtp } = suite.env;
    const contract = await makeContract(t, [{ name: 'Elin Sjöberg', email: 'elin@exmaple.test' }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    // Someone at the mistyped address opens the link before the office notices.
    const stranger = signingClient(linkIn((await waitForMailsTo(smtp, 'elin@exmaple.test', 1))[0]!), {
      headers: { 'user-agent': 'Wrong inbox' },
    });
    expect((await stranger.open()).status).toBe(200);
    const party = contract.parties[0]!;
    const corrected = await t.api('POST', `${party.self}/correction`, {
      body: { name: 'Elin Sjöberg Lind', email: 'elin@example.test', reason: 'Mistyped e-mail, married name' },
    });
    expect(corrected.status, corrected.text).toBe(200);
    const elin = signingClient(linkIn((await waitForMailsTo(smtp, 'elin@example.test', 1))[0]!), {
      headers: { 'user-agent': 'Elin browser' },
    });
    expect((await elin.open()).status).toBe(200);
    expect((await elin.accept({}, 'Elin Sjöberg Lind')).status).toBe(200);
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);

    const log = await logOf(contract.self);
    expect(partyActs(log)).toEqual([
      ['party.invited', 'about Elin Sjöberg'],
      ['party.opened', 'Elin Sjöberg'],
      ['party.corrected', 'about Elin Sjöberg'],
      ['party.invited', 'about Elin Sjöberg Lind'],
      ['party.opened', 'Elin Sjöberg Lind'],
      ['party.signed', 'Elin Sjöberg Lind'],
    ]);
    expect(log.filter((entry) => entry.event === 'party.opened').map((entry) => entry.user_agent)).toEqual([
      'Wrong inbox',
      'Elin browser',
    ]);
    await expect
      .poll(() => partyEvents(contract.self))
      .toEqual([
        ['contract.party_changed', 'Elin Sjöberg'],
        ['contract.party_opened', 'Elin Sjöberg'],
        ['contract.party_opened', 'Elin Sjöberg Lind'],
        ['contract.party_signed', 'Elin Sjöberg Lind'],
      ]);

    const audit = await auditTrailOf(contract.self);
    expectInOrder(audit, [
      'Party invited: Elin Sjöberg ·',
      'Party opened the link · Elin Sjöberg  ',
      'Party corrected after sending: Elin Sjöberg ·',
      'Party invited: Elin Sjöberg Lind',
      'Party opened the link · Elin Sjöberg Lind',
      'Party signed · Elin Sjöberg Lind',
    ]);
    expectCardTimes(audit, log);
  });

  it("a mail scanner's GET or HEAD of the link records no opening and raises no event; the page's own report does", async () => {
    const { t, smtp } = suite.env;
    const contract = await makeContract(t, [{ name: 'Nils Holm', email: 'nils@example.test' }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const link = linkIn((await waitForMailsTo(smtp, 'nils@example.test', 1))[0]!);
    const party = contract.parties[0]!;

    // What scanners do: fetch the link (no script runs), follow it again, ask for its headers.
    for (const method of ['GET', 'HEAD', 'GET']) {
      const fetched = await fetch(link, { method, headers: { 'user-agent': 'MailScanner/1.0' } });
      expect(fetched.status).toBe(200);
    }
    expect((await logOf(contract.self)).map((entry) => entry.event)).not.toContain('party.opened');
    expect((await t.api('GET', party.self)).body.email_status).toMatchObject({ opened: false, clicked: false });
    // A report the page did not make (without the page's CSRF token) is refused and records nothing.
    const forged = await fetch(`${link}/opened`, { method: 'POST', headers: { 'user-agent': 'MailScanner/1.0' } });
    expect(forged.status).toBe(403);
    expect((await logOf(contract.self)).map((entry) => entry.event)).not.toContain('party.opened');

    const nils = signingClient(link, { headers: { 'user-agent': 'Nils browser' } });
    expect((await nils.open()).status).toBe(200);
    const opened = (await logOf(contract.self)).filter((entry) => entry.event === 'party.opened');
    expect(opened.map((entry) => [entry.actor_name, entry.user_agent])).toEqual([['Nils Holm', 'Nils browser']]);
    expect((await t.api('GET', party.self)).body.email_status).toMatchObject({ opened: true, clicked: true });
    await expect.poll(() => partyEvents(contract.self)).toEqual([['contract.party_opened', 'Nils Holm']]);
  });
});

/** Each text appears in the audit trail, after the one before it. */
function expectInOrder(text: string, parts: string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    expect(at, `"${part}" after offset ${from} in:\n${text}`).toBeGreaterThanOrEqual(0);
    from = at + part.length;
  }
}

/** The party card's Invited and Opened are the times of the last invitation and opening in the log: the person it names. */
function expectCardTimes(audit: string, log: Entry[]): void {
  const last = (event: string) => log.filter((entry) => entry.event === event).at(-1)!.time;
  expect(/Invited\s+(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/.exec(audit)?.[1]).toBe(last('party.invited'));
  expect(/Opened\s+(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/.exec(audit)?.[1]).toBe(last('party.opened'));
}
