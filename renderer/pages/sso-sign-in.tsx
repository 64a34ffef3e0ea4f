import { useEffect, useState } from 'react';
import type { TSession } from '../../shared/api/session';
import type { TSsoStatus } from '../../shared/api/sso';
import { SSO_CALLBACK_PATH } from '../../shared/api/sso';
import { Button, Loading, ProblemAlert } from '../components/ui';
import { ApiError, request, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { useAction } from '../lib/use-action';
import { useLatest } from '../lib/use-latest';
import { useRouter } from '../lib/router';

/** Whether the browser came back from the provider: the callback page with its answer. */
export const isSsoCallback = (): boolean =>
  window.location.pathname === SSO_CALLBACK_PATH && window.location.search.length > 1;

// The provider's answer is posted once, however often React runs the effect (a state works once).
let finishing: { url: string; result: Promise<TSession> } | undefined;

function finishOnce(url: string): Promise<TSession> {
  if (finishing?.url !== url) {
    finishing = {
      url,
      result: sendJson<TSession>('POST', '/api/sso/callback', { callback_url: url }, { isPublic: true }),
    };
  }
  return finishing.result;
}

/** After the provider: the session, or the server's reason shown on the sign-in page. */
export function useSsoCallback(begin: (session: TSession) => void): {
  isFinishing: boolean;
  error: ApiError | undefined;
} {
  const [state, setState] = useState(() => ({
    isFinishing: isSsoCallback(),
    error: undefined as ApiError | undefined,
  }));
  const latestBegin = useLatest(begin);
  const { navigate } = useRouter();
  useEffect(() => {
    if (!isSsoCallback()) return;
    const url = window.location.href;
    let isCurrent = true;
    finishOnce(url)
      .then((session) => {
        if (!isCurrent) return;
        // The code and state leave the address bar and the history.
        navigate('/', { replace: true });
        latestBegin.current(session);
      })
      .catch((error: unknown) => {
        if (!isCurrent) return;
        navigate('/', { replace: true });
        setState({
          isFinishing: false,
          error: error instanceof ApiError ? error : new ApiError(0, 'Error', String(error)),
        });
      });
    return () => {
      isCurrent = false;
    };
  }, [latestBegin, navigate]);
  return state;
}

/** The sign-in page's single sign-on button, when the office has set it up. */
export function SsoButton({ status }: { status: TSsoStatus }) {
  const t = useT();
  const action = useAction<'start'>();
  const start = () =>
    void action.run('start', async () => {
      const started = await sendJson<{ authorization_url: string }>('POST', '/api/sso/start', undefined, {
        isPublic: true,
      });
      window.location.assign(started.authorization_url);
    });
  return (
    <div className="sso-sign-in">
      <ProblemAlert error={action.error} />
      <Button variant="primary" className="button-block" onClick={start} isBusy={action.busy === 'start'}>
        {status.provider_name ? t('sso.signInWith', { provider: status.provider_name }) : t('sso.signInWithDefault')}
      </Button>
    </div>
  );
}

/** GET /api/sso: whether to show the button (no button when it cannot be read). */
export function useSsoStatus(): TSsoStatus | undefined {
  const [status, setStatus] = useState<TSsoStatus>();
  useEffect(() => {
    const controller = new AbortController();
    request('GET', '/api/sso', { isPublic: true, signal: controller.signal })
      .then(async (response) => setStatus((await response.json()) as TSsoStatus))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return status;
}

export function SsoFinishing() {
  const t = useT();
  return <Loading label={t('sso.finishing')} />;
}
