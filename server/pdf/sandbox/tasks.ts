import { readPdfInfo } from '../read-pdf-info';

/**
 * What the PDF sandbox can do: each task takes and returns plain data (structured-cloneable),
 * runs in a worker thread, and may be cut off by the sandbox's limits. Tasks other than
 * `inspect` load their code when first asked, so that a worker starts as fast as before them
 * (its start counts against the first task's time limit).
 */
export const pdfTasks = {
  /** An uploaded PDF parsed completely enough to sign it: its pages' displayed sizes. */
  inspect: (input: { bytes: Uint8Array; maxPages: number }) => readPdfInfo(input.bytes, input.maxPages),
  /** A signed PDF with an empty document timestamp appended, for the token to be written in. */
  prepareDocumentTimestamp: async (input: { bytes: Uint8Array; fieldName: string; room: number }) =>
    (await import('../document-timestamp')).prepareDocumentTimestamp(input),
  /** Every signature and timestamp of a PDF (the verify page's and the evidence package's reading), each checked. */
  inspectSignatures: async (input: { bytes: Uint8Array }) => (await import('../../evidence/inspect-signatures')).inspectSignatures(input.bytes),
};

export type PdfTasks = typeof pdfTasks;
export type PdfTaskName = keyof PdfTasks;
export type PdfTaskInput<T extends PdfTaskName> = Parameters<PdfTasks[T]>[0];
export type PdfTaskOutput<T extends PdfTaskName> = Awaited<ReturnType<PdfTasks[T]>>;
