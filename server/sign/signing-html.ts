import type { Language } from '../../shared/api/enums';
import type { TSigningState } from '../../shared/api/signing';
import { PAGE_IMAGE_SIZES, pageImageSrcset } from '../../shared/api/signing';

/** What the page starts from without asking: its state, and where to go once the party has answered. */
export type SigningBootstrap = { state: TSigningState | null; returnUrl: string | null };

export const BOOTSTRAP_ELEMENT_ID = 'signing-bootstrap';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** JSON inside <script type="application/json">: nothing in it may close the element or open a comment. */
const escapeScriptJson = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The built page with its state inlined (one round trip less on a slow link) and the first page
 * image preloaded at the width this screen will pick: the image arrives while the script loads.
 * The JSON is data, not script, so the page's CSP (script-src 'self') is unchanged. `language`
 * is the first screen's (the browser's Accept-Language, else the contract's: see pageLanguage).
 */
export function renderSigningHtml(template: string, bootstrap: SigningBootstrap, language: Language = 'en'): string {
  const images = bootstrap.state?.contract.pageImages;
  const preload = images
    ? `<link rel="preload" as="image" fetchpriority="high" imagesrcset="${escapeAttribute(pageImageSrcset(images.base, 1, images.widths))}" imagesizes="${escapeAttribute(PAGE_IMAGE_SIZES)}">`
    : '';
  const data = `<script id="${BOOTSTRAP_ELEMENT_ID}" type="application/json">${escapeScriptJson(JSON.stringify(bootstrap))}</script>`;
  const screen = bootstrap.state ? firstScreen(bootstrap.state, language) : undefined;
  return template
    .replace(/<html lang="[^"]*">/, () => `<html lang="${language}">`)
    .replace('</head>', () => `${preload}${data}</head>`)
    .replace(/<div id="root">.*?<\/div>\n/s, (whole) => (screen ? `<div id="root">${screen}</div>\n` : whole));
}

/**
 * The first screen as plain HTML, shown before any script runs: the document's name and its
 * first page, which a slow phone can read while the page's script is still on its way. The
 * script then draws the same layout over it (the image is the same, already loaded).
 */
function firstScreen(state: TSigningState, language: Language): string | undefined {
  const images = state.contract.pageImages;
  const first = state.contract.pages[0];
  if (!images || !first) return undefined;
  const label =
    language === 'sv' ? `Sida 1 av ${state.contract.pages.length}` : `Page 1 of ${state.contract.pages.length}`;
  const image = `<img class="page-image" srcset="${escapeAttribute(pageImageSrcset(images.base, 1, images.widths))}" sizes="${escapeAttribute(PAGE_IMAGE_SIZES)}" width="${Math.round(first.width)}" height="${Math.round(first.height)}" alt="${escapeAttribute(label)}" fetchpriority="high" elementtiming="first-page">`;
  return `<header class="top-bar"><span class="brand">${escapeText(state.officeName || 'SignDesk')}</span><div class="language"></div></header><main class="layout"><header class="document-header"><p class="eyebrow">&nbsp;</p><h1>${escapeText(state.contract.name)}</h1></header><div class="document"><div class="zoom-bar"></div><div class="pages-scroll"><div class="pages"><section class="page"><div class="page-frame static-frame">${image}</div></section></div></div></div></main>`;
}

/** The invalid-link page, in the signing page's own style sheet (no inline style under the CSP). */
export function renderNotFoundHtml(template: string | undefined): string {
  const stylesheets = template?.match(/<link rel="stylesheet"[^>]*>/g)?.join('') ?? '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>SignDesk</title>${stylesheets}</head><body><main class="card narrow notice"><h1>This signing link is not valid</h1><p>Check the link in your invitation, or ask the sender for a new one.</p><h2 lang="sv">Länken är inte giltig</h2><p lang="sv">Kontrollera länken i din inbjudan, eller be avsändaren om en ny.</p></main></body></html>`;
}
