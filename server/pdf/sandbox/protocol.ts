import { PdfReadError, type PdfProblem } from '../pdf-read-error';

/** A task for the sandbox's worker thread. */
export type SandboxRequest = { id: number; task: string; input: unknown };

/** A finished task: its output, or its error reduced to what crosses a thread. */
export type SandboxReply =
  { id: number; ok: true; output: unknown } | { id: number; ok: false; error: SandboxErrorData };

/** `code`: a system error's (ENOSPC when a task writes to a full disk), so that it is answered as such. */
type SandboxErrorData = { name: string; message: string; problem?: PdfProblem; code?: string };

export function toErrorData(error: unknown): SandboxErrorData {
  if (error instanceof PdfReadError) return { name: error.name, message: error.message, problem: error.problem };
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { code } = error as NodeJS.ErrnoException;
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
}

/** The error again on this side: what is wrong with a PDF stays a PdfReadError, a system error keeps its code. */
export function fromErrorData(data: SandboxErrorData): Error {
  if (data.name === 'PdfReadError' && data.problem) return new PdfReadError(data.problem, data.message);
  const error: Error & { code?: string } = new Error(data.message);
  error.name = data.name;
  if (data.code) error.code = data.code;
  return error;
}
