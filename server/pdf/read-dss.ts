import { createHash } from 'node:crypto';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { IN_ONE_GO } from './in-one-go';

/** One item of a PDF's Document Security Store, DER, with the first revision that holds it. */
export type DssItem = {
  kind: 'cert' | 'crl' | 'ocsp';
  der: Uint8Array;
  /** Index in `ends` of the first revision that holds it; -1 when only the whole file does. */
  firstIn: number;
};

/** More items than decades of renewals write: the rest of a hostile DSS is not read. */
const MAX_ITEMS = 1_000;
const MAX_ITEM_BYTES = 8 * 1024 * 1024;
const KINDS = [
  ['Certs', 'cert'],
  ['CRLs', 'crl'],
  ['OCSPs', 'ocsp'],
] as const;

/**
 * The certificates, CRLs and OCSP responses of a signed PDF's DSS (ISO 32000-2 12.8.4.3), each
 * decoded, with the first of the revisions ending at `ends` (ascending: where each document
 * timestamp's byte range ends) that already holds it: the timestamp that first covers it.
 * Runs in the PDF sandbox.
 */
export async function readDss(bytes: Uint8Array, ends: number[]): Promise<DssItem[]> {
  const items = itemsOf(await load(bytes));
  const firstIn = new Map<string, number>();
  for (const [index, end] of ends.entries()) {
    if (end <= 0 || end > bytes.length) continue;
    for (const item of itemsOf(await load(bytes.subarray(0, end)))) {
      const key = `${item.kind}:${sha256(item.der)}`;
      if (!firstIn.has(key)) firstIn.set(key, index);
    }
  }
  return items.map((item) => ({ ...item, firstIn: firstIn.get(`${item.kind}:${sha256(item.der)}`) ?? -1 }));
}

function load(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, { ...IN_ONE_GO, throwOnInvalidObject: false });
}

function itemsOf(doc: PDFDocument): { kind: DssItem['kind']; der: Uint8Array }[] {
  const dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) return [];
  const found: { kind: DssItem['kind']; der: Uint8Array }[] = [];
  const seen = new Set<string>();
  for (const [key, kind] of KINDS) {
    for (const ref of dss.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? []) {
      if (found.length >= MAX_ITEMS) return found;
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      let der: Uint8Array;
      try {
        der = decodePDFRawStream(stream).decode();
      } catch {
        continue;
      }
      const hash = `${kind}:${sha256(der)}`;
      if (der.length > MAX_ITEM_BYTES || seen.has(hash)) continue;
      seen.add(hash);
      found.push({ kind, der });
    }
  }
  return found;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
