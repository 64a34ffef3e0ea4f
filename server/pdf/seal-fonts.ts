import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { StandardFonts, type PDFDocument, type PDFFont } from 'pdf-lib';
import type { ScriptFace } from '../../shared/signing-page';
import { prepareTrueTypeFont } from './prepare-truetype-font';
import type { ArabicFaces } from './text-writer';

/**
 * The faces of the stamped marks and the audit trail. `script` is Dancing Script, the default
 * face of typed marks; `face()` embeds the face a party typed its mark in (each only when used).
 */
export type SealFonts = {
  regular: PDFFont;
  bold: PDFFont;
  script: PDFFont;
  mono: PDFFont;
  face(name: ScriptFace): Promise<PDFFont>;
  /** The Arabic faces, embedded on first use; undefined where this installation has none (ARABIC_FONT_FILES). */
  arabic(): Promise<ArabicFaces | undefined>;
};

type FontFiles = {
  regular: Uint8Array;
  bold: Uint8Array;
  script: Uint8Array;
  'great-vibes': Uint8Array;
  caveat: Uint8Array;
};

/**
 * The TrueType files, from their npm packages. The desktop package ships exactly these (and the
 * packages' licences) from node_modules: electron-builder.yml lists them.
 */
export const SEAL_FONT_FILES: Record<keyof FontFiles, string> = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  script: '@expo-google-fonts/dancing-script/600SemiBold/DancingScript_600SemiBold.ttf',
  'great-vibes': '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf',
  caveat: '@expo-google-fonts/caveat/500Medium/Caveat_500Medium.ttf',
};

/**
 * The faces of Arabic text, regular and bold, each the first file found: Noto Sans Arabic from
 * its npm package (the face that goes with Noto Sans; to be added as a dependency, which this
 * branch could not do), else DejaVu Sans of the operating system (Debian's fonts-dejavu-core,
 * which has Arabic with its joining forms). Their GSUB tables are kept: fontkit shapes with them.
 */
export const ARABIC_FONT_FILES = {
  regular: [
    '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  ],
  bold: [
    '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  ],
} as const;

/** The file of each script face a party may choose (the signing page shows the same families). */
const FACE_FILES: Record<ScriptFace, keyof FontFiles> = {
  'dancing-script': 'script',
  'great-vibes': 'great-vibes',
  caveat: 'caveat',
};

const require = createRequire(import.meta.url);
let fontFiles: FontFiles | undefined;

/**
 * Noto Sans (Latin, Greek, Cyrillic: å ä ö é ł …) for text and Dancing Script for signature
 * marks, both under the SIL Open Font License 1.1, read from their npm packages (SEAL_FONT_FILES)
 * on first use and embedded as subsets (only the glyphs used). Courier, a standard font, prints hashes:
 * they are plain hex, which WinAnsi covers.
 */
export async function embedSealFonts(doc: PDFDocument): Promise<SealFonts> {
  fontFiles ??= {
    regular: readFont(SEAL_FONT_FILES.regular),
    bold: readFont(SEAL_FONT_FILES.bold),
    script: readFont(SEAL_FONT_FILES.script),
    'great-vibes': readFont(SEAL_FONT_FILES['great-vibes']),
    caveat: readFont(SEAL_FONT_FILES.caveat),
  };
  const files = fontFiles;
  doc.registerFontkit(cachingFontkit);
  const [regular, bold, script, mono] = await Promise.all([
    doc.embedFont(fontFiles.regular, { subset: true }),
    doc.embedFont(fontFiles.bold, { subset: true }),
    doc.embedFont(fontFiles.script, { subset: true }),
    doc.embedFont(StandardFonts.Courier),
  ]);
  rememberCharacterSet('regular', regular);
  rememberCharacterSet('bold', bold);
  rememberCharacterSet('script', script);
  const faces = new Map<ScriptFace, Promise<PDFFont>>([['dancing-script', Promise.resolve(script)]]);
  const face = (name: ScriptFace): Promise<PDFFont> => {
    let embedded = faces.get(name);
    if (!embedded) {
      const file = FACE_FILES[name] ?? 'script';
      embedded = doc.embedFont(files[file], { subset: true }).then((font) => (rememberCharacterSet(file, font), font));
      faces.set(name, embedded);
    }
    return embedded;
  };
  let arabic: Promise<ArabicFaces | undefined> | undefined;
  const embedArabic = async (): Promise<ArabicFaces | undefined> => {
    arabicFiles ??= { regular: readFirstFont(ARABIC_FONT_FILES.regular), bold: readFirstFont(ARABIC_FONT_FILES.bold) };
    const { regular: regularFile, bold: boldFile } = arabicFiles;
    if (!regularFile || !boldFile) return undefined;
    const [arabicRegular, arabicBold] = await Promise.all([
      doc.embedFont(regularFile, { subset: true }),
      doc.embedFont(boldFile, { subset: true }),
    ]);
    return { regular: arabicRegular, bold: arabicBold };
  };
  return { regular, bold, script, mono, face, arabic: () => (arabic ??= embedArabic()) };
}

let arabicFiles: { regular: Uint8Array | undefined; bold: Uint8Array | undefined } | undefined;

/** The first of the files that exists, prepared with its layout tables; undefined when none does. */
function readFirstFont(candidates: readonly string[]): Uint8Array | undefined {
  for (const candidate of candidates) {
    let file: string;
    try {
      file = candidate.startsWith('/') ? candidate : require.resolve(candidate);
    } catch {
      continue;
    }
    if (!fs.existsSync(file)) continue;
    const prepared = prepareTrueTypeFont(fs.readFileSync(file), { keepLayout: true });
    shapedFiles.add(prepared);
    return prepared;
  }
  return undefined;
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type FontkitFont = ReturnType<Fontkit['create']>;
const parsedFonts = new WeakMap<Uint8Array, FontkitFont>();

/**
 * fontkit copies and parses a font file on every embedFont; our three faces are the same bytes
 * every time, so each is parsed once per process and its (read-only) font object shared. Each
 * document still gets its own subset.
 */
const cachingFontkit: Fontkit = {
  create(bytes, postscriptName) {
    let font = parsedFonts.get(bytes);
    if (!font) {
      font = withSynchronousSubsets(fontkit.create(bytes, postscriptName));
      if (shapedFiles.has(bytes)) font = withVisualLigatureText(font);
      parsedFonts.set(bytes, font);
    }
    return font;
  },
};

/** The prepared files of the faces that keep their layout tables (Arabic), told apart when fontkit parses them. */
const shapedFiles = new WeakSet<Uint8Array>();

type LaidOutGlyph = { codePoints: number[] };
const reversedGlyphs = new WeakSet<object>();

/**
 * pdf-lib writes each glyph's text (ToUnicode) from the characters fontkit says it stands for,
 * in reading order. A ligature of a right-to-left run (lam-alef) is drawn in visual order like
 * every glyph of the run, and text extractors (poppler, pdf.js) reverse the run back, text
 * included: its two letters then come out swapped (الاختبار read as االختبار). Its text is
 * written in visual order, so that the reversal restores it. fontkit keeps one object per
 * glyph, so each is turned once.
 */
function withVisualLigatureText(font: FontkitFont): FontkitFont {
  const layout = font.layout.bind(font);
  font.layout = ((...args: Parameters<FontkitFont['layout']>) => {
    const run = layout(...args);
    if ((run as { direction?: string }).direction === 'rtl') {
      for (const glyph of run.glyphs as unknown as LaidOutGlyph[]) {
        if (glyph.codePoints.length > 1 && !reversedGlyphs.has(glyph)) {
          glyph.codePoints = [...glyph.codePoints].reverse();
          reversedGlyphs.add(glyph);
        }
      }
    }
    return run;
  }) as FontkitFont['layout'];
  return font;
}

type FontkitSubset = ReturnType<FontkitFont['createSubset']>;
type EncodeStream = { end(): void; read(): Uint8Array | null };
type SubsetInternals = { encode(stream: EncodeStream): void; encodeStream(): unknown };

/**
 * @pdf-lib/fontkit's bundle hands a subset over through a stream whose every step waits for a
 * setTimeout (its stand-in for process.nextTick): several idle milliseconds per font. The
 * encoding itself is synchronous, so we run it at once into the same kind of stream, read what
 * it buffered and hand that to pdf-lib through a plain emitter.
 */
function withSynchronousSubsets(font: FontkitFont): FontkitFont {
  const createSubset = font.createSubset.bind(font);
  let Stream: (new () => EncodeStream) | undefined;
  font.createSubset = (): FontkitSubset => {
    const subset = createSubset();
    const internals = subset as unknown as SubsetInternals;
    // The bundle does not export its stream class: take it from a throwaway subset's stream.
    Stream ??= (createSubset() as unknown as SubsetInternals).encodeStream()!.constructor as new () => EncodeStream;
    internals.encodeStream = () => {
      const stream = new Stream!();
      internals.encode(stream);
      stream.end();
      const chunks: Uint8Array[] = [];
      for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) chunks.push(chunk);
      const emitter = new EventEmitter();
      queueMicrotask(() => {
        for (const chunk of chunks) emitter.emit('data', chunk);
        emitter.emit('end');
      });
      return emitter;
    };
    return subset;
  };
  return font;
}

function readFont(specifier: string): Uint8Array {
  return prepareTrueTypeFont(fs.readFileSync(require.resolve(specifier)));
}

/** Each face's characters, computed once per process (pdf-lib would list them afresh for every document). */
const faceCharacterSets = new Map<keyof FontFiles, Set<number>>();
const characterSets = new WeakMap<PDFFont, Set<number>>();

const faceAdvances = new Map<keyof FontFiles, Map<number, number>>();
const advances = new WeakMap<PDFFont, Map<number, number>>();

function rememberCharacterSet(face: keyof FontFiles, font: PDFFont): void {
  let set = faceCharacterSets.get(face);
  if (!set) {
    set = new Set(font.getCharacterSet());
    faceCharacterSets.set(face, set);
  }
  characterSets.set(font, set);
  let widths = faceAdvances.get(face);
  if (!widths) {
    widths = new Map();
    faceAdvances.set(face, widths);
  }
  advances.set(font, widths);
}

/**
 * The width of the text at this size. The faces carry no kerning (see prepareTrueTypeFont), so
 * it is the sum of each character's advance, which we keep per face: pdf-lib would lay the
 * whole string out with fontkit on every call, and fitting and wrapping call it often.
 */
export function widthOf(font: PDFFont, text: string, size: number): number {
  const widths = advances.get(font);
  if (!widths) return font.widthOfTextAtSize(text, size);
  let total = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let width = widths.get(code);
    if (width === undefined) {
      width = font.widthOfTextAtSize(char, 1);
      widths.set(code, width);
    }
    total += width;
  }
  return total * size;
}

export function characterSetOf(font: PDFFont): Set<number> {
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
