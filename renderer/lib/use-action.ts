import { useCallback, useState, type FormEvent } from 'react';
import type { ApiError } from './api';
import { asApiError, fieldErrors } from './forms';

/**
 * What a button or form does to the server: which action runs (`busy`, for its spinner), and
 * the problem of the last one that failed (shown, with one message per field in `errors`).
 * Starting an action clears the last problem.
 */
export function useAction<K extends string = string>() {
  const [busy, setBusy] = useState<K>();
  const [error, setError] = useState<ApiError>();
  const run = useCallback(async (kind: K, work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(kind);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (err) {
      setError(asApiError(err));
      return false;
    } finally {
      setBusy(undefined);
    }
  }, []);
  /** A form's onSubmit that runs `work` as the action `kind`. */
  const submit = useCallback(
    (kind: K, work: () => Promise<unknown>) => (event: FormEvent) => {
      event.preventDefault();
      void run(kind, work);
    },
    [run],
  );
  const dismiss = useCallback(() => setError(undefined), []);
  return { busy, error, errors: fieldErrors(error), run, submit, dismiss };
}
