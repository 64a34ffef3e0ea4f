import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, openPage, screenshot } from '../helpers/browser';
import { waitForDocument } from '../helpers/contract-page';
import { makeTempDir } from '../helpers/server';
import { waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';
import { startSigningBrowser } from '../helpers/signing-browser';

describe('a PDF template and a bulk send in the admin UI', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('makes a PDF template with fields from its tags, then sends it to the rows of a CSV and reports each', async () => {
    const { t, smtp } = env;
    const dir = makeTempDir('signdesk-bulk-');
    const pdf = path.join(dir, 'Hyresavtal.pdf');
    fs.writeFileSync(pdf, await makeTaggedPdf({ pages: 3, lines: LEASE_LINES }));
    // As Excel in Sweden saves "CSV UTF-8": a byte-order mark, semicolons.
    const csv = path.join(dir, 'hyresgäster.csv');
    fs.writeFileSync(
      csv,
      '\uFEFFparty1_name;party1_email;party1_phone;party2_name;party2_email;party2_phone;contract_name\n' +
        'Eva Nordin;eva@bulk.test;;Bo Ek;bo@bulk.test;;Lägenhet 1101\n' +
        'Ulla Ung;ulla@bulk.test;;Per Ås;per@bulk.test;;Lägenhet 1102\n' +
        'Fel Rad;inte-en-adress;;Tom;tom@bulk.test;;Lägenhet 1103\n',
    );

    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/templates', 'Templates');
    await page.getByRole('button', { name: 'New template' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('A PDF file, with fields placed for each party').check();
    await dialog.getByLabel('PDF file', { exact: true }).setInputFiles(pdf);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Hyresavtal', level: 1 }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await waitForDocument(page)).toBe(3);

    await page.getByRole('button', { name: 'Fields from tags' }).click();
    await expect
      .poll(() => page.getByText('7 fields made from the tags in the document.').isVisible(), {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Signature · Party 2, page 3, required' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.getByText('Published', { exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'template-pdf');
    expect(await auditAccessibility(page), 'PDF template').toEqual([]);

    // The bulk send: the file previewed row by row, the bad row named, then sent.
    await page.getByRole('button', { name: 'Bulk send' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Bulk send: Hyresavtal', level: 1 }).isVisible())
      .toBe(true);
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv);
    await expect.poll(() => page.getByTestId('preview-row').count(), { timeout: 15_000 }).toBe(3);
    await page.getByText('2 rows ready to send, 1 with problems (not sent).').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByText('Party 1 e-mail: inte-en-adress is not an e-mail address').waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'bulk-preview');
    expect(await auditAccessibility(page), 'bulk preview').toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    expect(await fitsWidth(page), 'bulk preview at 800 px').toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Send 2 contracts' }).click();
    await expect
      .poll(() => page.getByText('2 sent, 1 failed, 0 still being sent.').isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await page.locator('[data-testid="bulk-row"][data-state="sent"]').count()).toBe(2);
    await screenshot(page, 'bulk-report');
    expect(await auditAccessibility(page), 'bulk report').toEqual([]);
    await waitForMailsTo(smtp, 'eva@bulk.test', 1);
    await waitForMailsTo(smtp, 'per@bulk.test', 1);
    expect(smtp.mails.some((mail) => mail.envelopeTo.includes('tom@bulk.test'))).toBe(false);

    // Swedish too.
    await page.getByRole('complementary').getByLabel('Language').selectOption('sv');
    await expect.poll(() => page.getByText('2 skickade, 1 misslyckade, 0 skickas fortfarande.').isVisible()).toBe(true);
    await screenshot(page, 'bulk-report-sv');
    await page.getByRole('complementary').getByLabel('Språk').selectOption('en');

    // The report links each contract, sent with the template's fields for its two parties.
    await page.getByRole('link', { name: 'Lägenhet 1102' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Lägenhet 1102', level: 1 }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => page.locator('.editor-field.is-read-only').count(), { timeout: 15_000 }).toBe(7);
    expect(problems).toEqual([]);
  }, 240_000);
});
