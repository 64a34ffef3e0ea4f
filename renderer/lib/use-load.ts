import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from './api';
import { asApiError } from './forms';
import { useLatest } from './use-latest';

export type Loaded<T> = {
  data: T | undefined;
  error: ApiError | undefined;
  isLoading: boolean;
  reload: () => Promise<void>;
};

/** What the last load for one set of dependencies gave. */
type Settled<T> = { key: string; data: T | undefined; error: ApiError | undefined };

/**
 * Loads data for a page and, with `pollMs`, keeps it fresh while the page is visible
 * (webhook attempts, contract status). A failed poll keeps the last data shown. `deps` are
 * the plain values the load reads (paths, ids): new values start a new load and, until it
 * answers, show nothing loaded rather than the data of the old ones.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly (string | number | boolean | null | undefined)[],
  options: { pollMs?: number } = {},
): Loaded<T> {
  const key = JSON.stringify(deps);
  const [settled, setSettled] = useState<Settled<T>>();
  // The newest `load` closure, for the polls and reloads started by older renders.
  const loadRef = useLatest(load);

  const run = useCallback(
    async (forKey: string, signal: AbortSignal) => {
      try {
        const result = await loadRef.current(signal);
        if (signal.aborted) return;
        setSettled({ key: forKey, data: result, error: undefined });
      } catch (err) {
        if (signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
        setSettled((last) => ({
          key: forKey,
          data: last?.key === forKey ? last.data : undefined,
          error: asApiError(err),
        }));
      }
    },
    [loadRef],
  );

  const runningRef = useRef<{ key: string; controller: AbortController } | undefined>(undefined);
  const start = useCallback(
    (forKey: string) => {
      runningRef.current?.controller.abort();
      const controller = new AbortController();
      runningRef.current = { key: forKey, controller };
      return run(forKey, controller.signal);
    },
    [run],
  );
  const reload = useCallback(async () => {
    if (runningRef.current) await start(runningRef.current.key);
  }, [start]);

  const pollMs = options.pollMs;
  useEffect(() => {
    void start(key);
    const timer = pollMs
      ? setInterval(() => {
          // A poll joins the running load's signal rather than cancelling a slow answer.
          const running = runningRef.current;
          if (document.visibilityState !== 'visible' || running?.key !== key) return;
          if (!running.controller.signal.aborted) void run(key, running.controller.signal);
        }, pollMs)
      : undefined;
    return () => {
      runningRef.current?.controller.abort();
      runningRef.current = undefined;
      if (timer) clearInterval(timer);
    };
  }, [key, pollMs, run, start]);

  const isCurrent = settled?.key === key;
  return {
    data: isCurrent ? settled.data : undefined,
    error: isCurrent ? settled.error : undefined,
    isLoading: !isCurrent,
    reload,
  };
}
