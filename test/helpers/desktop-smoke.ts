import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { openDatabase } from '../../server/db/open-database';
import { makePdf } from './pdfs';
import { apiClient, makeAdminAndKey, makeTempDir } from './server';
import { sessionClient } from './session';
import type { WebhookReceiver } from './webhook-receiver';

/** A fresh DATA_DIR with an administrator and an API key, made through the CLI as an installer would. */
export async function prepareDataDir(prefix = 'signdesk-host-'): Promise<{ dataDir: string; key: string }> {
  const dataDir = makeTempDir(prefix);
  return { dataDir, key: await makeAdminAndKey(dataDir, 'desktop test') };
}

/**
 * What the desktop window does: open the one-time sign-in link, land on the built admin UI
 * signed in as the administrator, and load its script.
 */
export async function expectAdminWindowSignsIn(serverUrl: string, loginUrl: string | null): Promise<void> {
  expect(loginUrl).toMatch(new RegExp(`^${serverUrl}/admin/sign-in-link/[\\w-]{43}$`));
  const browser = sessionClient(serverUrl);
  const landing = await browser.request('GET', new URL(loginUrl as string).pathname);
  expect(landing.status).toBe(303);
  expect(landing.headers.get('location')).toBe('/admin/');
  const session = await browser.request('GET', '/api/session');
  expect(session.status).toBe(200);
  expect(session.body).toMatchObject({ is_admin: true, user: { username: 'admin' } });
  // A link works once.
  expect(
    (await sessionClient(serverUrl).request('GET', new URL(loginUrl as string).pathname)).headers.get('location'),
  ).toBe('/admin/?signin=link-expired');

  const page = await fetch(`${serverUrl}/admin/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /<script type="module" crossorigin src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script, html).toBeDefined();
  const asset = await fetch(`${serverUrl}${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toMatch(/javascript/);
}

/**
 * The whole service in one pass, as an integrator uses it: a webhook consumer (an Ed25519 key
 * pair: sodium-native), a contract from a PDF with the administrator as its signing party, sent
 * with auto_sign (the sealed signed PDF: pdf-lib, the fonts, the seal), and the signed
 * `contract.signed` event at the receiver. Returns the contract's id.
 */
export async function signContractThroughTheApi(
  serverUrl: string,
  key: string,
  receiver: WebhookReceiver,
): Promise<number> {
  const api = apiClient(serverUrl, key);
  const consumer = await api('POST', '/api/webhooks', { body: { url: `${receiver.url}/signdesk` } });
  expect(consumer.status, JSON.stringify(consumer.body)).toBe(201);
  receiver.trust(consumer.body.key_id, consumer.body.public_key);

  const admin = (await api('GET', '/api/users')).body.find((user: { username: string }) => user.username === 'admin');
  const contract = await api('POST', '/api/contracts', {
    raw: { data: await makePdf({ pages: 1 }), contentType: 'application/pdf' },
  });
  expect(contract.status).toBe(201);
  const party = await api('POST', `${contract.body.self}/parties`, {
    body: { name: 'Åsa Öberg', email: 'admin@office.test', delivery_method: 'NONE', user: admin.self },
  });
  expect(party.status, JSON.stringify(party.body)).toBe(201);
  const field = {
    party_id: party.body.self,
    pdf_page: 1,
    pos_x: 50,
    pos_y: 700,
    width: 200,
    height: 50,
    type: 'SIGNATURE',
  };
  expect((await api('POST', `${contract.body.self}/annotations`, { body: field })).status).toBe(201);

  const sent = await api('POST', `${contract.body.self}/send`, { body: { auto_sign: true } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect(sent.body).toMatchObject({ is_signed: true });
  await expect
    .poll(() => receiver.verified().map((request) => request.json.type), { timeout: 15_000 })
    .toContain('contract.signed');
  expect(receiver.verified().find((request) => request.json.type === 'contract.signed')!.json.data).toEqual({
    id: contract.body.self,
  });
  await expectPageImage((await api('GET', party.body.self)).body.contract_url);
  return Number(contract.body.self.split('/').at(-1));
}

/**
 * The party's signing page names its first page's image (preloaded), and the server draws it:
 * pdf.js and the Skia canvas work from wherever this server runs (a package: unpacked files).
 */
async function expectPageImage(contractUrl: string): Promise<void> {
  const html = await (await fetch(contractUrl)).text();
  const first = /<link rel="preload" as="image"[^>]* imagesrcset="[^"]*?(\/sign\/[^" ]+\/1-810\.webp)/.exec(html)?.[1];
  expect(first, 'the page preloads its first page').toBeDefined();
  const image = await fetch(new URL(first!, contractUrl));
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/webp');
  const bytes = Buffer.from(await image.arrayBuffer());
  expect(bytes.toString('latin1', 0, 4) + bytes.toString('latin1', 8, 12)).toBe('RIFFWEBP');
}

/** The stored signed PDF of a contract, read from the database once the server has stopped. */
export function readSignedPdf(dataDir: string, contractId: number): string {
  const opened = openDatabase(path.join(dataDir, 'signdesk.sqlite'));
  try {
    const row = opened.sqlite
      .prepare('SELECT f.data FROM contracts c JOIN stored_files f ON f.id = c.signed_file_id WHERE c.id = ?')
      .get(contractId) as { data: Buffer } | undefined;
    expect(row, 'the contract has a signed PDF').toBeDefined();
    const file = path.join(makeTempDir('signdesk-signed-'), 'signed.pdf');
    fs.writeFileSync(file, row!.data);
    return file;
  } finally {
    opened.close();
  }
}
