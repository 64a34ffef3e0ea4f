import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { screenshot } from '../helpers/browser';
import { makeTempDir } from '../helpers/server';
import type { SigningEnv } from '../helpers/signing';
import { startSigningBrowser } from '../helpers/signing-browser';
import { pageCountOf, pdfsig, renderGray, run, type GrayImage } from '../helpers/pdf-tools';
import { drawWithTouch, phoneContext, sentToOneParty, waitForPagesDrawn } from '../helpers/signing-page';

const SIGNATURE = { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 480, width: 240, height: 80 };
const INITIALS = { type: 'INITIALS', pdf_page: 1, pos_x: 420, pos_y: 700, width: 60, height: 30 };

/** Dark pixels (of 72-dpi gray) in a rectangle of the page, in points from its top-left. */
function inkIn(image: GrayImage, left: number, top: number, width: number, height: number): number {
  let dark = 0;
  for (let y = Math.round(top); y < Math.round(top + height); y += 1) {
    for (let x = Math.round(left); x < Math.round(left + width); x += 1)
      if (image.pixels[y * image.width + x]! < 150) dark += 1;
  }
  return dark;
}

describe('signing by drawing on a phone', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('draws the signature and initials with a finger, and the sealed PDF carries that ink where it was put, and nothing else', async () => {
    const dir = makeTempDir('signdesk-draw-');
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { link } = await sentToOneParty(env, {
      name: 'Chris Carter',
      email: 'chris@example.test',
      fields: [SIGNATURE, INITIALS],
    });
    const original = path.join(dir, 'original.pdf');
    fs.writeFileSync(original, Buffer.from(await (await fetch(`${link}/document.pdf`)).arrayBuffer()));

    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(link);
    await waitForPagesDrawn(page, 2);
    // A finger on the signature box opens the pad.
    await page.locator('.field-signature').tap();
    const dialog = page.getByRole('dialog', { name: 'Your signature' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // One stroke from the bottom left to the top right of the pad, a few points per centimetre.
    const stroke = Array.from({ length: 25 }, (_, index): [number, number] => [20 + index * 12, 140 - index * 5]);
    await drawWithTouch(page, '.draw-canvas >> nth=0', [stroke]);
    await drawWithTouch(page, '.draw-canvas >> nth=1', [
      Array.from({ length: 12 }, (_, index): [number, number] => [20 + index * 10, 90 - index * 6]),
    ]);
    await screenshot(page, 'signing-phone-drawn');
    // After a touch stream sent through CDP, Chromium 156.0.8078.108 turns no later tap into a
    // click (the tap above, before the drawing, still does): the buttons are pressed with clicks.
    await dialog.getByRole('button', { name: 'Use this signature' }).click();
    // The boxes now show the drawn mark: pictures, no typed name.
    await expect.poll(() => page.locator('.field-signature img.mark-image').count()).toBe(1);
    expect(await page.locator('.field-initials img.mark-image').count()).toBe(1);
    await expect.poll(() => page.locator('.progress').textContent()).toBe('All 2 fields done');
    await page.getByRole('button', { name: 'Sign the document' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign the document' });
    await confirm.getByLabel(/agree to sign it electronically/).click();
    await confirm.getByRole('button', { name: 'Sign the document' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'The document is signed by everyone' }).isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    await screenshot(page, 'signing-phone-drawn-signed');
    expect(problems).toEqual([]);
    await context.close();

    const signed = path.join(dir, 'signed.pdf');
    fs.writeFileSync(signed, Buffer.from(await (await fetch(`${link}/signed.pdf`)).arrayBuffer()));
    expect(pdfsig(signed)).toContain('Signature is Valid');
    const before = renderGray(original, 1, dir);
    const after = renderGray(signed, 1, dir);

    // The signature's mark area (4 pt inside the frame, above the 14.5 pt caption), in quarters.
    const area = {
      left: SIGNATURE.pos_x + 4,
      top: SIGNATURE.pos_y + 4,
      width: SIGNATURE.width - 8,
      height: SIGNATURE.height - 18.5,
    };
    const part = (fx: number, fy: number, fw: number, fh: number) =>
      inkIn(after, area.left + area.width * fx, area.top + area.height * fy, area.width * fw, area.height * fh);
    // Ink where the finger went (lower left to upper right), none where it did not.
    expect(part(0.45, 0.4, 0.1, 0.2)).toBeGreaterThan(0);
    expect(part(0.55, 0, 0.45, 0.45)).toBeGreaterThan(0);
    expect(part(0, 0.55, 0.45, 0.45)).toBeGreaterThan(0);
    expect(part(0, 0, 0.4, 0.35)).toBe(0);
    expect(part(0.6, 0.65, 0.4, 0.35)).toBe(0);
    // The drawn initials are in their box.
    expect(
      inkIn(after, INITIALS.pos_x + 8, INITIALS.pos_y + 6, INITIALS.width - 16, INITIALS.height - 12),
    ).toBeGreaterThan(0);

    // Outside the two boxes the page is the original, pixel for pixel (give or take antialiasing).
    let changed = 0;
    const isInBox = (x: number, y: number) =>
      [SIGNATURE, INITIALS].some(
        (box) =>
          x >= box.pos_x - 2 && x <= box.pos_x + box.width + 2 && y >= box.pos_y - 2 && y <= box.pos_y + box.height + 2,
      );
    for (let y = 0; y < after.height; y += 1) {
      for (let x = 0; x < after.width; x += 1) {
        if (!isInBox(x, y) && Math.abs(after.pixels[y * after.width + x]! - before.pixels[y * before.width + x]!) > 40)
          changed += 1;
      }
    }
    expect(changed).toBe(0);

    // The audit trail (the pages after the one-page document; its evidence comes last) shows the
    // drawn mark beside the party, as a picture.
    const last = pageCountOf(signed);
    expect(run('pdfimages', ['-list', '-f', '2', '-l', String(last), signed]).stdout).toMatch(/\bimage\b/);
  }, 180_000);
});
