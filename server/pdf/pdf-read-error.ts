/** What is wrong with a PDF that cannot be used: becomes a 400 invalid-pdf problem saying so. */
export type PdfProblem = 'not-pdf' | 'damaged' | 'encrypted' | 'no-pages' | 'too-many-pages' | 'too-complex';

export class PdfReadError extends Error {
  readonly problem: PdfProblem;
  constructor(problem: PdfProblem, message: string) {
    super(message);
    this.name = 'PdfReadError';
    this.problem = problem;
  }
}
