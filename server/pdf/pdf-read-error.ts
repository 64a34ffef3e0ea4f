// What is wrong with a PDF, apart from the code that reads one: the request thread names these
// without loading pdf-lib, which only the PDF worker threads (and the seal) need.
// Each becomes a 400 invalid-pdf problem saying so.

/** Width and height in points of a page as it is displayed (its rotation applied). */
export type PageSize = [width: number, height: number];

export type PdfProblem = 'not-pdf' | 'damaged' | 'encrypted' | 'no-pages' | 'too-many-pages' | 'too-complex';

export class PdfReadError extends Error {
  readonly problem: PdfProblem;
  constructor(problem: PdfProblem, message: string) {
    super(message);
    this.name = 'PdfReadError';
    this.problem = problem;
  }
}
