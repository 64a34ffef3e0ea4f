import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { download } from '../helpers/evidence';
import { pageCountOf, pdfsig, pdftotext, screenshot } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { makeContract, mailsTo, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';

const SCREENSHOTS = path.resolve('test-results/evidence');

describe('the audit trail of the sealed PDF', () => {
  let env: SigningEnv;
  let dir: string;
  beforeAll(async () => {
    env = await startSigningEnv();
    dir = makeTempDir('signdesk-audit-');
  });
  afterAll(() => env?.close());

  /**
   * A silent send with auto-sign for the admin's own party, an attachment, a reminder, a
   * one-time code asked for, guessed wrong and entered right, and a signature with a typed name
   * that differs from the party's name.
   */
  async function fullStory(language: 'en' | 'sv') {
    const { t, smtp } = env;
    const email = `chris-${language}@example.test`;
    const contract = await makeContract(
      t,
      [
        { name: 'Chris Carter', email },
        { name: 'Office Admin', email: 'admin@office.test', user: t.adminPath },
      ],
      { require_auth: 'EMAIL_CODE', language },
    );
    const attachment = Buffer.from('Bilaga: inventarielista\n');
    const added = await t.api('POST', `${contract.self}/attachments`, {
      raw: { data: attachment, contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="inventarier.txt"' },
    });
    expect(added.status).toBe(201);
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true, auto_sign: true } })).status).toBe(
      200,
    );
    expect((await t.api('POST', `${contract.self}/notify`)).status).toBe(200);

    const chris = signingClient(contract.parties[0]!.contract_url);
    await chris.open();
    await chris.state();
    const mailsBefore = mailsTo(smtp, email).length;
    expect((await chris.sendCode()).status).toBe(200);
    // The code is in the text only (never in the subject, which the outbox shows).
    const mail = await vi.waitFor(
      () => {
        const found = mailsTo(smtp, email)
          .slice(mailsBefore)
          .find((item) => /\b\d{6}\b/.test(item.mail.text ?? ''));
        if (!found) throw new Error('no code yet');
        return found;
      },
      { timeout: 15_000, interval: 50 },
    );
    const code = /\b(\d{6})\b/.exec(mail.mail.text ?? '')![1]!;
    expect((await chris.verify(code === '000000' ? '111111' : '000000')).status).toBe(400);
    expect((await chris.verify(code)).status).toBe(200);
    expect((await chris.accept({}, 'C. Carter')).status).toBe(200);

    const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const file = path.join(dir, `audit-${language}.pdf`);
    fs.writeFileSync(file, pdf);
    const log = ((await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[]).reverse();
    return { contract, file, log, attachmentSha256: createHash('sha256').update(attachment).digest('hex') };
  }

  it('lists every event with who, when and from where, the attachments with their SHA-256, and the chain head; in English', async () => {
    const { file, log, attachmentSha256 } = await fullStory('en');
    const pages = pageCountOf(file);
    const text = pdftotext(file, 3, pages);
    for (const label of [
      'Sent for signing',
      'silent (no message sent)',
      'auto-sign',
      'Party invited',
      'Reminder sent',
      'Party opened the link',
      'One-time code sent',
      'Wrong or expired one-time code',
      'One-time code verified',
      'Party signed',
      'typed name: C. Carter',
      'mark: typed name',
      'Signed by everyone',
    ]) {
      expect(text, label).toContain(label);
    }
    // The acting user for admin actions, the party for the party's own.
    expect(text).toMatch(/Sent for signing · admin/);
    expect(text).toMatch(/Reminder sent: Chris Carter · admin/);
    expect(text).toMatch(/One-time code sent: Chris Carter · Chris Carter|One-time code sent · Chris Carter/);
    expect(text).toMatch(/One-time code verified · Chris Carter/);
    expect(text).toContain('from 127.0.0.1');
    // Human words for how a party was identified, never the raw enum.
    expect(text).toContain('Signed automatically for the sending user (auto-sign)');
    expect(text).not.toContain('AUTO_SIGN');
    expect(text).toContain('inventarier.txt');
    expect(text).toContain(`SHA-256 ${attachmentSha256}`);
    expect(text).toContain('None: no timestamp authority was configured');

    // The chain head printed inside the sealed bytes is the hash of the log's contract.signed entry.
    const signed = log.find((entry) => entry.event === 'contract.signed');
    expect(text).toMatch(new RegExp(`#${signed.sequence}\\s+${signed.hash}`));
    // Each listed event carries its own hash's beginning, to match against the log.
    for (const entry of log.filter(
      (item) =>
        item.sequence <= signed.sequence &&
        !/^(annotation|party)\.(added|changed)|contract\.updated|attachment\./.test(item.event),
    )) {
      expect(text, entry.event).toContain(entry.hash.slice(0, 16));
    }

    // ISO 32000-1 forbids a period in a field name.
    const name = /Signature Field Name: (.*)/.exec(pdfsig(file))?.[1] ?? '';
    expect(name).toMatch(/^SignDesk seal \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // The last page is never the closing note alone.
    const last = pdftotext(file, pages);
    expect(last).toContain('This document is sealed');
    expect(last.replace(/\s+/g, ' ')).toMatch(/#\d+ .*(Signed by everyone|Activity log hash chain)/);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (let page = 3; page <= pages; page += 1)
      screenshot(file, page, path.join(SCREENSHOTS, `audit-trail-en-${page - 2}.png`));
  }, 180_000);

  it('lists a send that auto_sign completes in the order it was written: sent, each acceptance, signed', async () => {
    const { t } = env;
    const contract = await makeContract(t, [
      { name: 'Office Admin', email: 'admin@office.test', user: t.adminPath },
      { name: 'Office Admin (approves)', email: 'admin@office.test', user: t.adminPath, sign_type: 'APPROVER' },
    ]);
    const sent = await t.api('POST', `${contract.self}/send`, { body: { auto_sign: true } });
    expect(sent.body).toMatchObject({ is_signed: true, is_answered: true });
    const file = path.join(dir, 'audit-auto-sign-at-send.pdf');
    fs.writeFileSync(file, (await download(t, `${contract.self}/signed_pdf`)).bytes);
    const log = ((await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[]).reverse();
    const written = log.slice(log.findIndex((entry) => entry.event === 'contract.sent'));
    expect(written.map((entry) => entry.event)).toEqual([
      'contract.sent',
      'party.signed',
      'party.approved',
      'contract.signed',
    ]);

    const text = pdftotext(file, 3, pageCountOf(file));
    const signed = written.at(-1);
    expect(text).toMatch(new RegExp(`#${signed.sequence}\\s+${signed.hash}`));
    const positions = written.map((entry) => text.indexOf(entry.hash.slice(0, 16)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  }, 180_000);

  it('speaks Swedish for a Swedish contract', async () => {
    const { file } = await fullStory('sv');
    const text = pdftotext(file, 3, pageCountOf(file));
    for (const label of [
      'Skickat för signering',
      'tyst (inget meddelande skickat)',
      'Påminnelse skickad',
      'Engångskod godkänd',
      'Fel eller utgången engångskod',
      'inskrivet namn: C. Carter',
      'Händelseloggens hashkedja',
      'Signerat automatiskt för den användare som skickade',
    ]) {
      expect(text, label).toContain(label);
    }
    expect(text).not.toContain('AUTO_SIGN');
    screenshot(file, 3, path.join(SCREENSHOTS, 'audit-trail-sv-1.png'));
  }, 180_000);
});
