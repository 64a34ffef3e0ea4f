import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from '../../server/pdf/parse-markdown';

const styled = (text: string) =>
  parseInline(text)
    .map((run) => `${run.isBold ? 'B' : ''}${run.isItalic ? 'I' : ''}[${run.text}]`)
    .join('');

describe('light Markdown of templates', () => {
  it('reads bold and italics, and leaves lone or spaced markers and snake_case alone', () => {
    expect(styled('a **fet** och *kursiv* text')).toBe('[a ]B[fet][ och ]I[kursiv][ text]');
    expect(styled('__fet__ _kursiv_ **fet *båda* fet**')).toBe('B[fet][ ]I[kursiv][ ]B[fet ]BI[båda]B[ fet]');
    expect(styled('snake_case_name, 2 * 3 * 4 and **unclosed')).toBe('[snake_case_name, 2 * 3 * 4 and **unclosed]');
    expect(styled('\\*not italic\\* \\# \\\\')).toBe('[*not italic* # \\]');
  });

  it('reads headings, paragraphs with soft and hard breaks, lists and rules', () => {
    const blocks = parseMarkdown(
      '# Avtal\r\n\r\nRad ett  \nrad två\nfortsätter.\n\n- ett\n  - inre\n1. första\n2) andra\nfortsätter\n\n***\n#### Djup ####',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, runs: [{ text: 'Avtal', isBold: false, isItalic: false }] },
      { kind: 'paragraph', runs: [{ text: 'Rad ett\nrad två fortsätter.', isBold: false, isItalic: false }] },
      { kind: 'item', marker: '•', depth: 0, runs: [{ text: 'ett', isBold: false, isItalic: false }] },
      { kind: 'item', marker: '•', depth: 1, runs: [{ text: 'inre', isBold: false, isItalic: false }] },
      { kind: 'item', marker: '1.', depth: 0, runs: [{ text: 'första', isBold: false, isItalic: false }] },
      { kind: 'item', marker: '2.', depth: 0, runs: [{ text: 'andra fortsätter', isBold: false, isItalic: false }] },
      { kind: 'rule' },
      { kind: 'heading', level: 3, runs: [{ text: 'Djup', isBold: false, isItalic: false }] },
    ]);
  });

  it('composes decomposed letters, so that å typed as a + ring is one letter', () => {
    expect(parseMarkdown('a\u030a')).toEqual([
      { kind: 'paragraph', runs: [{ text: 'å', isBold: false, isItalic: false }] },
    ]);
  });
});
