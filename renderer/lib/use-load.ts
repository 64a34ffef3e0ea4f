import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';

export type Loaded<T> = {
  data: T | undefined;
  error: ApiError | undefined;
  isLoading: boolean;
  reload: () => Promise<void>;
};

/**
 * Loads data for a page and, with `pollMs`, keeps it fresh while the page is visible
 * (webhook attempts, contract status). A failed poll keeps the last data shown.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: unknown[],
  options: { pollMs?: number } = {},
): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [isLoading, setIsLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;

  const run = useCallback(async (signal: AbortSignal, isQuiet: boolean) => {
    if (!isQuiet) setIsLoading(true);
    try {
      const result = await loadRef.current(signal);
      if (signal.aborted) return;
      setData(result);
      setError(undefined);
    } catch (err) {
      if (signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
      setError(
        err instanceof ApiError ? err : new ApiError(0, 'Error', err instanceof Error ? err.message : String(err)),
      );
    } finally {
      if (!signal.aborted) setIsLoading(false);
    }
  }, []);

  const controllerRef = useRef<AbortController | undefined>(undefined);
  const reload = useCallback(async () => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    await run(controller.signal, true);
  }, [run]);

  useEffect(() => {
    const controller = new AbortController();
    controllerRef.current = controller;
    setData(undefined);
    void run(controller.signal, false);
    let timer: ReturnType<typeof setInterval> | undefined;
    if (options.pollMs) {
      timer = setInterval(() => {
        if (document.visibilityState !== 'visible') return;
        const current = controllerRef.current;
        if (current && !current.signal.aborted) void run(current.signal, true);
      }, options.pollMs);
    }
    return () => {
      controller.abort();
      if (timer) clearInterval(timer);
    };
  }, deps);

  return { data, error, isLoading, reload };
}
