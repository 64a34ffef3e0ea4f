// Renders the SVG icons to the PNGs that are committed (build/ for electron-builder, main/assets
// for the window and the tray), with Debian's Chromium: `npx tsx scripts/render-icons.ts`.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const renders = [
  { svg: 'build/icon.svg', size: 512, out: ['build/icon.png', 'build/icons/512x512.png'] },
  { svg: 'build/icon.svg', size: 256, out: ['build/icons/256x256.png', 'main/assets/icon.png'] },
  { svg: 'build/icon.svg', size: 128, out: ['build/icons/128x128.png'] },
  { svg: 'build/icon.svg', size: 64, out: ['build/icons/64x64.png'] },
  { svg: 'build/icon.svg', size: 32, out: ['build/icons/32x32.png'] },
  { svg: 'main/assets/tray.svg', size: 32, out: ['main/assets/tray.png'] },
  { svg: 'main/assets/tray.svg', size: 64, out: ['main/assets/tray@2x.png'] },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage();
  for (const render of renders) {
    const svg = fs.readFileSync(path.join(root, render.svg), 'utf8');
    await page.setViewportSize({ width: render.size, height: render.size });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent"><img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="${render.size}" height="${render.size}" style="display:block"></body></html>`,
    );
    // Wait until the image is decoded before the screenshot (a barrier, not a sleep).
    await page.locator('img').evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: render.size, height: render.size },
    });
    for (const out of render.out) {
      fs.mkdirSync(path.dirname(path.join(root, out)), { recursive: true });
      fs.writeFileSync(path.join(root, out), png);
      console.log(`${out}: ${render.size}x${render.size}`);
    }
  }
} finally {
  await browser.close();
}
