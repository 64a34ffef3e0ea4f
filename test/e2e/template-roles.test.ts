import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { waitForDocument } from '../helpers/contract-page';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';

/** How long the page may take to show a change on a busy machine. */
const until = { timeout: 20_000, interval: 50 };
/** A 2.3 MB file, as the office tried: over the 2 MiB limit. */
const BIG = Buffer.alloc(2_300_000, 32);

describe(
  'named roles, the fields waiting for each party, the editor’s keyboard and upload limits in the admin UI',
  { timeout: 180_000 },
  () => {
    let t: TestServer;
    let browser: Browser;
    let tagged: Uint8Array;
    beforeAll(async () => {
      t = await startTestServer();
      browser = await launchBrowser();
      tagged = await makeTaggedPdf({ pages: 3, lines: LEASE_LINES });
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    /** A published PDF template with the lease's seven tagged fields: role 1 has 3, role 2 has 4. */
    async function leaseTemplate(name: string): Promise<string> {
      const template = (await t.api('POST', '/api/contract_templates', { body: { name, is_published: true } })).body
        .self;
      await t.api('PUT', `${template}/pdf`, { raw: { data: tagged, contentType: 'application/pdf' } });
      expect((await t.api('POST', `${template}/fields/from_tags`)).body).toHaveLength(7);
      return template;
    }
    const idOf = (path: string) => path.split('/').at(-1);
    const focused = (page: Page) =>
      page.evaluate<string | null>("document.activeElement?.getAttribute('data-field-id') ?? null");

    it('names a template’s roles, binds a party by its role and shows what waits for each party and role', async () => {
      const template = await leaseTemplate('Lease with roles');
      const { page, problems } = await openPage(browser);
      await signInThroughPage(page, t.url, 'admin', 'correct horse');
      await gotoAdmin(page, t.url, `/templates/${idOf(template)}`, 'Lease with roles');
      const roles = page.getByRole('form', { name: 'Roles' });
      await roles.getByLabel('Name of role 1').fill('Landlord');
      await roles.getByLabel('Name of role 2').fill(' Tenant ');
      await roles.getByRole('button', { name: 'Save the names' }).click();
      await expect
        .poll(async () => (await t.api('GET', template)).body.role_names, until)
        .toEqual(['Landlord', 'Tenant']);
      expect(await waitForDocument(page)).toBe(3);
      await expect
        .poll(() => page.getByRole('button', { name: 'Signature · Tenant, page 3, required' }).count(), until)
        .toBe(1);
      expect(await auditAccessibility(page), 'template page').toEqual([]);

      const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Lease Storgatan 1' } })).body
        .self;
      await gotoAdmin(page, t.url, `/contracts/${idOf(contract)}`, 'Lease Storgatan 1');
      const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Fields per party' }) });
      await expect
        .poll(() => card.getByTestId('fields-of-role').allInnerTexts(), until)
        .toEqual([
          expect.stringMatching(/No party yet\s+Landlord\s+3 fields\s+3 waiting for the party who takes this role/),
          expect.stringMatching(/No party yet\s+Tenant\s+4 fields\s+4 waiting for the party who takes this role/),
        ]);

      // The tenant is added first, by role: the landlord's fields stay waiting for the landlord.
      const form = page.getByRole('form', { name: 'Add a party' });
      await expect
        .poll(() => form.getByLabel('Role').locator('option').allInnerTexts(), until)
        .toEqual(['The next role in order', 'Landlord', 'Tenant']);
      await form.getByLabel('Name').fill('Tor Tenant');
      await form.getByLabel('E-mail').fill('tor@example.test');
      await form.getByLabel('Role').selectOption('Tenant');
      await form.getByRole('button', { name: 'Add party' }).click();
      await expect
        .poll(async () => (await t.api('GET', `${contract}/parties`)).body.map((p: any) => [p.name, p.role]), until)
        .toEqual([['Tor Tenant', 'Tenant']]);
      await expect
        .poll(() => card.getByTestId('fields-of-party').allInnerTexts(), until)
        .toEqual([
          expect.stringMatching(/Tor Tenant\s+Tenant\s+4 fields: Name, Checkbox, Initials, Signature\s+4 waiting/),
        ]);
      // The parties and the roles come from two loads: each is waited for.
      await expect
        .poll(() => card.getByTestId('fields-of-role').allInnerTexts(), until)
        .toEqual([expect.stringMatching(/Landlord\s+3 fields/)]);
      await expect
        .poll(() => form.getByLabel('Role').locator('option').allInnerTexts(), until)
        .toEqual(['The next role in order', 'Landlord']);
      // The parties' table names the role too.
      expect(await page.getByTestId('party-row').first().innerText()).toMatch(/Tenant/);

      // A second party without a role takes the next one in order: the landlord's.
      await form.getByLabel('Name').fill('Lena Landlord');
      await form.getByLabel('E-mail').fill('lena@example.test');
      await form.getByRole('button', { name: 'Add party' }).click();
      await expect.poll(() => card.getByTestId('fields-of-party').count(), until).toBe(2);
      await expect.poll(() => card.getByTestId('fields-of-role').count(), until).toBe(0);
      await expect
        .poll(() => card.getByTestId('fields-of-party').nth(1).innerText(), until)
        .toMatch(/Lena Landlord\s+Landlord\s+3 fields: Text, Signature, Date/);
      await screenshot(page, 'contract-fields-per-party');
      expect(await auditAccessibility(page), 'contract page with roles').toEqual([]);

      // In Swedish.
      await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
      await page.reload();
      await expect.poll(() => page.getByRole('heading', { name: 'Fält per part' }).isVisible(), until).toBe(true);
      expect(
        await page.locator('.card', { has: page.getByRole('heading', { name: 'Fält per part' }) }).innerText(),
      ).toMatch(/Tor Tenant\s+Tenant\s+4 fält: Namn/);
      expect(problems).toEqual([]);
    });

    it('moves the focus to the next field after Delete, and Ctrl+Z puts the field back with the focus on it', async () => {
      const pdf = await makePdf();
      const contract = (await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } }))
        .body.self;
      await t.api('PUT', contract, { body: { name: 'Keyboard lease' } });
      const party = (await t.api('POST', `${contract}/parties`, { body: { name: 'Ada', email: 'ada@example.test' } }))
        .body.self;
      for (const [type, y] of [
        ['SIGNATURE', 100],
        ['DATE', 200],
        ['TEXT', 300],
      ] as const) {
        await t.api('POST', `${contract}/annotations`, {
          body: { party_id: party, pdf_page: 1, pos_x: 100, pos_y: y, width: 120, height: 30, type },
        });
      }
      const count = async () => (await t.api('GET', `${contract}/annotations`)).body.length;
      const { page, problems } = await openPage(browser);
      await signInThroughPage(page, t.url, 'admin', 'correct horse');
      await gotoAdmin(page, t.url, `/contracts/${idOf(contract)}`, 'Keyboard lease');
      await waitForDocument(page);
      const boxes = page.locator('.editor-field[data-field-id]');
      await expect.poll(() => boxes.count(), until).toBe(3);
      // In reading order: the signature (y 100), the date (y 200), the text (y 300).
      const idOfType = (type: string) => page.locator(`[data-field-type="${type}"]`).getAttribute('data-field-id');
      const ids = [await idOfType('SIGNATURE'), await idOfType('DATE'), await idOfType('TEXT')];

      // Delete on the first: the second has the focus, and Ctrl+Z from there brings the first back, focused.
      await page.locator(`[data-field-id="${ids[0]}"]`).focus();
      await page.keyboard.press('Delete');
      await expect.poll(count, until).toBe(2);
      await expect.poll(() => focused(page), until).toBe(ids[1]);
      await page.keyboard.press('Control+z');
      await expect.poll(count, until).toBe(3);
      await expect.poll(() => focused(page), until).toBe(ids[0]);
      await expect.poll(() => boxes.count(), until).toBe(3);

      // Delete on the last: the one before it has the focus.
      await page.locator(`[data-field-id="${ids[2]}"]`).focus();
      await page.keyboard.press('Delete');
      await expect.poll(count, until).toBe(2);
      await expect.poll(() => focused(page), until).toBe(ids[1]);

      // Deleting every field leaves the focus on the tools; Ctrl+Z there brings the last one back.
      await page.keyboard.press('Delete');
      await expect.poll(() => focused(page), until).toBe(ids[0]);
      await page.keyboard.press('Delete');
      await expect.poll(count, until).toBe(0);
      expect(
        await page.evaluate<string | null>("document.activeElement?.closest('.editor-tools') ? 'tools' : null"),
      ).toBe('tools');
      await page.keyboard.press('Control+z');
      await expect.poll(count, until).toBe(1);
      await expect.poll(() => focused(page), until).toBe(ids[0]);
      const [restored] = (await t.api('GET', `${contract}/annotations`)).body;
      expect(restored).toMatchObject({ type: 'SIGNATURE', pos_y: 100, party_id: party });
      expect(problems).toEqual([]);
    });

    it('refuses a PDF, an attachment and a CSV over 2 MiB before sending them, naming the size and the limit', async () => {
      const template = await leaseTemplate('Lease for limits');
      const { page, problems } = await openPage(browser);
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.method() !== 'GET') sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      await signInThroughPage(page, t.url, 'admin', 'correct horse');
      await gotoAdmin(page, t.url, '/contracts', 'Contracts');
      const before = (await t.api('GET', '/api/contracts')).headers.get('pagination-items-total');
      sent.length = 0;
      await page.getByRole('button', { name: 'New contract' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('A PDF file').check();
      await dialog
        .getByLabel('PDF file', { exact: true })
        .setInputFiles({ name: 'scanned.pdf', mimeType: 'application/pdf', buffer: BIG });
      await expect
        .poll(() => dialog.getByText('The PDF is 2.2 MiB; the limit is 2 MiB.').isVisible(), until)
        .toBe(true);
      expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      await page.keyboard.press('Escape');

      const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Lease with a scan' } })).body
        .self;
      await gotoAdmin(page, t.url, `/contracts/${idOf(contract)}`, 'Lease with a scan');
      await page
        .getByLabel('Add attachment')
        .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: BIG });
      await expect
        .poll(() => page.getByText('The attachment is 2.2 MiB; the limit is 2 MiB.').isVisible(), until)
        .toBe(true);

      await gotoAdmin(page, t.url, `/templates/${idOf(template)}/bulk`, 'Bulk send: Lease for limits');
      await page.getByLabel('CSV file').setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: BIG });
      await expect
        .poll(() => page.getByText('The CSV file is 2.2 MiB; the limit is 2 MiB.').isVisible(), until)
        .toBe(true);
      expect(sent).toEqual([]);
      expect((await t.api('GET', `${contract}/attachments`)).body).toEqual([]);

      // The same in Swedish.
      await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
      await gotoAdmin(page, t.url, '/contracts', 'Avtal');
      await page.getByRole('button', { name: 'Nytt avtal' }).first().click();
      await page.getByRole('dialog').getByLabel('En PDF-fil').check();
      await page
        .getByRole('dialog')
        .getByLabel('PDF-fil', { exact: true })
        .setInputFiles({ name: 'skannad.pdf', mimeType: 'application/pdf', buffer: BIG });
      await expect.poll(() => page.getByText('PDF:en är 2,2 MiB; gränsen är 2 MiB.').isVisible(), until).toBe(true);
      await screenshot(page, 'upload-limit-sv');
      expect(sent).toEqual([]);
      expect((await t.api('GET', '/api/contracts')).headers.get('pagination-items-total')).toBe(
        String(Number(before) + 1),
      );
      expect(problems).toEqual([]);
    });
  },
);
