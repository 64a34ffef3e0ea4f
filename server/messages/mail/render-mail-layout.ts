import type { Language } from '../../../shared/api/enums';
import { ACCENT_PATTERN, DEFAULT_ACCENT } from '../../../shared/brand';
import { translatorFor } from '../../../shared/i18n/catalogues';
import { LANGUAGE_INFO } from '../../../shared/i18n/languages';

/** Who the mail comes from, as the party sees it at its top: the office's name, its logo, its accent. */
export type MailBrand = {
  name: string;
  /** An absolute http(s) URL of the logo (a PNG SignDesk made); none: the name alone. */
  logo?: { url: string; width: number; height: number } | undefined;
  accent?: string | undefined;
};

export type MailLayout = {
  title: string;
  /** Plain text; a line break inside a paragraph is kept. */
  paragraphs: readonly string[];
  button?: { label: string; url: string };
  footer: string;
  /** The mail's language: its words around the texts given, and its direction (Arabic from the right). */
  language: Language;
  brand?: MailBrand | undefined;
};

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
/** The logo's height at the top of the mail (its width follows, at most the card's). */
const LOGO_HEIGHT = 40;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const paragraphHtml = (text: string) => escapeHtml(text.trim()).replace(/\r?\n/g, '<br>');

function checkedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`renderMailLayout: a button must link to http(s), not ${parsed.protocol}`);
  }
  return parsed.href;
}

function buttonHtml(label: string, url: string, language: Language, accent: string): string {
  const href = escapeHtml(url);
  const ACCENT = accent;
  // A table cell with a background colour is the button that survives Outlook's renderer.
  return `
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:28px 0 8px 0;">
  <tr>
    <td align="center" bgcolor="${ACCENT}" style="border-radius:6px;background:${ACCENT};">
      <a href="${href}" target="_blank" style="display:inline-block;padding:13px 28px;font-family:${FONT};font-size:16px;line-height:20px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a>
    </td>
  </tr>
</table>
<p style="margin:16px 0 0 0;font-family:${FONT};font-size:13px;line-height:20px;color:#6b7385;text-align:${LANGUAGE_INFO[language].isRightToLeft ? 'right' : 'left'};">${escapeHtml(translatorFor(language, 'mail')('fallbackLink'))}<br><a href="${href}" target="_blank" style="color:${ACCENT};word-break:break-all;">${escapeHtml(url)}</a></p>`;
}

/** The office's logo (or its name) over the card; the logo only from an http(s) URL. */
function brandHtml(brand: MailBrand | undefined, align: string): string {
  if (!brand || (brand.name.trim() === '' && !brand.logo)) return '';
  const name = escapeHtml(brand.name);
  const width = brand.logo ? Math.min(480, Math.round((brand.logo.width / brand.logo.height) * LOGO_HEIGHT)) : 0;
  const inner = brand.logo
    ? `<img src="${escapeHtml(checkedUrl(brand.logo.url))}" width="${width}" height="${LOGO_HEIGHT}" alt="${name}" style="display:inline-block;border:0;height:${LOGO_HEIGHT}px;width:${width}px;max-width:100%;">`
    : `<span style="font-family:${FONT};font-size:15px;line-height:22px;font-weight:700;color:#30364a;">${name}</span>`;
  return `
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
        <tr>
          <td align="${align}" style="padding:0 4px 16px 4px;text-align:${align};">${inner}</td>
        </tr>
      </table>`;
}

/**
 * The one layout of SignDesk's e-mails: the office's logo or name, a white card on a grey page,
 * a heading, paragraphs, an optional call-to-action button in the office's accent and a footer,
 * in tables with inline CSS (what mail clients render alike), laid out from the right for a
 * language written right to left. Every text is escaped. Returns the HTML and the matching
 * plain-text part.
 */
export function renderMailLayout(layout: MailLayout): { html: string; text: string } {
  const url = layout.button ? checkedUrl(layout.button.url) : undefined;
  const isRtl = LANGUAGE_INFO[layout.language].isRightToLeft;
  const dir = isRtl ? 'rtl' : 'ltr';
  const align = isRtl ? 'right' : 'left';
  const given = layout.brand?.accent;
  const accent = given && ACCENT_PATTERN.test(given) ? given : DEFAULT_ACCENT;
  const preheader = escapeHtml((layout.paragraphs[0] ?? '').replace(/\s+/g, ' ').trim().slice(0, 140));
  const paragraphs = layout.paragraphs
    .filter((paragraph) => paragraph.trim() !== '')
    .map(
      (paragraph) =>
        `<p style="margin:0 0 16px 0;font-family:${FONT};font-size:15px;line-height:24px;color:#30364a;text-align:${align};">${paragraphHtml(paragraph)}</p>`,
    )
    .join('\n');
  const button = layout.button && url ? buttonHtml(layout.button.label, url, layout.language, accent) : '';

  const html = `<!doctype html>
<html lang="${layout.language}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(layout.title)}</title>
</head>
<body dir="${dir}" style="margin:0;padding:0;background:#f3f4f7;-webkit-text-size-adjust:100%;">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent;">${preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f7;">
  <tr>
    <td align="center" style="padding:32px 12px;">${brandHtml(layout.brand, align)}
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border:1px solid #e2e5ec;border-radius:8px;">
        <tr>
          <td dir="${dir}" style="padding:36px 40px 32px 40px;text-align:${align};">
            <h1 style="margin:0 0 20px 0;font-family:${FONT};font-size:22px;line-height:30px;font-weight:600;color:#161b2e;text-align:${align};">${escapeHtml(layout.title)}</h1>
${paragraphs}
${button}
          </td>
        </tr>
      </table>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
        <tr>
          <td style="padding:20px 40px 0 40px;font-family:${FONT};font-size:12px;line-height:18px;color:#7c8497;text-align:center;">${paragraphHtml(layout.footer)}</td>
        </tr>
      </table>
    </td>
  </tr>
</table>
</body>
</html>
`;

  const textParts = [
    layout.title,
    ...layout.paragraphs.map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== ''),
  ];
  if (layout.button && url) textParts.push(`${layout.button.label}:\n${url}`);
  if (layout.footer.trim() !== '') textParts.push(`-- \n${layout.footer.trim()}`);
  return { html, text: `${textParts.join('\n\n')}\n` };
}
