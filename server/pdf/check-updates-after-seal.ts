import { PDFDocument, PDFRef } from 'pdf-lib';
import { IN_ONE_GO } from './in-one-go';
import { judgeRevision, type RevisionFindings } from './judge-revision';
import { readPdfTail } from './read-pdf-tail';
import { readXrefSection, type XrefSection } from './read-xref-section';

/** What one incremental update after the seal did. */
export type UpdateAfterSeal = RevisionFindings & {
  /** Where the update sits in the file: [start, end). */
  start: number;
  end: number;
};

/** The structural rule's verdict on everything appended after a seal. */
export type UpdatesAfterSeal = {
  /** True when every update adds only what PAdES allows after a certification signature that permits no change. */
  isAllowed: boolean;
  updates: UpdateAfterSeal[];
  /** What breaks the rule, in words (empty when allowed). */
  problems: string[];
};

/** More updates than decades of yearly archive renewals make: the rest of a hostile file is not parsed. */
const MAX_UPDATES = 40;

/**
 * The structural rule (docs/decisions.md, "What may follow the seal"): the file is split into
 * the incremental updates after the seal's signed bytes (`sealedLength`: the end of its
 * /ByteRange), each update's cross-reference section is read as a reader reads it, every object
 * it writes is compared with the object as it was before, and each change is judged: a new
 * document timestamp (its signature field, its invisible widget appended to a page's /Annots and
 * to the AcroForm's /Fields), validation data (the DSS) and the document information
 * dictionary are allowed; anything else (a page's content or resources, an existing
 * annotation, a new visible field, a new page, a deleted object) is not. pyHanko's
 * modification analysis judges the same way; the tests hold the two side by side.
 */
export async function checkUpdatesAfterSeal(bytes: Uint8Array, sealedLength: number): Promise<UpdatesAfterSeal> {
  const result: UpdatesAfterSeal = { isAllowed: true, updates: [], problems: [] };
  const fail = (problem: string) => {
    result.problems.push(problem);
    result.isAllowed = false;
    return result;
  };
  if (sealedLength >= bytes.length) return result;
  const sealTail = readPdfTail(bytes.subarray(0, sealedLength));
  if (!sealTail) return fail('the sealed part of the file has no cross-reference section');

  const ends = revisionEnds(bytes, sealedLength);
  if (ends.length === 0) return fail('bytes were added after the seal that are not an incremental update');
  const last = ends.at(-1)!;
  if (!isBlank(bytes.subarray(last))) return fail('bytes were added after the last incremental update');
  if (ends.length > MAX_UPDATES) return fail(`more than ${MAX_UPDATES} updates after the seal`);

  let previous = await loadRevision(bytes, sealedLength);
  let previousXref = sealTail.startxref;
  let previousRoot = previous.context.trailerInfo.Root;
  let start = sealedLength;
  for (const end of ends) {
    const revision = bytes.subarray(0, end);
    const tail = readPdfTail(revision);
    let section: XrefSection | undefined;
    const structural: string[] = [];
    if (!tail || tail.startxref < start) structural.push('its cross-reference section is not in the update');
    else {
      try {
        section = readXrefSection(revision, tail.startxref);
      } catch (error) {
        structural.push(`its cross-reference section cannot be read (${(error as Error).message})`);
      }
    }
    if (section) {
      if (section.prev !== previousXref) structural.push('it does not chain to the file before it (/Prev)');
      if (section.hasEncrypt) structural.push('it encrypts the document');
      if (
        previousRoot instanceof PDFRef &&
        section.root !== `${previousRoot.objectNumber} ${previousRoot.generationNumber}`
      )
        structural.push('it replaces the document catalog');
      structural.push(...strayObjects(revision, start, section));
    }
    let findings: RevisionFindings = {
      addedTimestamps: 0,
      changesValidationData: false,
      changesInformation: false,
      changes: [],
      problems: [],
    };
    let current: PDFDocument | undefined;
    if (section) {
      current = await loadRevision(bytes, end);
      findings = judgeRevision(previous, current, section);
    }
    findings.problems.unshift(...structural);
    result.updates.push({ start, end, ...findings });
    for (const problem of findings.problems) result.problems.push(`update ${result.updates.length}: ${problem}`);
    if (!current || !tail) break;
    previous = current;
    previousXref = tail.startxref;
    previousRoot = current.context.trailerInfo.Root;
    start = end;
  }
  result.isAllowed = result.problems.length === 0;
  return result;
}

/** The end of each update after `from`: just past its `%%EOF` and the end-of-line after it. */
function revisionEnds(bytes: Uint8Array, from: number): number[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ends: number[] = [];
  let at = buffer.indexOf('%%EOF', from, 'latin1');
  while (at >= 0) {
    let end = at + 5;
    if (buffer[end] === 0x0d) end += 1;
    if (buffer[end] === 0x0a) end += 1;
    ends.push(end);
    at = buffer.indexOf('%%EOF', end, 'latin1');
  }
  return ends;
}

const isBlank = (bytes: Uint8Array) =>
  bytes.every((byte) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x00 || byte === 0x09);

/**
 * Object headers in the update that its cross-reference section does not point at: a reader
 * never sees them, but a lenient parser (which takes the last one in the file) might, so an
 * update that holds one is refused rather than judged on either reading.
 */
function strayObjects(bytes: Uint8Array, start: number, section: XrefSection): string[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.length - start).toString('latin1');
  const pointed = new Map<number, number>();
  for (const [number, entry] of section.entries) if (entry.kind === 'in-use') pointed.set(entry.offset, number);
  const problems: string[] = [];
  for (const match of text.matchAll(/(^|[\r\n])(\d+)\s+(\d+)\s+obj\b/g)) {
    const offset = start + match.index + match[1]!.length;
    if (pointed.get(offset) !== Number(match[2]))
      problems.push(`object ${match[2]} is written where no cross-reference entry points`);
    pointed.delete(offset);
  }
  for (const [offset, number] of pointed)
    problems.push(
      offset < start
        ? `the cross-reference entry of object ${number} points back into the file before the update`
        : `the cross-reference entry of object ${number} points at no object`,
    );
  return problems;
}

async function loadRevision(bytes: Uint8Array, end: number): Promise<PDFDocument> {
  return PDFDocument.load(bytes.subarray(0, end), { ...IN_ONE_GO, throwOnInvalidObject: false });
}
