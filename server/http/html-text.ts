import type { Language } from '../../shared/api/enums';
import { directionOf } from '../../shared/i18n/languages';

/** Text for the party pages' HTML, which the server writes into the built pages. */
export const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
export const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** JSON inside <script type="application/json">: nothing in it may close the element or open a comment. */
export const escapeScriptJson = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The `<html>` start tag in the language and its direction, and the office's accent sheet after the page's own. */
export function localizeHtml(template: string, language: Language, accentStyle: string | null | undefined): string {
  const accent = accentStyle ? `<link rel="stylesheet" href="${escapeAttribute(accentStyle)}">` : '';
  return template
    .replace(/<html lang="[^"]*">/, () => `<html lang="${language}" dir="${directionOf(language)}">`)
    .replace('</head>', () => `${accent}</head>`);
}
