import { createHash } from 'node:crypto';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';
import { MAX_PDF_PAGES } from '../../shared/constants';
import { checkPageTree } from './check-page-tree';
import { IN_ONE_GO } from './in-one-go';

/** Objects looked at per page at most: the rest of a hostile file is not walked. */
const MAX_OBJECTS_PER_PAGE = 5_000;

/**
 * Whether two PDFs show the same pages: the same number, and each page the same boxes and
 * rotation, the same content (its streams decoded) and the same resources (fonts, images,
 * forms: every stream they reach, decoded where pdf-lib can), whatever their object numbers,
 * compression or file layout. It tells a copy that another program saved again (same pages,
 * other bytes) from one whose pages changed.
 */
export async function comparePages(a: Uint8Array, b: Uint8Array): Promise<{ isSame: boolean; pages: number }> {
  const [first, second] = await Promise.all([load(a), load(b)]);
  const left = first.getPages();
  const right = second.getPages();
  if (left.length !== right.length) return { isSame: false, pages: right.length };
  for (let index = 0; index < left.length; index += 1) {
    if (pageFingerprint(first, left[index]!.node) !== pageFingerprint(second, right[index]!.node))
      return { isSame: false, pages: right.length };
  }
  return { isSame: true, pages: right.length };
}

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  const doc = await PDFDocument.load(bytes, {
    ...IN_ONE_GO,
    throwOnInvalidObject: false,
    ignoreEncryption: true,
  });
  checkPageTree(doc, MAX_PDF_PAGES);
  return doc;
}

function pageFingerprint(doc: PDFDocument, page: PDFDict): string {
  const hash = createHash('sha256');
  for (const key of ['MediaBox', 'CropBox', 'Rotate']) hash.update(`${key}=${inherited(page, key)?.toString() ?? ''};`);
  hash.update(`Contents=${canonical(doc, page.get(PDFName.of('Contents')))};`);
  hash.update(`Resources=${canonical(doc, inherited(page, 'Resources'))};`);
  return hash.digest('hex');
}

function inherited(page: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = page;
  for (let depth = 0; node && depth < 32; depth += 1) {
    const value = node.get(PDFName.of(key));
    if (value !== undefined) return value;
    node = node.lookupMaybe(PDFName.of('Parent'), PDFDict);
  }
  return undefined;
}

/** A text that is the same for the same content however it is numbered or compressed: references are followed. */
function canonical(doc: PDFDocument, value: PDFObject | undefined): string {
  const parts: string[] = [];
  const seen = new Map<PDFRef, number>();
  let budget = MAX_OBJECTS_PER_PAGE;
  const walk = (item: PDFObject | undefined): void => {
    if (budget-- <= 0) throw new Error('the page refers to too many objects to compare');
    if (item instanceof PDFRef) {
      const known = seen.get(item);
      if (known !== undefined) return void parts.push(`@${known}`);
      seen.set(item, seen.size);
      return walk(doc.context.lookup(item));
    }
    if (item instanceof PDFRawStream) {
      parts.push('stream(');
      walkDict(item.dict, ['Length', 'Filter', 'DecodeParms']);
      parts.push(`)=${streamDigest(item)}`);
    } else if (item instanceof PDFDict) walkDict(item, ['Parent']);
    else if (item instanceof PDFArray) {
      parts.push('[');
      for (const element of item.asArray()) walk(element);
      parts.push(']');
    } else parts.push(item === undefined ? 'none' : item.toString());
  };
  const walkDict = (dict: PDFDict, skipped: string[]) => {
    parts.push('<<');
    const keys = dict
      .keys()
      .map((key) => key.decodeText())
      .filter((key) => !skipped.includes(key))
      .sort();
    for (const key of keys) {
      parts.push(`/${key} `);
      walk(dict.get(PDFName.of(key)));
    }
    parts.push('>>');
  };
  walk(value);
  return parts.join(' ');
}

function streamDigest(stream: PDFRawStream): string {
  let data: Uint8Array;
  try {
    data = decodePDFRawStream(stream).decode();
  } catch {
    data = stream.contents; // a filter pdf-lib cannot undo (DCT, JPX): its bytes as they are
  }
  return createHash('sha256').update(data).digest('hex');
}
