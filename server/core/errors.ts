import type { ProblemCode } from '../../shared/api/problems';

/** The one error type of the service: a stable code that the error middleware maps to a problem response. */
export class AppError extends Error {
  readonly code: ProblemCode;
  readonly validationErrors: string[];
  readonly headers: Record<string, string>;

  constructor(
    code: ProblemCode,
    detail: string,
    options: { validationErrors?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.validationErrors = options.validationErrors ?? [];
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what = 'resource') => new AppError('not-found', `No such ${what}.`);
export const forbidden = (detail: string) => new AppError('forbidden', detail);
export const validationFailed = (lines: string[]) =>
  new AppError('validation-failed', 'The request has invalid fields; see validation_errors.', {
    validationErrors: lines,
  });
