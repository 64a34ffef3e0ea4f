import { describe, expect, it } from 'vitest';
import { renderMailLayout } from '../../server/messages/mail/render-mail-layout';

describe('the e-mail layout', () => {
  const layout = renderMailLayout({
    title: 'Sign <b>now</b> & "quickly"',
    paragraphs: ['Hello <script>alert(1)</script>,', 'Line one\nline two', '   '],
    button: { label: 'Open & sign', url: 'https://sign.example.test/sign/t0k3n?a=1&b="2"' },
    footer: "Sent by O'Brien & Co",
    language: 'sv',
  });

  it('escapes every text it is given', () => {
    expect(layout.html).not.toContain('<script>');
    expect(layout.html).not.toContain('<b>now</b>');
    expect(layout.html).toContain('Sign &lt;b&gt;now&lt;/b&gt; &amp; &quot;quickly&quot;');
    expect(layout.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(layout.html).toContain('Sent by O&#39;Brien &amp; Co');
    expect(layout.html).toContain('href="https://sign.example.test/sign/t0k3n?a=1&amp;b=%222%22"');
  });

  it('is an HTML document in the language given, with inline styles only', () => {
    expect(layout.html).toMatch(/^<!doctype html>\n<html lang="sv" dir="ltr">/);
    expect(layout.html).toContain('<meta charset="utf-8">');
    expect(layout.html).not.toMatch(/<style|<link|class=/);
    expect(layout.html).toContain('Line one<br>line two');
    expect(layout.html).toContain('Om knappen inte fungerar');
  });

  it('has a plain-text twin with the link written out', () => {
    expect(layout.text).toBe(
      [
        'Sign <b>now</b> & "quickly"',
        'Hello <script>alert(1)</script>,',
        'Line one\nline two',
        'Open & sign:\nhttps://sign.example.test/sign/t0k3n?a=1&b=%222%22',
        "-- \nSent by O'Brien & Co",
      ].join('\n\n') + '\n',
    );
  });

  it('links a button only to http(s)', () => {
    expect(() =>
      renderMailLayout({
        title: 't',
        paragraphs: [],
        button: { label: 'x', url: 'javascript:alert(1)' },
        footer: '',
        language: 'en',
      }),
    ).toThrow(/http\(s\)/);
    const plain = renderMailLayout({ title: 'No button', paragraphs: ['Hi'], footer: '', language: 'en' });
    expect(plain.html).not.toContain('<a ');
    expect(plain.text).toBe('No button\n\nHi\n');
  });

  it('lays an Arabic mail out from the right: the document, its body and its text', () => {
    const arabic = renderMailLayout({ title: 'وقّع', paragraphs: ['مرحبا'], footer: '', language: 'ar' });
    expect(arabic.html).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(arabic.html).toContain('<body dir="rtl"');
    expect(arabic.html).toMatch(/text-align:right;">مرحبا<\/p>/);
    expect(arabic.html).not.toContain('text-align:left');
  });
});
