import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { screenshot } from '../helpers/browser';
import { makeTempDir } from '../helpers/server';
import type { SigningEnv } from '../helpers/signing';
import { startSigningBrowser } from '../helpers/signing-browser';
import { renderGray } from '../helpers/pdf-tools';
import { signaturePhoto } from '../helpers/signature-photo';
import { phoneContext, sentToOneParty, waitForPagesDrawn } from '../helpers/signing-page';

const SIGNATURE = { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 480, width: 240, height: 80 };

describe('a phone photo of a signature, uploaded on the signing page', () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('takes a photo over 5 MB (the page shrinks it first) and stamps the ink alone, without the grey paper', async () => {
    const dir = makeTempDir('signdesk-photo-');
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const { link } = await sentToOneParty(env, {
      name: 'Pia Foto',
      email: 'pia@example.test',
      fields: [SIGNATURE],
    });
    // 19 megapixels of grainy grey paper: a large file, as phone cameras make.
    const photo = signaturePhoto({ width: 5000, height: 3750, quality: 97 });
    expect(photo.length).toBeGreaterThan(5 * 1024 * 1024);
    const file = path.join(dir, 'signature.jpg');
    fs.writeFileSync(file, photo);

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(link);
    await waitForPagesDrawn(page, 2);
    await page.locator('.field-signature').tap();
    const dialog = page.getByRole('dialog', { name: 'Your signature' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('tab', { name: 'Upload' }).click();
    await dialog.getByLabel(/A picture of your signature/).setInputFiles(file);
    await dialog.locator('img.upload-preview').waitFor({ timeout: 30_000 });
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'signing-photo-preview');
    await dialog.getByRole('button', { name: 'Use this signature' }).click();
    await page.getByRole('button', { name: 'Sign the document' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign the document' });
    await confirm.getByLabel(/agree to sign it electronically/).click();
    await confirm.getByRole('button', { name: 'Sign the document' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'The document is signed by everyone' }).isVisible(), {
        timeout: 30_000,
      })
      .toBe(true);
    await context.close();

    const signed = path.join(dir, 'signed.pdf');
    fs.writeFileSync(signed, Buffer.from(await (await fetch(`${link}/signed.pdf`)).arrayBuffer()));
    const image = renderGray(signed, 1, dir);
    // The picture's area of the box (above the caption): dark ink, and the page's white around it.
    let darkest = 255;
    let grey = 0;
    let all = 0;
    for (let y = SIGNATURE.pos_y + 4; y < SIGNATURE.pos_y + SIGNATURE.height - 18; y += 1)
      for (let x = SIGNATURE.pos_x + 4; x < SIGNATURE.pos_x + SIGNATURE.width - 4; x += 1) {
        const value = image.pixels[y * image.width + x]!;
        darkest = Math.min(darkest, value);
        if (value < 235) grey += 1;
        all += 1;
      }
    expect(darkest).toBeLessThan(110);
    expect(grey / all).toBeLessThan(0.15);
  }, 180_000);
});
