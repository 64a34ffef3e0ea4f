import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../shared/i18n/catalogues';
import { pageCountOf, pdftotext } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import {
  linkIn,
  mailsTo,
  makeContract,
  signingClient,
  startSigningEnv,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';

type Namespace = 'mail' | 'audit';

/** A message's literal words: the parts between its placeholders long enough to be a language's own. */
const partsOf = (message: string): string[] =>
  message
    .split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/)
    .map((part) => part.trim())
    .filter((part) => part.length >= 6 && /\p{L}{3}/u.test(part));

/** The English words of a namespace whose Finnish differs: none may be left in what a Finnish party reads. */
function englishOf(namespace: Namespace): string[] {
  const english = CATALOGUES.en[namespace] as Record<string, string>;
  const finnish = CATALOGUES.fi[namespace] as Record<string, string>;
  return Object.keys(english)
    .filter((key) => finnish[key] !== english[key])
    .flatMap((key) => partsOf(english[key]!));
}

const finnish = (namespace: Namespace, key: string): string[] =>
  partsOf((CATALOGUES.fi[namespace] as Record<string, string>)[key]!);
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/**
 * A contract in Finnish (issue 41): its party's invitation and signed mails and the sealed PDF's
 * audit page are in Finnish, with none of the English left (the PDF's text as poppler's
 * pdftotext extracts it, an independent reader of what SignDesk drew).
 */
describe('a contract in Finnish', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('mails its party in Finnish and seals an audit page in Finnish', { timeout: 180_000 }, async () => {
    const { t, smtp } = env;
    const address = 'aino.virtanen@example.test';
    const contract = await makeContract(t, [{ name: 'Aino Virtanen', email: address }], { language: 'fi' });
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    const [invitation] = await waitForMailsTo(smtp, address, 1);
    const invitationText = oneLine(`${invitation!.mail.subject}\n${invitation!.mail.text}`);
    for (const words of [...finnish('mail', 'invitation.subject'), ...finnish('mail', 'invitation.button')])
      expect(invitationText).toContain(words);
    expect(englishOf('mail').filter((words) => invitationText.includes(words))).toEqual([]);

    const party = signingClient(linkIn(invitation!));
    expect((await party.state()).status).toBe(200);
    expect((await party.accept({}, 'Aino Virtanen')).status).toBe(200);
    // The signed mail follows the seal, which on a busy machine takes a while.
    await expect.poll(() => mailsTo(smtp, address).length, { timeout: 90_000 }).toBe(2);
    const signed = mailsTo(smtp, address).find((mail) => mail !== invitation)!;
    const signedText = oneLine(`${signed.mail.subject}\n${signed.mail.text}`);
    for (const words of [...finnish('mail', 'signed.subject'), ...finnish('mail', 'signed.button')])
      expect(signedText).toContain(words);
    expect(englishOf('mail').filter((words) => signedText.includes(words))).toEqual([]);

    const pdf = await fetch(`${t.url}${contract.self}/signed_pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(pdf.status).toBe(200);
    const file = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    // The contract's two pages, then the audit pages.
    const audit = oneLine(pdftotext(file, 3, pageCountOf(file)));
    for (const words of finnish('audit', 'title')) expect(audit).toContain(words);
    expect(englishOf('audit').filter((words) => audit.includes(words))).toEqual([]);
  });
});
