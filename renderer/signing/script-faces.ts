import type { ScriptFace } from '../../shared/signing-page';
import caveatLatin from '@fontsource/caveat/files/caveat-latin-500-normal.woff2?url';
import caveatExt from '@fontsource/caveat/files/caveat-latin-ext-500-normal.woff2?url';
import dancingLatin from '@fontsource/dancing-script/files/dancing-script-latin-600-normal.woff2?url';
import dancingExt from '@fontsource/dancing-script/files/dancing-script-latin-ext-600-normal.woff2?url';
import vibesLatin from '@fontsource/great-vibes/files/great-vibes-latin-400-normal.woff2?url';
import vibesExt from '@fontsource/great-vibes/files/great-vibes-latin-ext-400-normal.woff2?url';
import unicode from '@fontsource/caveat/unicode.json';

/**
 * The faces a typed signature may take: the same families (SIL OFL) the sealed PDF embeds, so
 * the preview is the result. Loaded only when the party opens "Type" (they are 15-65 KB each),
 * as Latin and Latin Extended halves that the browser fetches by the characters used.
 */
export const SCRIPT_FACE_FAMILIES: Record<ScriptFace, string> = {
  'dancing-script': 'SignDesk Dancing Script',
  'great-vibes': 'SignDesk Great Vibes',
  caveat: 'SignDesk Caveat',
};

const FILES: Record<ScriptFace, { latin: string; ext: string; weight: string }> = {
  'dancing-script': { latin: dancingLatin, ext: dancingExt, weight: '600' },
  'great-vibes': { latin: vibesLatin, ext: vibesExt, weight: '400' },
  caveat: { latin: caveatLatin, ext: caveatExt, weight: '500' },
};

let loading: Promise<void> | undefined;

/** Adds the faces to the document (once) and waits until the Latin halves are ready. */
export function loadScriptFaces(): Promise<void> {
  loading ??= (async () => {
    const faces = Object.entries(FILES).flatMap(([face, files]) => {
      const family = SCRIPT_FACE_FAMILIES[face as ScriptFace];
      return [
        new FontFace(family, `url(${files.latin}) format('woff2')`, {
          weight: files.weight,
          unicodeRange: unicode.latin,
          display: 'swap',
        }),
        new FontFace(family, `url(${files.ext}) format('woff2')`, {
          weight: files.weight,
          unicodeRange: unicode['latin-ext'],
          display: 'swap',
        }),
      ];
    });
    for (const face of faces) document.fonts.add(face);
    await Promise.all(
      Object.values(SCRIPT_FACE_FAMILIES).map((family) => document.fonts.load(`32px "${family}"`, 'Aa')),
    );
  })().catch(() => undefined);
  return loading;
}
