import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import type { UpdatePlan } from './update-plan';

/** Validation data for the Document Security Store (ISO 32000-2 12.8.4.3; PAdES B-LT), DER each. */
export type DssData = {
  certs: Uint8Array[];
  crls: Uint8Array[];
  ocsps: Uint8Array[];
  /**
   * Per signature already in the file: its VRI key (upper-case hex SHA-1 of its /Contents
   * string, padding included) and which of the items above validate it (indexes).
   */
  vri: { key: string; certs: number[]; crls: number[]; ocsps: number[] }[];
};

type DssKind = 'Certs' | 'CRLs' | 'OCSPs';

/**
 * Adds validation data to the DSS (made when the file has none): each item as its own stream
 * unless the DSS already holds the same bytes, listed in /Certs, /CRLs and /OCSPs, and a /VRI
 * entry per signature. Only the DSS and the catalog's /DSS entry change.
 */
export function planDss(plan: UpdatePlan, catalogRef: PDFRef, data: DssData): void {
  const { context } = plan;
  const dssRef = plan.ensureDict(catalogRef, 'DSS');
  const refsOf = (kind: DssKind, items: Uint8Array[]): PDFRef[] => {
    const known = existingStreams(plan, dssRef, kind);
    return items.map((item) => {
      const hash = sha256(item);
      let ref = known.get(hash);
      if (!ref) {
        ref = context.nextRef();
        plan.add(ref, context.stream(item));
        plan.appendToArray(dssRef, kind, ref);
        known.set(hash, ref);
      }
      return ref;
    });
  };
  const certs = refsOf('Certs', data.certs);
  const crls = refsOf('CRLs', data.crls);
  const ocsps = refsOf('OCSPs', data.ocsps);
  if (data.vri.length === 0) return;
  const vriRef = plan.ensureDict(dssRef, 'VRI');
  for (const entry of data.vri) {
    const pick = (refs: PDFRef[], indexes: number[]) => context.obj(indexes.map((index) => refs[index]!));
    const item = context.obj({});
    if (entry.certs.length) item.set(PDFName.of('Cert'), pick(certs, entry.certs));
    if (entry.crls.length) item.set(PDFName.of('CRL'), pick(crls, entry.crls));
    if (entry.ocsps.length) item.set(PDFName.of('OCSP'), pick(ocsps, entry.ocsps));
    plan.setEntry(vriRef, entry.key.toUpperCase(), item);
  }
}

/** The streams the DSS lists under `kind`, by the SHA-256 of their decoded bytes. */
function existingStreams(plan: UpdatePlan, dssRef: PDFRef, kind: DssKind): Map<string, PDFRef> {
  const found = new Map<string, PDFRef>();
  const dss = plan.current(dssRef);
  const value = dss instanceof PDFDict ? dss.get(PDFName.of(kind)) : undefined;
  const array = value instanceof PDFRef ? plan.current(value) : value;
  if (!(array instanceof PDFArray)) return found;
  for (const ref of array.asArray()) {
    if (!(ref instanceof PDFRef)) continue;
    const stream = plan.current(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    try {
      found.set(sha256(decodePDFRawStream(stream).decode()), ref);
    } catch {
      // An item we cannot decode is kept as it is; ours is added beside it.
    }
  }
  return found;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
