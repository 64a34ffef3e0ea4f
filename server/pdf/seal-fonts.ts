import fs from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';
import { alignTrueTypeGlyphs } from './align-truetype-glyphs';

/** The faces of the stamped marks and the audit trail. */
export type SealFonts = { regular: PDFFont; bold: PDFFont; script: PDFFont; mono: PDFFont };

type FontFiles = { regular: Uint8Array; bold: Uint8Array; script: Uint8Array };

const require = createRequire(import.meta.url);
let fontFiles: FontFiles | undefined;

/**
 * Noto Sans (Latin, Greek, Cyrillic: å ä ö é ł …) for text and Dancing Script for signature
 * marks, both under the SIL Open Font License 1.1, read from their npm packages on first use
 * and embedded as subsets (only the glyphs used). Courier, a standard font, prints hashes:
 * they are plain hex, which WinAnsi covers.
 */
export async function embedSealFonts(doc: PDFDocument): Promise<SealFonts> {
  fontFiles ??= {
    regular: readFont('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    bold: readFont('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
    script: readFont('@expo-google-fonts/dancing-script/600SemiBold/DancingScript_600SemiBold.ttf'),
  };
  doc.registerFontkit(fontkit);
  const [regular, bold, script, mono] = await Promise.all([
    doc.embedFont(fontFiles.regular, { subset: true }),
    doc.embedFont(fontFiles.bold, { subset: true }),
    doc.embedFont(fontFiles.script, { subset: true }),
    doc.embedFont(StandardFonts.Courier),
  ]);
  return { regular, bold, script, mono };
}

function readFont(specifier: string): Uint8Array {
  return alignTrueTypeGlyphs(fs.readFileSync(require.resolve(specifier)));
}

const characterSets = new WeakMap<PDFFont, Set<number>>();

function characterSetOf(font: PDFFont): Set<number> {
  let set = characterSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(font, set);
  }
  return set;
}

/** Whether the font has a glyph for every character of the text. */
export function canRender(font: PDFFont, text: string): boolean {
  const set = characterSetOf(font);
  for (const char of text) if (!set.has(char.codePointAt(0)!)) return false;
  return true;
}

/**
 * The text with characters the font lacks (CJK, emoji, controls) replaced by '?', so that a
 * name in an unexpected script degrades visibly instead of failing the whole signed PDF.
 */
export function renderable(font: PDFFont, text: string): string {
  const set = characterSetOf(font);
  let out = '';
  for (const char of text.normalize('NFC')) out += set.has(char.codePointAt(0)!) ? char : char === '\n' ? '\n' : '?';
  return out;
}
