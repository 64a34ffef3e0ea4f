import type { SigningIdentityData } from '../../crypto/signing-identity';
import type { SignedPdfInput } from '../build-signed-pdf';
import type { DssData } from '../dss-objects';
import type { SignedPdfCover } from '../signed-pdf-types';
import { createHash } from 'node:crypto';
import { writeNewFileDurably } from '../../core/durable-file';
import { readPdfInfo } from '../read-pdf-info';
import { prepareMark } from '../prepare-mark';
import { prepareLogo } from '../prepare-logo';
import { readTextTags } from '../read-text-tags';
import { renderPage } from '../render-page';

/**
 * What the PDF sandbox can do: each task takes and returns plain data (structured-cloneable),
 * runs in a worker thread, and may be cut off by the sandbox's limits. Heavy code (pdf.js,
 * the timestamp and signature readers) loads when a task first asks for it, so that a worker is
 * ready as soon as it can be; that load counts against the time limit of the task that asked.
 */
export const pdfTasks = {
  /**
   * An uploaded PDF parsed completely enough to sign it: its pages' displayed sizes, and the
   * SHA-256 it is stored under (hashed here, off the request thread, from the bytes read).
   * With `storeAt`, a PDF that passes is written there, a new file, whole and synced to the
   * disk: the request thread then neither holds nor copies the upload while it is stored.
   */
  inspect: async (input: { bytes: Uint8Array; maxPages: number; storeAt?: string }) => {
    const info = await readPdfInfo(input.bytes, input.maxPages);
    const sha256 = createHash('sha256').update(input.bytes).digest('hex');
    if (input.storeAt) writeNewFileDurably(input.storeAt, input.bytes);
    return { ...info, sha256 };
  },
  /** A contract's signed PDF: fields stamped, audit trail, sealed by the identity (its key crosses as a KeyObject). */
  // Loaded on first use: a worker that only reads uploads starts without the sealing code.
  seal: async (input: { document: SignedPdfInput; identity: SigningIdentityData }) => {
    const [{ buildSignedPdf }, { signingIdentityFromData }] = await Promise.all([
      import('../build-signed-pdf'),
      import('../../crypto/signing-identity'),
    ]);
    return buildSignedPdf(input.document, signingIdentityFromData(input.identity));
  },
  /** The text tags (`{{signature:1}}` …) in a PDF's text, with their boxes on the displayed pages. */
  'find-tags': (input: { bytes: Uint8Array; maxTags: number }) => readTextTags(input.bytes, input.maxTags),
  /** A contract's original with its text tags painted over, for the party's download (one incremental update). */
  'cover-tags': async (input: { bytes: Uint8Array; covers: SignedPdfCover[] }) =>
    (await import('../cover-tags')).coverTags(input),
  /** One page of a contract as an image for the signing page (pdf.js on a Skia canvas). */
  'render-page': renderPage,
  /** A drawn or uploaded signature checked, decoded and re-encoded as a trimmed PNG of its ink. */
  'prepare-mark': prepareMark,
  /** The office's logo (PNG or SVG) checked and drawn afresh into a PNG that is safe to serve and embed. */
  'prepare-logo': prepareLogo,
  /** A signed PDF with an empty document timestamp appended, for the token to be written in. */
  'prepare-document-timestamp': async (input: {
    bytes: Uint8Array;
    fieldName: string;
    room: number;
    dss?: DssData | undefined;
  }) => (await import('../document-timestamp')).prepareDocumentTimestamp(input),
  /** The structural rule: what each update after the seal (its first `sealedLength` bytes) changed, and whether PAdES allows it. */
  'check-updates-after-seal': async (input: { bytes: Uint8Array; sealedLength: number }) =>
    (await import('../check-updates-after-seal')).checkUpdatesAfterSeal(input.bytes, input.sealedLength),
  /** Whether two PDFs show the same pages (content and resources decoded), however their bytes differ. */
  'compare-pages': async (input: { a: Uint8Array; b: Uint8Array }) =>
    (await import('../compare-pages')).comparePages(input.a, input.b),
  /** The DSS of a signed PDF (certificates, CRLs, OCSP answers), each with the first timestamped revision that holds it. */
  'read-dss': async (input: { bytes: Uint8Array; ends: number[] }) =>
    (await import('../read-dss')).readDss(input.bytes, input.ends),
  /** Every signature and timestamp of a PDF (the verify page's and the evidence package's reading), each checked. */
  'inspect-signatures': async (input: { bytes: Uint8Array }) =>
    (await import('../../crypto/inspect-signatures')).inspectSignatures(input.bytes),
};

export type PdfTasks = typeof pdfTasks;
export type PdfTaskName = keyof PdfTasks;
export type PdfTaskInput<T extends PdfTaskName> = Parameters<PdfTasks[T]>[0];
export type PdfTaskOutput<T extends PdfTaskName> = Awaited<ReturnType<PdfTasks[T]>>;
