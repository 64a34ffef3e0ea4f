import { PDFName } from 'pdf-lib';

/** Spellings remembered, at most: a hostile PDF may spell a million names once each. */
const MAX_SPELLINGS = 4096;

/**
 * Lets pdf-lib find a name it has met before by its spelling in the file, in the PDF sandbox's
 * worker threads. `PDFName.of` decodes every spelling (a regular expression for `#xx` escapes)
 * before it looks the decoded name up in its pool, and a PDF spells the same few dozen names
 * (/Type, /Page, /Length …) hundreds of times: that decoding was about a quarter of reading
 * an uploaded PDF. Names are pooled, one object per decoded name, and a spelling always decodes
 * to the same name, so the object found by spelling is the one pdf-lib would have returned.
 */
export function findNamesBySpelling(): void {
  const decodeAndFind = PDFName.of;
  const bySpelling = new Map<string, PDFName>();
  PDFName.of = (spelling: string) => {
    let name = bySpelling.get(spelling);
    if (name === undefined) {
      name = decodeAndFind(spelling);
      if (bySpelling.size < MAX_SPELLINGS) bySpelling.set(spelling, name);
    }
    return name;
  };
}
