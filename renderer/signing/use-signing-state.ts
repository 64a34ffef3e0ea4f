import { useCallback, useEffect, useState } from 'react';
import type { SigningStage, TSigningState } from '../../shared/api/signing';
import { SigningError, type SigningApi } from './api';

/** Stages after which nothing more can happen on this link: no need to ask again. */
const FINAL: ReadonlySet<SigningStage> = new Set(['completed', 'rejected', 'closed-rejected', 'expired', 'withdrawn']);
/** How often an open page asks whether others signed, rejected, or the link expired. */
const POLL_MS = 30_000;

/**
 * The party's state, from the page's inlined copy first, then kept fresh: when the page is
 * shown again (focus, tab switch), every 30 s while visible, and at the moment the link expires,
 * so that a page left open notices another party's answer or the expiry without a reload.
 */
export function useSigningState(api: SigningApi, initial: TSigningState | undefined) {
  const [state, setState] = useState(initial);
  // Shown only while there is no state: a page already showing the document keeps it through
  // a passing network hiccup.
  const [loadError, setLoadError] = useState<SigningError>();

  const refresh = useCallback(
    () =>
      api.state().then(
        (next) => {
          setState(next);
          setLoadError(undefined);
          return next;
        },
        (error: unknown) => {
          setLoadError(error instanceof SigningError ? error : new SigningError(0, String(error)));
          return undefined;
        },
      ),
    [api],
  );

  useEffect(() => {
    if (!initial) void refresh();
  }, [initial, refresh]);

  const stage = state?.stage;
  const expiresInMs = state?.contract.expiresInMs ?? null;
  useEffect(() => {
    if (!stage || FINAL.has(stage)) return;
    const whenShown = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    const timer = window.setInterval(whenShown, POLL_MS);
    // setTimeout's limit is 2^31 ms (24.8 days): a later expiry is caught by the polling.
    const expiry =
      expiresInMs !== null && expiresInMs < 2 ** 31 - 1_000
        ? window.setTimeout(() => void refresh(), expiresInMs + 500)
        : undefined;
    document.addEventListener('visibilitychange', whenShown);
    window.addEventListener('focus', whenShown);
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(expiry);
      document.removeEventListener('visibilitychange', whenShown);
      window.removeEventListener('focus', whenShown);
    };
  }, [stage, expiresInMs, refresh]);

  return { state, adopt: setState, refresh, loadError };
}
