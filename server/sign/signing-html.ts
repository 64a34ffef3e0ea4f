import type { Language } from '../../shared/api/enums';
import type { TSigningState } from '../../shared/api/signing';
import { PAGE_IMAGE_SIZES, pageImageSrcset } from '../../shared/api/signing';
import { CATALOGUES, translatorFor } from '../../shared/i18n/catalogues';
import { directionOf } from '../../shared/i18n/languages';
import { escapeAttribute, escapeScriptJson, escapeText, localizeHtml } from '../http/html-text';

/**
 * What the page starts from without asking: its state, where to go once the party has answered,
 * and its texts in the language the server chose (the page fetches another language's when the
 * party switches: /sign/i18n/<language>/signing.json).
 */
export type SigningBootstrap = {
  state: TSigningState | null;
  returnUrl: string | null;
  texts: { language: Language; messages: Record<string, string> };
};

export const BOOTSTRAP_ELEMENT_ID = 'signing-bootstrap';

/**
 * The built page with its state and texts inlined (one round trip less on a slow link) and the
 * first page image preloaded at the width this screen will pick: the image arrives while the
 * script loads. The JSON is data, not script, so the page's CSP (script-src 'self') is
 * unchanged. `language` is the first screen's (the browser's Accept-Language, else the
 * contract's: see pageLanguage); the page is laid out from the right for Arabic (`dir`).
 */
export function renderSigningHtml(
  template: string,
  bootstrap: Omit<SigningBootstrap, 'texts'>,
  language: Language = 'en',
): string {
  const t = translatorFor(language, 'signing');
  const images = bootstrap.state?.contract.pageImages;
  const preload = images
    ? `<link rel="preload" as="image" fetchpriority="high" imagesrcset="${escapeAttribute(pageImageSrcset(images.base, 1, images.widths))}" imagesizes="${escapeAttribute(PAGE_IMAGE_SIZES)}">`
    : '';
  const full: SigningBootstrap = { ...bootstrap, texts: { language, messages: CATALOGUES[language].signing } };
  const data = `<script id="${BOOTSTRAP_ELEMENT_ID}" type="application/json">${escapeScriptJson(JSON.stringify(full))}</script>`;
  const screen = bootstrap.state ? firstScreen(bootstrap.state, language) : undefined;
  const loading = `<p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>${escapeText(t('loading'))}</p>`;
  const noscript = `<noscript><main class="card narrow notice"><h1>${escapeText(t('noscriptTitle'))}</h1><p>${escapeText(t('noscriptBody'))}</p></main></noscript>`;
  return localizeHtml(template, language, bootstrap.state?.brand.accentStyle)
    .replace('</head>', () => `${preload}${data}</head>`)
    .replace(/<div id="root">.*?<\/div>\n/s, () => `<div id="root">${screen ?? loading}</div>\n`)
    .replace(/<noscript>.*?<\/noscript>/s, () => noscript);
}

/** The office at the top of the page: its logo (named by its name, for a screen reader) or its name. */
export function brandHtml(officeName: string, logo: TSigningState['brand']['logo'], logoAlt: string): string {
  const name = officeName || 'SignDesk';
  if (!logo) return `<span class="brand">${escapeText(name)}</span>`;
  return `<span class="brand"><img class="brand-logo" src="${escapeAttribute(logo.url)}" width="${logo.width}" height="${logo.height}" alt="${escapeAttribute(logoAlt)}"></span>`;
}

/**
 * The first screen as plain HTML, shown before any script runs: the office, the document's name
 * and its first page, which a slow phone can read while the page's script is still on its way.
 * The script then draws the same layout over it (the image is the same, already loaded).
 */
function firstScreen(state: TSigningState, language: Language): string | undefined {
  const images = state.contract.pageImages;
  const first = state.contract.pages[0];
  if (!images || !first) return undefined;
  const t = translatorFor(language, 'signing');
  const label = t('pageOf', { page: 1, total: state.contract.pages.length });
  const brand = brandHtml(state.officeName, state.brand.logo, t('logoAlt', { office: state.officeName || 'SignDesk' }));
  const image = `<img class="page-image" srcset="${escapeAttribute(pageImageSrcset(images.base, 1, images.widths))}" sizes="${escapeAttribute(PAGE_IMAGE_SIZES)}" width="${Math.round(first.width)}" height="${Math.round(first.height)}" alt="${escapeAttribute(label)}" fetchpriority="high" elementtiming="first-page">`;
  return `<header class="top-bar">${brand}<div class="language"></div></header><main class="layout"><header class="document-header"><p class="eyebrow">&nbsp;</p><h1>${escapeText(state.contract.name)}</h1></header><div class="document"><div class="zoom-bar"></div><div class="pages-scroll"><div class="pages"><section class="page"><div class="page-frame static-frame">${image}</div></section></div></div></div></main>`;
}

/** The invalid-link page in the browser's language, in the signing page's own style sheet (no inline style under the CSP). */
export function renderNotFoundHtml(template: string | undefined, language: Language = 'en'): string {
  const t = translatorFor(language, 'signing');
  const stylesheets = template?.match(/<link rel="stylesheet"[^>]*>/g)?.join('') ?? '';
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><title>SignDesk</title>${stylesheets}</head><body><main class="card narrow notice"><h1>${escapeText(t('notFoundTitle'))}</h1><p>${escapeText(t('notFoundBody'))}</p></main></body></html>`;
}
