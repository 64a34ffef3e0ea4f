import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auditAccessibility, openPage, screenshot } from '../helpers/browser';
import { download } from '../helpers/evidence';
import { gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { pdftotext } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { makeContract, type SigningEnv } from '../helpers/signing';
import { phoneContext, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const box = (y: number, height = 24) => ({ pdf_page: 1, pos_x: 72, pos_y: y, width: 260, height });

describe('the new field types on the signing page in Chromium', { timeout: 180_000 }, () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('a party fills a number, an e-mail, a dropdown, radio buttons and a file by their labels; the API and the sealed PDF show them', async () => {
    const { t } = env;
    const contract = await makeContract(
      t,
      [
        {
          name: 'Åsa Öberg',
          delivery_method: 'NONE',
          fields: [
            { type: 'TEXT', ...box(90), label: 'Company number', hint: '10 digits, as on the registration' },
            { type: 'NUMBER', ...box(130), label: 'Monthly rent' },
            { type: 'EMAIL', ...box(170), label: 'Invoice address' },
            { type: 'DROPDOWN', ...box(210), label: 'Billing', options: ['Monthly', 'Yearly'] },
            { type: 'RADIO', ...box(250, 40), label: 'Pet', options: ['Cat', 'Dog'] },
            { type: 'ATTACHMENT', ...box(310), label: 'Passport copy', hint: 'A scan or a photo' },
            { type: 'SIGNATURE', pdf_page: 1, pos_x: 72, pos_y: 640, width: 220, height: 56 },
          ],
        },
      ],
      {},
      1,
    );
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const { page, problems, context } = await openPage(browser);
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 1);
    await expect.poll(() => page.locator('.progress').textContent()).toBe('7 of 7 fields left');
    const bar = page.locator('.action-bar');
    // Each field is named by the label the office gave it, on the page and in the editor.
    const open = async (label: string) => {
      await page.getByRole('button', { name: new RegExp(`^${label} \\(Required\\)`) }).click();
      await bar.locator('.editor').waitFor();
    };

    await open('Company number');
    const company = bar.getByLabel('Company number (Required)', { exact: true });
    await expect.poll(() => company.getAttribute('aria-describedby')).toBeTruthy();
    await bar.getByText('10 digits, as on the registration').waitFor({ timeout: UI_TIMEOUT_MS });
    await company.fill('556677-8899');

    await open('Monthly rent');
    const rent = bar.getByLabel('Monthly rent (Required)', { exact: true });
    await rent.fill('twelve');
    await expect.poll(() => bar.getByText('Write a number, such as 1250 or 12.5.').isVisible()).toBe(true);
    expect(await rent.getAttribute('aria-invalid')).toBe('true');
    await rent.fill('12 500,50');
    await expect.poll(() => rent.getAttribute('aria-invalid')).toBeNull();

    await open('Invoice address');
    const email = bar.getByLabel('Invoice address (Required)', { exact: true });
    await email.fill('asa@');
    await expect.poll(() => bar.getByText('Write an e-mail address, such as name@example.com.').isVisible()).toBe(true);
    await email.fill('asa@example.test');

    await open('Billing');
    const billing = bar.getByLabel('Billing (Required)', { exact: true });
    expect((await billing.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await billing.selectOption('Yearly');

    await open('Pet');
    const pets = bar.getByRole('group', { name: 'Pet (Required)' });
    for (const option of ['Cat', 'Dog'])
      expect((await pets.locator('label', { hasText: option }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await pets.getByLabel('Dog').click();
    expect(await pets.getByLabel('Dog').isChecked()).toBe(true);

    await open('Passport copy');
    const file = bar.getByLabel('Passport copy (Required)', { exact: true });
    expect((await file.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // Too large a file is named at once, before it is read or sent.
    await file.setInputFiles({
      name: 'huge.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.alloc(2 * 1024 * 1024 + 1),
    });
    await expect
      .poll(() => bar.getByRole('alert').textContent())
      .toBe('The file is 2.0 MiB: at most 2 MiB can be attached.');
    const passport = Buffer.from('%PDF-1.4\n% a scanned passport\n');
    const sha256 = createHash('sha256').update(passport).digest('hex');
    await file.setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: passport });
    await expect
      .poll(() => bar.locator('.file-chosen').textContent())
      .toContain(`Attached: passport.pdf (${passport.length} B)`);
    await expect.poll(() => page.locator('.progress').textContent()).toBe('1 of 7 fields left');
    await screenshot(page, 'signing-field-types');
    expect(await auditAccessibility(page)).toEqual([]);

    await bar.getByRole('button', { name: 'Sign the document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your signature' });
    await dialog.getByRole('tab', { name: 'Type' }).click();
    await dialog.getByRole('button', { name: 'Use this signature' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign the document' });
    await confirm.getByLabel(/agree to sign it electronically/).check();
    await confirm.getByRole('button', { name: 'Sign the document' }).click();
    await page.getByRole('heading', { name: 'The document is signed by everyone' }).waitFor({ timeout: 30_000 });
    // What the party filled in stays on the page, the file by its name.
    await waitForPagesDrawn(page, 1);
    expect(await page.getByRole('img', { name: 'Passport copy (Required): passport.pdf' }).count()).toBe(1);
    // …and the file can be downloaded again from the party's own link.
    const again = page.getByTestId('attached-file');
    expect(await again.textContent()).toBe('passport.pdf (you attached it)');
    const [downloaded] = await Promise.all([page.waitForEvent('download'), again.getByRole('link').click()]);
    expect(
      createHash('sha256')
        .update(fs.readFileSync((await downloaded.path())!))
        .digest('hex'),
    ).toBe(sha256);
    expect(problems).toEqual([]);
    await context.close();

    const values = Object.fromEntries(
      ((await t.api('GET', `${contract.self}/annotations`)).body as Array<{ label: string; value: unknown }>).map(
        (field) => [field.label, field.value],
      ),
    );
    expect(values).toMatchObject({
      'Company number': '556677-8899',
      'Monthly rent': 12500.5,
      'Invoice address': 'asa@example.test',
      Billing: 'Yearly',
      Pet: 'Dog',
      'Passport copy': { file_name: 'passport.pdf', content_type: 'application/pdf', size: passport.length, sha256 },
    });
    const pdf = await download(t, `${contract.self}/signed_pdf`);
    const pdfFile = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(pdfFile, pdf.bytes);
    const stamped = pdftotext(pdfFile, 1).replace(/\s+/g, ' ');
    // The office reads the answers on the contract page and downloads the file from there.
    const office = await openPage(browser);
    await signInThroughPage(office.page, t.url, 'admin', 'correct horse');
    await gotoAdmin(office.page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    const answers = office.page.getByRole('region', { name: 'What the parties filled in' });
    await answers.waitFor({ timeout: 30_000 });
    expect((await answers.textContent())!.replace(/\s+/g, ' ')).toContain('Åsa Öberg · Monthly rent12500.5');
    const [saved] = await Promise.all([
      office.page.waitForEvent('download'),
      answers.getByRole('button', { name: 'passport.pdf' }).click(),
    ]);
    expect(
      createHash('sha256')
        .update(fs.readFileSync((await saved.path())!))
        .digest('hex'),
    ).toBe(sha256);
    expect(saved.suggestedFilename()).toBe('passport.pdf');
    expect(await auditAccessibility(office.page)).toEqual([]);
    expect(office.problems).toEqual([]);
    await office.context.close();
    for (const text of [
      '556677-8899',
      '12500.5',
      'asa@example.test',
      'Yearly',
      'Dog',
      `passport.pdf · SHA-256 ${sha256.slice(0, 12)}`,
    ])
      expect(stamped).toContain(text);
  });

  it('on a phone in Swedish: the choices and the file control are thumb-sized, named in Swedish, and fit the screen', async () => {
    const { t } = env;
    const contract = await makeContract(
      t,
      [
        {
          name: 'Cecilia Berg',
          delivery_method: 'NONE',
          fields: [
            { type: 'DROPDOWN', ...box(100), options: ['Månadsvis', 'Årsvis'], input_required: false },
            { type: 'RADIO', ...box(140, 40), label: 'Husdjur', options: ['Katt', 'Hund'] },
            { type: 'ATTACHMENT', ...box(200), hint: 'En skanning eller ett foto' },
          ],
        },
      ],
      {},
      1,
    );
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 1);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await expect.poll(() => page.locator('.progress').textContent()).toBe('2 av 2 fält kvar');
    const bar = page.locator('.action-bar');
    // Without a label a field is named by its kind: "Val", "Fil".
    await page.getByRole('button', { name: /^Val \(Frivilligt\)/ }).click();
    const choice = bar.getByLabel('Val (Frivilligt)', { exact: true });
    expect((await choice.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await choice.locator('option').allTextContents()).toEqual(['Välj…', 'Månadsvis', 'Årsvis']);
    await page.getByRole('button', { name: /^Husdjur \(Obligatoriskt\)/ }).click();
    const pets = bar.getByRole('group', { name: 'Husdjur (Obligatoriskt)' });
    for (const option of ['Katt', 'Hund'])
      expect((await pets.locator('label', { hasText: option }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await pets.getByLabel('Katt').click();
    await page.getByRole('button', { name: /^Fil \(Obligatoriskt\)/ }).click();
    const file = bar.getByLabel('Fil (Obligatoriskt)', { exact: true });
    expect((await file.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await bar.getByText('En skanning eller ett foto').waitFor({ timeout: UI_TIMEOUT_MS });
    await bar.getByText('Vilken sorts fil som helst, högst 2 MiB.').waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => page.locator('.progress').textContent()).toBe('1 av 2 fält kvar');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(
      0,
    );
    await screenshot(page, 'signing-field-types-phone-sv');
    expect(await auditAccessibility(page)).toEqual([]);
    await context.close();
  });
});
