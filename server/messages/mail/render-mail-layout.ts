import type { Language } from '../../../shared/api/enums';

export type MailLayout = {
  title: string;
  /** Plain text; a line break inside a paragraph is kept. */
  paragraphs: readonly string[];
  button?: { label: string; url: string };
  footer: string;
  language: Language;
};

const FALLBACK_LINK_TEXT: Record<Language, string> = {
  en: 'If the button does not work, copy this address into your browser:',
  sv: 'Om knappen inte fungerar kan du kopiera den här adressen till din webbläsare:',
};

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const ACCENT = '#1f4fd1';

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

function buttonHtml(label: string, url: string, language: Language): string {
  const href = escapeHtml(url);
  // A table cell with a background colour is the button that survives Outlook's renderer.
  return `
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:28px 0 8px 0;">
  <tr>
    <td align="center" bgcolor="${ACCENT}" style="border-radius:6px;background:${ACCENT};">
      <a href="${href}" target="_blank" style="display:inline-block;padding:13px 28px;font-family:${FONT};font-size:16px;line-height:20px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a>
    </td>
  </tr>
</table>
<p style="margin:16px 0 0 0;font-family:${FONT};font-size:13px;line-height:20px;color:#6b7385;">${escapeHtml(FALLBACK_LINK_TEXT[language])}<br><a href="${href}" target="_blank" style="color:${ACCENT};word-break:break-all;">${escapeHtml(url)}</a></p>`;
}

/**
 * The one layout of SignDesk's e-mails: a white card on a grey page, a heading, paragraphs, an
 * optional call-to-action button and a footer, in tables with inline CSS (what mail clients
 * render alike). Every text is escaped. Returns the HTML and the matching plain-text part.
 */
export function renderMailLayout(layout: MailLayout): { html: string; text: string } {
  const url = layout.button ? checkedUrl(layout.button.url) : undefined;
  const preheader = escapeHtml((layout.paragraphs[0] ?? '').replace(/\s+/g, ' ').trim().slice(0, 140));
  const paragraphs = layout.paragraphs
    .filter((paragraph) => paragraph.trim() !== '')
    .map(
      (paragraph) =>
        `<p style="margin:0 0 16px 0;font-family:${FONT};font-size:15px;line-height:24px;color:#30364a;">${paragraphHtml(paragraph)}</p>`,
    )
    .join('\n');
  const button = layout.button && url ? buttonHtml(layout.button.label, url, layout.language) : '';

  const html = `<!doctype html>
<html lang="${layout.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(layout.title)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f7;-webkit-text-size-adjust:100%;">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent;">${preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f7;">
  <tr>
    <td align="center" style="padding:32px 12px;">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border:1px solid #e2e5ec;border-radius:8px;">
        <tr>
          <td style="padding:36px 40px 32px 40px;">
            <h1 style="margin:0 0 20px 0;font-family:${FONT};font-size:22px;line-height:30px;font-weight:600;color:#161b2e;">${escapeHtml(layout.title)}</h1>
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
