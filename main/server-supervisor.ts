import path from 'node:path';
import type { TServerStatus } from '../shared/host-messages';
import type { FailureChoice, ServerFailure } from './failure';
import {
  connectHost,
  HostStartError,
  type HostChannel,
  type HostClient,
  type HostReady,
  type HostShutdown,
} from './host-client';
import type { PortChoice } from './port';
import type { ShellState } from './tray-status';

export type SupervisorDeps = {
  dataDir: string;
  /** The environment the server runs with (PORT and DATA_DIR are set here). */
  env: Record<string, string>;
  choosePort(): Promise<PortChoice>;
  /** Starts the host process: Electron's utility process in the app, a Node fork in tests. */
  openChannel(env: Record<string, string>): HostChannel;
  onState(state: ShellState): void;
  /** The server is up: open (or reload) the window on this URL. */
  onReady(ready: HostReady, windowUrl: string): void;
  /** Shows the failure and answers what the user chose. */
  askAfterFailure(failure: ServerFailure): Promise<FailureChoice>;
  openLogsFolder(logsDir: string): void;
  /** The user chose to quit after a failure. */
  onGiveUp(): void;
  chooseWindowUrl(serverUrl: string, loginUrl: string | null): string;
  log(message: string, err?: unknown): void;
  readyTimeoutMs?: number;
  pollMs?: number;
};

export type Supervisor = {
  start(): Promise<void>;
  /** Fresh figures from the running server. */
  status(): Promise<TServerStatus>;
  /** Where a new window should open now: a fresh one-time sign-in link; undefined while no server runs. */
  windowUrl(): Promise<string | undefined>;
  logsDir(): string;
  /** Asks the running server to stop cleanly; undefined when none runs. */
  stop(timeoutMs: number): Promise<HostShutdown | undefined>;
};

/**
 * Keeps the server running for the shell: starts it, waits for ready, polls its status for the
 * tray, and on a failed start or a crash tells the user (never hides it) and restarts or quits
 * as they choose.
 */
export function createSupervisor(deps: SupervisorDeps): Supervisor {
  const pollMs = deps.pollMs ?? 5_000;
  let client: HostClient | undefined;
  let serverUrl: string | undefined;
  let poll: NodeJS.Timeout | undefined;
  let isStopping = false;
  let logsDir = path.join(deps.dataDir, 'logs');

  const stopPolling = () => {
    clearInterval(poll);
    poll = undefined;
  };

  const refresh = async (current: HostClient) => {
    try {
      const status = await current.status();
      if (client === current && !isStopping) deps.onState({ phase: 'running', status });
    } catch (err) {
      if (client === current && !isStopping) deps.log('status request failed', err);
    }
  };

  const handleFailure = async (failure: ServerFailure) => {
    stopPolling();
    if (isStopping) return;
    deps.log(
      `server ${failure.kind === 'start' ? 'could not start' : 'stopped unexpectedly'}: ${failure.message ?? `code ${failure.code}`}`,
    );
    deps.onState({
      phase: 'failed',
      message: failure.message ?? (failure.kind === 'start' ? 'could not start' : 'stopped unexpectedly'),
    });
    let choice = await deps.askAfterFailure(failure);
    while (choice === 'open-logs') {
      deps.openLogsFolder(failure.logsDir ?? logsDir);
      choice = await deps.askAfterFailure(failure);
    }
    if (isStopping) return;
    if (choice === 'restart') await start();
    else deps.onGiveUp();
  };

  const start = async (): Promise<void> => {
    if (isStopping) return;
    deps.onState({ phase: 'starting' });
    const port = await deps.choosePort();
    if (port.reason === 'free') deps.log('port 8750 is taken; the server takes a free port');
    const current = connectHost(deps.openChannel({ ...deps.env, DATA_DIR: deps.dataDir, PORT: port.port }), {
      readyTimeoutMs: deps.readyTimeoutMs ?? 60_000,
    });
    client = current;
    current.onCrash((crash) => void handleFailure({ kind: 'crash', ...crash }));
    let ready: HostReady;
    try {
      ready = await current.ready;
    } catch (err) {
      const failure = err instanceof HostStartError ? err : new HostStartError(String(err), null);
      return handleFailure({ kind: 'start', message: failure.message, logsDir: failure.logsDir ?? logsDir });
    }
    logsDir = ready.logsDir;
    serverUrl = ready.url;
    const loginUrl = await current.adminLoginUrl().catch(() => null);
    await refresh(current);
    deps.onReady(ready, deps.chooseWindowUrl(ready.url, loginUrl));
    stopPolling();
    poll = setInterval(() => void refresh(current), pollMs);
    poll.unref?.();
  };

  return {
    start,
    status: () => (client ? client.status() : Promise.reject(new Error('the server is not running'))),
    async windowUrl() {
      const current = client;
      if (!current || !serverUrl || isStopping) return undefined;
      return deps.chooseWindowUrl(serverUrl, await current.adminLoginUrl().catch(() => null));
    },
    logsDir: () => logsDir,
    async stop(timeoutMs) {
      isStopping = true;
      stopPolling();
      return client?.shutdown(timeoutMs);
    },
  };
}
