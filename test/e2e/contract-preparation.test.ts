import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, openPage, screenshot, SCREENSHOT_DIR } from '../helpers/browser';
import { waitForDocument, waitForStatus } from '../helpers/contract-page';
import { changedPixels, pdfsig, renderGray, wordBoxes, type GrayImage } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { signThroughSigningPage } from '../helpers/signing-page';
import { linkIn, waitForMailsTo, type SigningEnv } from '../helpers/signing';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';
import { startSigningBrowser } from '../helpers/signing-browser';

const NAME = 'Lease Storgatan 1';
const A4_WIDTH = 595.28;

type Box = { x: number; y: number; width: number; height: number };
const boxOf = (field: any): Box => ({ x: field.pos_x, y: field.pos_y, width: field.width, height: field.height });

/** Share of dark pixels (gray < 128) in a box of a page rendered at 72 dpi. */
function inkIn(image: GrayImage, box: Box): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y += 1) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x += 1) {
      all += 1;
      if (image.pixels[y * image.width + x]! < 128) dark += 1;
    }
  }
  return dark / Math.max(1, all);
}

/** Pixels that changed between two renders outside every one of `boxes` (each grown by `margin` points). */
function changedOutside(before: GrayImage, after: GrayImage, boxes: Box[], margin = 3): number {
  let changed = 0;
  for (let y = 0; y < after.height; y += 1) {
    for (let x = 0; x < after.width; x += 1) {
      const index = y * after.width + x;
      if (Math.abs(before.pixels[index]! - after.pixels[index]!) < 40) continue;
      const isNear = boxes.some(
        (box) =>
          x >= box.x - margin &&
          x < box.x + box.width + margin &&
          y >= box.y - margin &&
          y < box.y + box.height + margin,
      );
      if (!isNear) changed += 1;
    }
  }
  return changed;
}

async function addPartyInUi(page: Page, name: string, email: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a party' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('E-mail').fill(email);
  await form.getByRole('button', { name: 'Add party' }).click();
  await expect.poll(() => page.getByRole('radio', { name })).toBeTruthy();
  await expect.poll(() => page.getByRole('radio', { name }).count(), { timeout: 15_000 }).toBe(1);
}

/** Drags a tool of the toolbar onto a page of the editor and lets go at (x, y) points of that page. */
async function dragToolOnto(page: Page, tool: string, pageNumber: number, x: number, y: number): Promise<void> {
  const target = page.locator(`.editor-page[data-page="${pageNumber}"]`);
  await target.scrollIntoViewIfNeeded();
  const button = await page.getByRole('button', { name: tool, exact: true }).boundingBox();
  const box = await target.boundingBox();
  if (!button || !box) throw new Error('tool or page not on screen');
  const zoom = box.width / A4_WIDTH;
  await page.mouse.move(button.x + button.width / 2, button.y + button.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + x * zoom, box.y + y * zoom, { steps: 10 });
  await page.mouse.up();
}

describe('preparing a contract in the admin UI', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('makes fields from tags, adds one by dragging, attaches a file, sends, and every field is stamped at its place', async () => {
    const { t, smtp } = env;
    const dir = makeTempDir('signdesk-prepare-');
    const original = path.join(dir, 'lease.pdf');
    fs.writeFileSync(original, await makeTaggedPdf({ pages: 3, lines: LEASE_LINES }));
    const attachment = path.join(dir, 'Parkeringsvillkor.txt');
    fs.writeFileSync(attachment, 'Parking is on the yard, space 4.\n');

    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/contracts', 'Contracts');
    await page.getByRole('button', { name: 'New contract' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('A PDF file').check();
    await dialog.getByLabel('PDF file', { exact: true }).setInputFiles(original);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Parties', exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    const contract = `/api/contracts/${page.url().split('/').at(-1)}`;
    await page.getByRole('form', { name: 'Details' }).getByLabel('Name', { exact: true }).fill(NAME);
    await page.getByRole('form', { name: 'Details' }).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('heading', { name: NAME, level: 1 }).isVisible()).toBe(true);
    await addPartyInUi(page, 'Lena Landlord', 'lena@example.test');
    await addPartyInUi(page, 'Tor Tenant', 'tor@example.test');
    expect(await waitForDocument(page)).toBe(3);

    // Fields from the tags: seven, each over its tag, for the party its number names.
    await page.getByRole('button', { name: 'Fields from tags' }).click();
    await expect
      .poll(() => page.getByText('7 fields made from the tags in the document.').isVisible(), {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(true);
    expect(await page.locator('.editor-field').count()).toBe(7);
    expect(await page.getByRole('button', { name: 'Initials · Tor Tenant, page 2, required' }).count()).toBe(1);

    // One more dragged on from the toolbar: a date for the tenant beside his signature.
    await page.getByRole('radio', { name: 'Tor Tenant' }).check();
    await dragToolOnto(page, 'Date', 3, 400, 410);
    const annotations = async () => (await t.api('GET', `${contract}/annotations?per_page=100`)).body as any[];
    await expect.poll(async () => (await annotations()).length, { timeout: 15_000 }).toBe(8);
    const tor = (await t.api('GET', `${contract}/parties`)).body.find((party: any) => party.name === 'Tor Tenant').self;
    const dragged = (await annotations()).find((field) => field.type === 'DATE' && field.party_id === tor);
    expect(dragged).toMatchObject({ pdf_page: 3, width: 90, height: 20 });
    expect(dragged.pos_x).toBeCloseTo(355, -1);
    expect(dragged.pos_y).toBeCloseTo(400, -1);

    // The keyboard: the new field has the focus; arrows move it, Shift+arrows resize it, undo takes the resize back.
    const field = page.getByRole('button', { name: 'Date · Tor Tenant, page 3, required' });
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toBe(
      'Date · Tor Tenant, page 3, required',
    );
    for (let press = 0; press < 4; press += 1) await page.keyboard.press('ArrowRight');
    for (let press = 0; press < 2; press += 1) await page.keyboard.press('Shift+ArrowDown');
    const current = async () => (await t.api('GET', dragged.self)).body;
    await expect
      .poll(async () => [(await current()).pos_x, (await current()).height], { timeout: 10_000 })
      .toEqual([dragged.pos_x + 4, 22]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(async () => [(await current()).pos_x, (await current()).height], { timeout: 10_000 })
      .toEqual([dragged.pos_x, 20]);
    await field.click();
    await page.getByRole('group', { name: 'Selected field' }).getByLabel('Required').uncheck();
    await expect.poll(async () => (await current()).input_required, { timeout: 10_000 }).toBe(false);

    // An attachment, uploaded and listed.
    await page.getByLabel('Add attachment').setInputFiles(attachment);
    await expect
      .poll(() => page.getByRole('button', { name: 'Parkeringsvillkor.txt', exact: true }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    expect((await t.api('GET', `${contract}/attachments`)).body.map((row: any) => row.name)).toEqual([
      'Parkeringsvillkor.txt',
    ]);

    // The editor as an office sees it: accessible, in English and Swedish, on a laptop and at 800 px.
    await screenshot(page, 'editor-draft');
    expect(await auditAccessibility(page), 'field editor').toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    await waitForDocument(page);
    expect(await fitsWidth(page), 'editor at 800 px').toBe(true);
    await screenshot(page, 'editor-draft-800');
    expect(await auditAccessibility(page), 'field editor at 800 px').toEqual([]);
    await page.getByRole('complementary').getByLabel('Language').selectOption('sv');
    await expect.poll(() => page.getByRole('button', { name: 'Fält från taggar' }).isVisible()).toBe(true);
    await screenshot(page, 'editor-draft-800-sv');
    expect(await auditAccessibility(page), 'field editor in Swedish').toEqual([]);
    await page.getByRole('complementary').getByLabel('Språk').selectOption('en');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Sent: the fields stay, read-only.
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send', exact: true }).click();
    await waitForStatus(page, 'sent');
    await expect.poll(() => page.locator('.editor-field.is-read-only').count(), { timeout: 15_000 }).toBe(8);
    expect(await page.getByRole('button', { name: 'Fields from tags' }).count()).toBe(0);
    await screenshot(page, 'editor-sent');
    expect(await auditAccessibility(page), 'fields read-only').toEqual([]);

    // Both parties sign on the signing page.
    const [lenaMail] = await waitForMailsTo(smtp, 'lena@example.test', 1);
    const [torMail] = await waitForMailsTo(smtp, 'tor@example.test', 1);
    await signThroughSigningPage(browser, linkIn(lenaMail!), {
      texts: ['Pets allowed'],
      signatureName: 'Lena Landlord',
      screenshotName: 'prepared-signing-lena',
    });
    await signThroughSigningPage(browser, linkIn(torMail!), { tick: true, signatureName: 'Tor Tenant' });
    await waitForStatus(page, 'signed');
    expect(problems).toEqual([]);

    // Every field is stamped at its place: ink inside its box, as its type draws it, and nothing changed
    // elsewhere but the tags (painted white).
    const signed = path.join(SCREENSHOT_DIR, 'prepared-signed.pdf');
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const response = await fetch(`${t.url}${contract}/signed_pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    fs.writeFileSync(signed, Buffer.from(await response.arrayBuffer()));
    expect(pdfsig(signed)).toContain('Signature is Valid');
    const fields = await annotations();
    const tags = wordBoxes(original).filter((word) => word.word.startsWith('{{'));
    for (const pageNumber of [1, 2, 3]) {
      const before = renderGray(original, pageNumber, dir);
      const after = renderGray(signed, pageNumber, dir);
      const onPage = fields.filter((candidate) => candidate.pdf_page === pageNumber);
      for (const stamped of onPage) {
        const box = boxOf(stamped);
        const label = `${stamped.type} on page ${pageNumber}`;
        expect(changedPixels(before, after, box).inside, label).toBeGreaterThan(20);
        const ink = inkIn(after, box);
        if (stamped.type === 'CHECKBOX') {
          const inner = {
            x: box.x + box.width * 0.25,
            y: box.y + box.height * 0.25,
            width: box.width * 0.5,
            height: box.height * 0.5,
          };
          expect(inkIn(after, inner), `${label}: ticked`).toBeGreaterThan(0.1);
        } else if (stamped.type === 'SIGNATURE' || stamped.type === 'INITIALS') {
          // The script mark fills the upper part of the box.
          const mark = { ...box, height: box.height * 0.6 };
          expect(inkIn(after, mark), `${label}: mark`).toBeGreaterThan(0.02);
        } else {
          expect(ink, `${label}: text`).toBeGreaterThan(0.02);
        }
      }
      const covers = tags.filter((tag) => tag.page === pageNumber);
      expect(
        changedOutside(before, after, [...onPage.map(boxOf), ...covers]),
        `page ${pageNumber}: nothing else changed`,
      ).toBe(0);
    }
  }, 240_000);
});
