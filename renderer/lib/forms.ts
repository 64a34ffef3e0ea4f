import { ApiError } from './api';

/** `field: message` lines of a validation problem, by field, to show beside each control. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const byField: Record<string, string> = {};
  for (const line of error.validationErrors) {
    const index = line.indexOf(':');
    if (index <= 0) continue;
    const field = line.slice(0, index).trim();
    byField[field] ??= line.slice(index + 1).trim();
  }
  return byField;
}

export const asApiError = (err: unknown): ApiError =>
  err instanceof ApiError ? err : new ApiError(0, 'Error', err instanceof Error ? err.message : String(err));
