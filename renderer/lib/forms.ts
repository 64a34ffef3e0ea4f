import { useCallback, useState } from 'react';
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

/**
 * True in the render where `value` differs (Object.is) from the one before: the moment to reset
 * a form to newly loaded data. A form resets while rendering (React's "adjusting some state when
 * a prop changes"), not in an effect that would first show the old values.
 */
export function useHasChanged(value: unknown): boolean {
  const [seen, setSeen] = useState(value);
  if (Object.is(seen, value)) return false;
  setSeen(value);
  return true;
}

type StringKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/**
 * The values of a form, and `bind(name)` giving a text control its value and setter
 * (`<TextField {...bind('email')} />`). `onChange` runs on every edit (e.g. to hide "Saved").
 */
export function useFormState<T extends object>(initial: T | (() => T), onChange?: () => void) {
  const [form, setForm] = useState<T>(initial);
  const bind = useCallback(
    <K extends StringKeys<T>>(name: K) => ({
      value: form[name] as string,
      onValue: (value: string) => {
        onChange?.();
        setForm((current) => ({ ...current, [name]: value }));
      },
    }),
    [form, onChange],
  );
  return { form, setForm, bind };
}
