import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { TSession, TSetupStatus } from '../../shared/api/session';
import { ApiError, getJson, onSessionEnded, request, sendJson, setCsrfToken } from './api';

export type SignInReason = 'expired' | 'signed-out' | 'restored' | 'link-expired' | undefined;

type SessionValue = {
  session: TSession | undefined;
  setup: TSetupStatus | undefined;
  isBooting: boolean;
  bootError: ApiError | undefined;
  reason: SignInReason;
  /** After sign-in or setup: the session the server answered with. */
  begin: (session: TSession) => void;
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
  end: (reason: SignInReason) => void;
};

const SessionContext = createContext<SessionValue | undefined>(undefined);

async function readSetup(): Promise<TSetupStatus> {
  return (await request('GET', '/api/setup', { isPublic: true })).json() as Promise<TSetupStatus>;
}

async function readSession(): Promise<TSession | undefined> {
  try {
    return (await request('GET', '/api/session', { isPublic: true })).json() as Promise<TSession>;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return undefined;
    throw err;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<TSession>();
  const [setup, setSetup] = useState<TSetupStatus>();
  const [isBooting, setIsBooting] = useState(true);
  const [bootError, setBootError] = useState<ApiError>();
  const [reason, setReason] = useState<SignInReason>(() =>
    new URLSearchParams(window.location.search).get('signin') === 'link-expired' ? 'link-expired' : undefined,
  );

  const apply = useCallback((next: TSession | undefined) => {
    setCsrfToken(next?.csrf_token);
    setSession(next);
  }, []);

  const boot = useCallback(
    () =>
      readSetup()
        .then(async (status) => {
          setSetup(status);
          apply(status.needs_setup ? undefined : await readSession());
          setBootError(undefined);
        })
        .catch((err: unknown) => setBootError(err instanceof ApiError ? err : new ApiError(0, 'Error', String(err))))
        .finally(() => setIsBooting(false)),
    [apply],
  );

  useEffect(() => {
    void boot();
  }, [boot]);

  const end = useCallback(
    (why: SignInReason) => {
      apply(undefined);
      setReason(why);
    },
    [apply],
  );

  useEffect(() => onSessionEnded(() => end('expired')), [end]);

  const value: SessionValue = {
    session,
    setup,
    isBooting,
    bootError,
    reason,
    begin: (next) => {
      setReason(undefined);
      setSetup({ needs_setup: false, office_name: next.office.name });
      apply(next);
    },
    refresh: async () => apply(await readSession()),
    signOut: async () => {
      try {
        await sendJson('DELETE', '/api/session');
      } finally {
        end('signed-out');
      }
    },
    end,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in session; only used inside the signed-in shell. */
export function useSignedIn(): TSession {
  const { session } = useSession();
  if (!session) throw new Error('not signed in');
  return session;
}

export { getJson };
